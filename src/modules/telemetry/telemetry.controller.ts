import { Controller, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiExtraModels, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { UuidParam } from '../../shared/validation/uuid-param';
import { CurrentValuesResponse } from './dto/current-values.response.dto';
import { GetCurrentValuesQuery } from './get-current-values/get-current-values.query';
import { ListMeasurementsQuery } from './list-measurements/list-measurements.query';
import { ListMeasurementsParams } from './dto/list-measurements.request.dto';
import { MeasurementBucket, MeasurementPage, MeasurementPoint } from './dto/measurement-page.response.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { TELEMETRY_DOCS } from './telemetry.docs';
import { TELEMETRY_PARAMETER_EXAMPLES, TELEMETRY_SCHEMA_EXAMPLES } from './telemetry.examples';
import { Route } from '../../shared/http/routes';

@ApiTags('telemetry')
@ApiBearerAuth()
@ApiExtraModels(MeasurementPoint, MeasurementBucket)
@ApiDocs(TELEMETRY_DOCS, { schemas: TELEMETRY_SCHEMA_EXAMPLES, parameters: TELEMETRY_PARAMETER_EXAMPLES })
@Controller('v1/devices')
export class TelemetryController {
  constructor(private readonly queryBus: QueryBus) {}

  @Route('get', ':deviceId/current-values', {
    operationId: 'currentValues_get',
    permission: 'telemetry:read',
    type: CurrentValuesResponse,
    notFound: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `device`).',
  })
  currentValues(@CurrentCaller() caller: Caller, @UuidParam('deviceId') deviceId: string): Promise<CurrentValuesResponse> {
    return this.queryBus.execute(new GetCurrentValuesQuery(caller, deviceId));
  }

  @Route('get', ':deviceId/measurements', {
    operationId: 'measurements_list',
    permission: 'telemetry:read',
    type: MeasurementPage,
    description: 'Visible points only: a unit-scoped caller sees the points observed while the device was in a unit it can access.',
    notFound: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `device`).',
  })
  measurements(
    @CurrentCaller() caller: Caller,
    @UuidParam('deviceId') deviceId: string,
    @Query() params: ListMeasurementsParams,
  ): Promise<MeasurementPage> {
    return this.queryBus.execute(new ListMeasurementsQuery(caller, deviceId, params));
  }
}
