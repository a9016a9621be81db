import { Body, Controller, Get, HttpCode, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
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

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class DeviceAssignmentsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get(':deviceId/assignments')
  @OperationId('ListDeviceAssignmentsController_list')
  @RequirePermission('devices:read')
  @ApiOkResponse({
    type: DeviceAssignmentPage,
    description: 'The periods the caller may see: all of them with a grant on the whole tree, else those in units it can access.',
  })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  list(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string, @Query() params: AscendingPageParams): Promise<DeviceAssignmentPage> {
    return this.queryBus.execute(new ListDeviceAssignmentsQuery(caller, deviceId, params));
  }

  @Post(':deviceId/assignments')
  @OperationId('AssignDeviceController_assign')
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

  @Get(':deviceId/assignments/:deviceAssignmentId')
  @OperationId('GetDeviceAssignmentController_get')
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

  @Post(':deviceId/assignments/:deviceAssignmentId/end')
  @OperationId('EndDeviceAssignmentController_end')
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
