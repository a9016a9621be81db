import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { ListMeasurementsParams } from '../dto/list-measurements.request.dto';
import type { MeasurementPage } from '../dto/measurement-page.response.dto';

export class ListMeasurementsQuery extends Query<MeasurementPage> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
    readonly params: ListMeasurementsParams,
  ) {
    super();
  }
}
