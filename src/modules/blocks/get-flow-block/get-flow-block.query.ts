import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';

export class GetFlowBlockQuery extends Query<FlowBlockResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
  ) {
    super();
  }
}
