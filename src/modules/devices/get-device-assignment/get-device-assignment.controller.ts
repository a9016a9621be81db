import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeviceAssignmentResponse } from '../domain/device.response.dto';
import { GetDeviceAssignmentQuery } from './get-device-assignment.query';

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class GetDeviceAssignmentController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceId/assignments/:deviceAssignmentId')
  @RequirePermission('devices:read')
  @ApiOkResponse({ type: DeviceAssignmentResponse })
  @ApiNotFoundResponse({ description: 'Device or period missing, in another tenant, or outside the caller’s scope.' })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @UuidParam('deviceAssignmentId') deviceAssignmentId: string,
  ): Promise<DeviceAssignmentResponse> {
    return this.queryBus.execute(new GetDeviceAssignmentQuery(caller, deviceId, deviceAssignmentId));
  }
}
