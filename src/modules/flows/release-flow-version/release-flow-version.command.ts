import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowVersionResponse } from '../dto/flow-version.response.dto';

export class ReleaseFlowVersionCommand extends Command<FlowVersionResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly flowVersionId: string,
  ) {
    super();
  }
}
