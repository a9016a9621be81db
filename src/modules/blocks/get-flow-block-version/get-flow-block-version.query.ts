import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { FlowBlockVersionResponse } from '../dto/flow-block-version.response.dto';

export class GetFlowBlockVersionQuery extends Query<FlowBlockVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly flowBlockVersionId: string,
  ) {
    super();
  }
}
