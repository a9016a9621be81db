import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { ExecutionDetailResponse } from '../dto/execution.response.dto';

export class GetFlowExecutionQuery extends Query<ExecutionDetailResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly flowExecutionId: string,
  ) {
    super();
  }
}
