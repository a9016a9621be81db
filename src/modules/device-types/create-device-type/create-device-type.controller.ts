import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { DeviceTypeResponse } from '../domain/device-type.response.dto';
import { CreateDeviceTypeCommand } from './create-device-type.command';
import { CreateDeviceTypeRequest } from './create-device-type.request.dto';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/tenants')
export class CreateDeviceTypeController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':tenantNumber/device-types')
  @RequirePermission('device-types:write')
  @ApiCreatedResponse({ type: DeviceTypeResponse, description: '`Location: /v1/device-types/{deviceTypeId}`, `ETag: "1"`.' })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`duplicate_key` (per tenant).' })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateDeviceTypeRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceTypeResponse> {
    const type = await this.commandBus.execute(new CreateDeviceTypeCommand(caller, tenantNumber, body));
    res.location(`/v1/device-types/${type.deviceTypeId}`);
    setEtag(res, type);
    return type;
  }
}
