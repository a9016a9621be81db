import { Command } from '@nestjs/cqrs';

export class RevokeSessionCommand extends Command<void> {
  constructor(
    readonly userId: string,
    readonly sessionId: string,
  ) {
    super();
  }
}
