import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { setEtag } from '../../../shared/concurrency/if-match';
import { DeviceFieldResponse } from '../domain/device-field.response.dto';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { CreateDeviceFieldCommand } from './create-device-field.command';
import { CreateDeviceFieldRequest } from './create-device-field.request.dto';

@ApiTags('device-types')
@ApiBearerAuth()
@Controller('v1/device-types')
export class CreateDeviceFieldController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':deviceTypeId/fields')
  @RequirePermission('device-types:write')
  @ApiCreatedResponse({
    type: DeviceFieldResponse,
    description: '`lockVersion` 1, `ETag: "1"`, `Location: /v1/device-types/{deviceTypeId}/fields/{key}`. A disabled type accepts new fields.',
  })
  @ApiNotFoundResponse({ description: 'Missing, or in a tenant the caller has no effective grant in (`resourceType` `device_type`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: needs the permission through a tenant-level grant.' })
  @ApiConflictResponse({ description: '`duplicate_key` (deprecated keys stay taken); `max_fields` (200 active fields per type).' })
  async create(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceTypeId') deviceTypeId: string,
    @Body() body: CreateDeviceFieldRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceFieldResponse> {
    const field = await this.commandBus.execute(new CreateDeviceFieldCommand(caller, deviceTypeId, body));
    res.location(`/v1/device-types/${field.deviceTypeId}/fields/${field.key}`);
    setEtag(res, field);
    return field;
  }
}
