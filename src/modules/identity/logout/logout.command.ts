import { Command } from '@nestjs/cqrs';

export class LogoutCommand extends Command<void> {
  constructor(
    readonly userId: string,
    readonly bearerSessionId: string,
    readonly refreshToken: string | null,
  ) {
    super();
  }
}
