import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { Page } from '../../../shared/pagination/page';
import type { FlowResponse } from '../dto/flow.response.dto';
import type { ListFlowsParams } from '../dto/list-flows.request.dto';

export class ListFlowsQuery extends Query<Page<FlowResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListFlowsParams,
  ) {
    super();
  }
}
