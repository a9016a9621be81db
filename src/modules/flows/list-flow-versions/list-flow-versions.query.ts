import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { FlowVersionResponse } from '../dto/flow-version.response.dto';
import type { ListFlowVersionsParams } from '../dto/list-flow-versions.request.dto';

export class ListFlowVersionsQuery extends Query<NewestFirstPage<FlowVersionResponse>> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly params: ListFlowVersionsParams,
  ) {
    super();
  }
}
