import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowDebugCaptureResponse } from '../dto/debug-capture.response.dto';

export class StartDebugCaptureCommand extends Command<FlowDebugCaptureResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly minutes: number,
    readonly maxExecutions: number,
  ) {
    super();
  }
}
