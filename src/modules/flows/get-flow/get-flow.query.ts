import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowResult } from '../dto/flow.response.dto';

export class GetFlowQuery extends Query<FlowResult> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
  ) {
    super();
  }
}
