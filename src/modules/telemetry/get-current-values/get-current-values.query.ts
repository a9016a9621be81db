import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { CurrentValuesResponse } from '../dto/current-values.response.dto';

export class GetCurrentValuesQuery extends Query<CurrentValuesResponse> {
  constructor(
    readonly caller: Caller,
    readonly deviceId: string,
  ) {
    super();
  }
}
