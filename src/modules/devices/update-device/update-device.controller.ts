import { Body, Controller, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeviceResponse } from '../domain/device.response.dto';
import { UpdateDeviceCommand } from './update-device.command';
import { UpdateDeviceRequest } from './update-device.request.dto';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class UpdateDeviceController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':deviceId')
  @RequirePermission('devices:write')
  @ApiOkResponse({ type: DeviceResponse, description: '`devEui` and `deviceTypeId` are immutable (`unknown_property`).' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): the device is retired.' })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  update(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string, @Body() body: UpdateDeviceRequest): Promise<DeviceResponse> {
    return this.commandBus.execute(new UpdateDeviceCommand(caller, deviceId, { ...body }));
  }
}
