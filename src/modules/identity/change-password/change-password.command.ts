import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { IssuedTokens } from '../domain/token-issuer';

export class ChangePasswordCommand extends Command<IssuedTokens> {
  constructor(
    readonly principal: Principal,
    readonly currentPassword: string,
    readonly newPassword: string,
    readonly ip: string,
  ) {
    super();
  }
}
