import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowResult } from '../dto/flow.response.dto';

export class ActivateFlowCommand extends Command<FlowResult> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly expectedLockVersion: number,
    readonly flowVersionId: string,
  ) {
    super();
  }
}
