import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { UserResponse } from '../../identity';

export class RevokePlatformAdminCommand extends Command<UserResponse> {
  constructor(
    readonly principal: Principal,
    readonly userId: string,
  ) {
    super();
  }
}
