import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { ExecutionResultResponse } from '../dto/execution-result.response.dto';
import type { PreviewFlowRequest } from '../dto/preview-flow.request.dto';

/** Not a state change: one execution, nothing stored or sent. */
export class PreviewFlowQuery extends Query<ExecutionResultResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly body: PreviewFlowRequest,
  ) {
    super();
  }
}
