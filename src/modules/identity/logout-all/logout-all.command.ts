import { Command } from '@nestjs/cqrs';

export class LogoutAllCommand extends Command<void> {
  constructor(readonly userId: string) {
    super();
  }
}
