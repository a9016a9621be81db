import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { ListMeasurementsQuery } from './list-measurements.query';
import { ListMeasurementsParams } from './list-measurements.request.dto';
import { MeasurementBucket, MeasurementPage, MeasurementPoint } from './measurement-page.response.dto';

@ApiTags('telemetry')
@ApiBearerAuth()
@ApiExtraModels(MeasurementPoint, MeasurementBucket)
@Controller('v1/devices')
export class ListMeasurementsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceId/measurements')
  @RequirePermission('telemetry:read')
  @ApiOkResponse({
    type: MeasurementPage,
    description: 'Visible points only: a unit-scoped caller sees the points observed while the device was in a unit it can access.',
  })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `device`).' })
  list(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @Query() params: ListMeasurementsParams,
  ): Promise<MeasurementPage> {
    return this.queryBus.execute(new ListMeasurementsQuery(caller, deviceId, params));
  }
}
