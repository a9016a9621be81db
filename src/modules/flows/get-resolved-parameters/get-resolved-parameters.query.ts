import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { GetResolvedParametersParams } from '../dto/get-resolved-parameters.request.dto';
import type { ResolvedParametersResponse } from '../dto/resolved-parameters.response.dto';

export class GetResolvedParametersQuery extends Query<ResolvedParametersResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly params: GetResolvedParametersParams,
  ) {
    super();
  }
}
