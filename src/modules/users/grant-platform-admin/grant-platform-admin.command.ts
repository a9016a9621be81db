import { Command } from '@nestjs/cqrs';
import type { UserResponse } from '../../identity';

export class GrantPlatformAdminCommand extends Command<UserResponse> {
  constructor(readonly userId: string) {
    super();
  }
}
