import { Command } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { DeadLetterResponse } from '../dto/dead-letter.response.dto';

export class RedriveDeadLetterCommand extends Command<DeadLetterResponse> {
  constructor(
    readonly caller: Caller,
    readonly deadLetterId: string,
  ) {
    super();
  }
}
