import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Page } from '../../../shared/pagination/page';
import type { ParameterOverrideResponse } from '../dto/parameter-override.response.dto';
import type { ListParameterOverridesParams } from '../dto/list-parameter-overrides.request.dto';

export class ListParameterOverridesQuery extends Query<Page<ParameterOverrideResponse>> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly params: ListParameterOverridesParams,
  ) {
    super();
  }
}
