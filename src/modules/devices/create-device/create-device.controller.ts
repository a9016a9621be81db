import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { DeviceResponse } from '../domain/device.response.dto';
import { CreateDeviceCommand } from './create-device.command';
import { CreateDeviceRequest } from './create-device.request.dto';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/tenants')
export class CreateDeviceController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':tenantNumber/devices')
  @RequirePermission('devices:write')
  @ApiCreatedResponse({
    type: DeviceResponse,
    description:
      '`Location: /v1/devices/{deviceId}`. Needs `devices:write` covering the target unit, or a tenant-level grant for an unassigned ' +
      'device. An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiConflictResponse({
    description: '`duplicate_dev_eui` (a non-retired device of any tenant holds it), `device_type_disabled`, `organization_unit_disabled`.',
  })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateDeviceRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceResponse> {
    const device = await this.commandBus.execute(new CreateDeviceCommand(caller, tenantNumber, body));
    res.location(`/v1/devices/${device.deviceId}`);
    return device;
  }
}
