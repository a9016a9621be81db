import { Body, Controller, Post, Res } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeviceAssignmentResponse } from '../domain/device.response.dto';
import { AssignDeviceCommand } from './assign-device.command';
import { AssignDeviceRequest } from './assign-device.request.dto';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class AssignDeviceController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':deviceId/assignments')
  @RequirePermission('devices:assign')
  @ApiCreatedResponse({
    type: DeviceAssignmentResponse,
    description:
      'Assign or move: the open period (if any) is closed at `validFrom` and a new one opens there. ' +
      '`Location: /v1/devices/{deviceId}/assignments/{deviceAssignmentId}`. Needs `devices:assign` covering the current and the target unit. ' +
      'A `validFrom` in the future, not after the open period’s start, or before the last period’s end is 400 `body.validFrom` `range`.',
  })
  @ApiConflictResponse({ description: '`already_assigned` (already in that unit, or a concurrent move won), `organization_unit_disabled`, `invalid_state` (retired).' })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  async assign(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @Body() body: AssignDeviceRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<DeviceAssignmentResponse> {
    const assignment = await this.commandBus.execute(new AssignDeviceCommand(caller, deviceId, body));
    res.location(`/v1/devices/${deviceId}/assignments/${assignment.deviceAssignmentId}`);
    return assignment;
  }
}
