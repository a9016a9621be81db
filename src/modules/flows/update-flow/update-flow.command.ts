import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowResult } from '../dto/flow.response.dto';
import type { UpdateFlowRequest } from '../dto/update-flow.request.dto';

export class UpdateFlowCommand extends Command<FlowResult> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly expectedLockVersion: number,
    readonly changes: UpdateFlowRequest,
  ) {
    super();
  }
}
