import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { FlowBlockVersionResponse } from '../dto/flow-block-version.response.dto';
import type { CreateFlowBlockVersionRequest } from '../dto/flow-block-version.request.dto';

export class CreateFlowBlockVersionCommand extends Command<FlowBlockVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly input: CreateFlowBlockVersionRequest,
  ) {
    super();
  }
}
