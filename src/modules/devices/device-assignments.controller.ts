import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { AscendingPageParams } from '../../shared/pagination/page';
import { UuidParam } from '../../shared/validation/uuid-param';
import { AssignDeviceCommand } from './assign-device/assign-device.command';
import { AssignDeviceRequest } from './dto/assign-device.request.dto';
import { DeviceAssignmentResponse } from './dto/device.response.dto';
import { EndDeviceAssignmentCommand } from './end-device-assignment/end-device-assignment.command';
import { EndDeviceAssignmentRequest } from './dto/end-device-assignment.request.dto';
import { GetDeviceAssignmentQuery } from './get-device-assignment/get-device-assignment.query';
import { DeviceAssignmentPage } from './dto/device-assignment-page.response.dto';
import { ListDeviceAssignmentsQuery } from './list-device-assignments/list-device-assignments.query';
import { ApiDocs } from '../../shared/http/route-docs';
import { DEVICE_ASSIGNMENTS_DOCS } from './device-assignments.docs';
import { ReadById, Route, WriteById } from '../../shared/http/routes';

@ApiTags('devices')
@ApiBearerAuth()
@ApiDocs(DEVICE_ASSIGNMENTS_DOCS)
@Controller('v1/devices')
export class DeviceAssignmentsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', ':deviceId/assignments', {
    operationId: 'deviceAssignments_list',
    permission: 'devices:read',
    type: DeviceAssignmentPage,
    description: 'The periods the caller may see: all of them with a grant on the whole tree, else those in units it can access.',
    notFound: 'Missing, in another tenant, or outside the caller’s scope.',
  })
  list(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string, @Query() params: AscendingPageParams): Promise<DeviceAssignmentPage> {
    return this.queryBus.execute(new ListDeviceAssignmentsQuery(caller, deviceId, params));
  }

  @Route('post', ':deviceId/assignments', {
    operationId: 'deviceAssignments_create',
    permission: 'devices:assign',
    type: DeviceAssignmentResponse,
    location: '/v1/devices/{deviceId}/assignments/{deviceAssignmentId}',
    description: 'Assign or move: the open period (if any) is closed at `validFrom` and a new one opens there. ' +
      '`Location: /v1/devices/{deviceId}/assignments/{deviceAssignmentId}`. Needs `devices:assign` covering the current and the target unit. ' +
      'A `validFrom` in the future, not after the open period’s start, or before the last period’s end is 400 `body.validFrom` `range`.',
    notFound: 'Missing, in another tenant, or outside the caller’s scope.',
    conflict: '`already_assigned` (already in that unit, or a concurrent move won), `organization_unit_disabled`, `invalid_state` (retired).',
  })
  assign(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @Body() body: AssignDeviceRequest,
  ): Promise<DeviceAssignmentResponse> {
    return this.commandBus.execute(new AssignDeviceCommand(caller, deviceId, body));
  }

  @ReadById(':deviceId/assignments/:deviceAssignmentId', {
    operationId: 'deviceAssignments_get',
    permission: 'devices:read',
    type: DeviceAssignmentResponse,
    notFound: 'Device or period missing, in another tenant, or outside the caller’s scope.',
  })
  get(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @UuidParam('deviceAssignmentId') deviceAssignmentId: string,
  ): Promise<DeviceAssignmentResponse> {
    return this.queryBus.execute(new GetDeviceAssignmentQuery(caller, deviceId, deviceAssignmentId));
  }

  @WriteById('post', ':deviceId/assignments/:deviceAssignmentId/end', {
    operationId: 'deviceAssignments_end',
    permission: 'devices:assign',
    type: DeviceAssignmentResponse,
    description: 'Closes the open period; the device becomes unassigned. A `validTo` not after the start or in the future is 400 `body.validTo` `range`.',
    notFound: 'Device or period missing, in another tenant, or outside the caller’s scope.',
    conflict: '`assignment_closed`: the period has already ended.',
  })
  end(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @UuidParam('deviceAssignmentId') deviceAssignmentId: string,
    @Body() body: EndDeviceAssignmentRequest,
  ): Promise<DeviceAssignmentResponse> {
    return this.commandBus.execute(new EndDeviceAssignmentCommand(caller, deviceId, deviceAssignmentId, body.validTo));
  }
}
