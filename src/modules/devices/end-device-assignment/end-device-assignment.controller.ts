import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeviceAssignmentResponse } from '../domain/device.response.dto';
import { EndDeviceAssignmentCommand } from './end-device-assignment.command';
import { EndDeviceAssignmentRequest } from './end-device-assignment.request.dto';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class EndDeviceAssignmentController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':deviceId/assignments/:deviceAssignmentId/end')
  @HttpCode(200)
  @RequirePermission('devices:assign')
  @ApiOkResponse({
    type: DeviceAssignmentResponse,
    description: 'Closes the open period; the device becomes unassigned. A `validTo` not after the start or in the future is 400 `body.validTo` `range`.',
  })
  @ApiConflictResponse({ description: '`assignment_closed`: the period has already ended.' })
  @ApiNotFoundResponse({ description: 'Device or period missing, in another tenant, or outside the caller’s scope.' })
  end(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @UuidParam('deviceAssignmentId') deviceAssignmentId: string,
    @Body() body: EndDeviceAssignmentRequest,
  ): Promise<DeviceAssignmentResponse> {
    return this.commandBus.execute(new EndDeviceAssignmentCommand(caller, deviceId, deviceAssignmentId, body.validTo));
  }
}
