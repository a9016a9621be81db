import { Command } from '@nestjs/cqrs';
import type { IssuedTokens } from '../domain/token-issuer';

export class LoginCommand extends Command<IssuedTokens> {
  constructor(
    readonly identifier: string,
    readonly password: string,
    readonly ip: string,
  ) {
    super();
  }
}
