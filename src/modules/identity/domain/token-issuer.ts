import { createHash, randomBytes } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../../../config/app-config';

export const JWT_ISSUER = 'uplink';
export const JWT_AUDIENCE = 'uplink-api';

export interface AccessTokenClaims {
  sub: string;
  sid: string;
}

/** The API's token object. */
export interface TokenResponseBody {
  accessToken: string;
  tokenType: 'Bearer';
  expiresInSeconds: number;
  refreshIdleExpiresAt: string;
  passwordChangeRequired: boolean;
}

export interface IssuedTokens {
  body: TokenResponseBody;
  /** Opaque; travels only in the cookie, stored only as a hash. */
  refreshToken: string;
}

@Injectable()
export class TokenIssuer {
  constructor(
    private readonly jwt: JwtService,
    private readonly config: AppConfig,
  ) {}

  accessToken(userId: string, sessionId: string): string {
    const claims: AccessTokenClaims = { sub: userId, sid: sessionId };
    return this.jwt.sign(claims, {
      algorithm: 'HS256',
      expiresIn: this.config.accessTokenTtlSeconds,
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
    });
  }

  tokenBody(userId: string, sessionId: string, refreshIdleExpiresAt: Date, passwordChangeRequired: boolean): TokenResponseBody {
    return {
      accessToken: this.accessToken(userId, sessionId),
      tokenType: 'Bearer',
      expiresInSeconds: this.config.accessTokenTtlSeconds,
      refreshIdleExpiresAt: refreshIdleExpiresAt.toISOString(),
      passwordChangeRequired,
    };
  }

  static newRefreshToken(): { token: string; hash: string } {
    const token = randomBytes(32).toString('base64url');
    return { token, hash: TokenIssuer.hashRefreshToken(token) };
  }

  static hashRefreshToken(token: string): string {
    return createHash('sha256').update(token, 'utf8').digest('hex');
  }
}
