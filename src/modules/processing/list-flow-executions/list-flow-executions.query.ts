import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { ExecutionResponse } from '../dto/execution.response.dto';
import type { ListFlowExecutionsParams } from '../dto/list-flow-executions.request.dto';

export class ListFlowExecutionsQuery extends Query<NewestFirstPage<ExecutionResponse>> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly params: ListFlowExecutionsParams,
  ) {
    super();
  }
}
