import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { UserResponse } from '../../identity/dto/user.response.dto';

export class SetTemporaryPasswordCommand extends Command<UserResponse> {
  constructor(
    readonly principal: Principal,
    readonly userId: string,
    readonly temporaryPassword: string,
  ) {
    super();
  }
}
