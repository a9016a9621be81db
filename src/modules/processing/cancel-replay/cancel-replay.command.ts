import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { ReplayResponse } from '../dto/replay.response.dto';

export class CancelReplayCommand extends Command<ReplayResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly replayId: string,
  ) {
    super();
  }
}
