import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { UserResponse } from '../../identity';

export class SetTemporaryPasswordCommand extends Command<UserResponse> {
  constructor(
    readonly principal: Principal,
    readonly userId: string,
    readonly temporaryPassword: string,
  ) {
    super();
  }
}
