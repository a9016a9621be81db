import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import { RunFlowBlockVersionRequest } from '../dto/flow-block-version.request.dto';
import { FlowBlockRunResult } from '../dto/flow-block-version.response.dto';

export class RunFlowBlockVersionCommand extends Command<FlowBlockRunResult> {
  constructor(
    readonly caller: Caller,
    readonly flowBlockId: string,
    readonly flowBlockVersionId: string,
    readonly input: RunFlowBlockVersionRequest,
  ) {
    super();
  }
}
