import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiExtraModels, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CurrentValuesResponse } from './dto/current-values.response.dto';
import { GetCurrentValuesQuery } from './get-current-values/get-current-values.query';
import { ListMeasurementsQuery } from './list-measurements/list-measurements.query';
import { ListMeasurementsParams } from './dto/list-measurements.request.dto';
import { MeasurementBucket, MeasurementPage, MeasurementPoint } from './dto/measurement-page.response.dto';

@ApiTags('telemetry')
@ApiBearerAuth()
@ApiExtraModels(MeasurementPoint, MeasurementBucket)
@Controller('v1/devices')
export class TelemetryController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':deviceId/current-values')
  @OperationId('GetCurrentValuesController_get')
  @RequirePermission('telemetry:read')
  @ApiOkResponse({ type: CurrentValuesResponse })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `device`).' })
  currentValues(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<CurrentValuesResponse> {
    return this.queryBus.execute(new GetCurrentValuesQuery(caller, deviceId));
  }

  @Get(':deviceId/measurements')
  @OperationId('ListMeasurementsController_list')
  @RequirePermission('telemetry:read')
  @ApiOkResponse({
    type: MeasurementPage,
    description: 'Visible points only: a unit-scoped caller sees the points observed while the device was in a unit it can access.',
  })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `device`).' })
  measurements(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @Query() params: ListMeasurementsParams,
  ): Promise<MeasurementPage> {
    return this.queryBus.execute(new ListMeasurementsQuery(caller, deviceId, params));
  }
}
