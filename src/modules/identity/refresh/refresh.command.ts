import { Command } from '@nestjs/cqrs';
import type { IssuedTokens } from '../domain/token-issuer';

export class RefreshCommand extends Command<IssuedTokens> {
  constructor(readonly refreshToken: string) {
    super();
  }
}
