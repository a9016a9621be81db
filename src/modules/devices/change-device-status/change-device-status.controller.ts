import { Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeviceResponse } from '../domain/device.response.dto';
import { ChangeDeviceStatusCommand } from './change-device-status.command';

const NOT_FOUND = 'Missing, in another tenant, or outside the caller’s scope.';
const INVALID_STATE = '`invalid_state` (+`currentStatus`): not a move of design §7 from the current status.';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class ChangeDeviceStatusController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':deviceId/disable')
  @HttpCode(200)
  @RequirePermission('devices:write')
  @ApiOkResponse({ type: DeviceResponse, description: '`active` → `disabled`: uplinks of a disabled device are not processed.' })
  @ApiConflictResponse({ description: INVALID_STATE })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  disable(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'disable'));
  }

  @Post(':deviceId/reactivate')
  @HttpCode(200)
  @RequirePermission('devices:write')
  @ApiOkResponse({ type: DeviceResponse, description: '`disabled` → `active`.' })
  @ApiConflictResponse({ description: INVALID_STATE })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'reactivate'));
  }

  @Post(':deviceId/retire')
  @HttpCode(200)
  @RequirePermission('devices:write')
  @ApiOkResponse({
    type: DeviceResponse,
    description: 'Terminal. Closes the open assignment period now and frees the devEui for a new device; the history stays.',
  })
  @ApiConflictResponse({ description: INVALID_STATE })
  @ApiNotFoundResponse({ description: NOT_FOUND })
  retire(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<DeviceResponse> {
    return this.commandBus.execute(new ChangeDeviceStatusCommand(caller, deviceId, 'retire'));
  }
}
