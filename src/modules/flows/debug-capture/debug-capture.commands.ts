import { Command, Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { FlowDebugCaptureResponse } from './debug-capture.response.dto';

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

export class EndDebugCaptureCommand extends Command<FlowDebugCaptureResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
  ) {
    super();
  }
}

export class GetDebugCaptureQuery extends Query<FlowDebugCaptureResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
  ) {
    super();
  }
}
