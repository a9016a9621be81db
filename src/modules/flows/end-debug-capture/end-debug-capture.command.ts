import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowDebugCaptureResponse } from '../dto/debug-capture.response.dto';

export class EndDebugCaptureCommand extends Command<FlowDebugCaptureResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
  ) {
    super();
  }
}
