import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { UserResponse } from '../../identity';
import type { UserChanges } from '../dto/update-user.request.dto';

export class UpdateUserCommand extends Command<UserResponse> {
  constructor(
    readonly principal: Principal,
    readonly userId: string,
    readonly changes: UserChanges,
  ) {
    super();
  }
}
