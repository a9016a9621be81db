import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { ReplayResponse } from '../dto/replay.response.dto';
import type { CreateReplayRequest } from '../dto/create-replay.request.dto';

export class CreateReplayCommand extends Command<ReplayResponse> {
  constructor(
    readonly caller: Caller,
    readonly flowId: string,
    readonly body: CreateReplayRequest,
  ) {
    super();
  }
}
