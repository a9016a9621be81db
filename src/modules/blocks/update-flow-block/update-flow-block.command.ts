import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';
import type { UpdateFlowBlockRequest } from '../dto/flow-block.request.dto';

export class UpdateFlowBlockCommand extends Command<FlowBlockResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly changes: UpdateFlowBlockRequest,
  ) {
    super();
  }
}
