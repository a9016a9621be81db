import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { AscendingPageParams, PageResponse } from '../../../shared/pagination/page';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { DeviceAssignmentResponse } from '../domain/device.response.dto';
import { ListDeviceAssignmentsQuery } from './list-device-assignments.query';

export class DeviceAssignmentPage extends PageResponse(DeviceAssignmentResponse) {}

@ApiTags('devices')
@ApiBearerAuth()
@Controller('v1/devices')
export class ListDeviceAssignmentsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceId/assignments')
  @RequirePermission('devices:read')
  @ApiOkResponse({
    type: DeviceAssignmentPage,
    description: 'The periods the caller may see: all of them with a grant on the whole tree, else those in units it can access.',
  })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  list(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string, @Query() params: AscendingPageParams): Promise<DeviceAssignmentPage> {
    return this.queryBus.execute(new ListDeviceAssignmentsQuery(caller, deviceId, params));
  }
}
