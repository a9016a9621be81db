import { createSecretKey, KeyObject } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { JwtService } from '@nestjs/jwt';
import { AppConfig } from '../../../config/app-config';
import { AccessTokenAuthenticator } from '../../../shared/auth/access-token-authenticator';
import type { Principal } from '../../../shared/auth/principal';
import { AuthenticationFailedError } from '../../../shared/errors/domain-error';
import { SessionService } from './session-service';
import { JWT_AUDIENCE, JWT_ISSUER } from './token-issuer';

/** `<scheme> <token>`, as RFC 6750 writes it; the scheme is compared case-insensitively. */
const AUTHORIZATION = /^\s*(\S+)\s+(\S+)\s*$/;
/** Verified tokens remembered (the most recent ones; the oldest go first). */
const VERIFIED_TOKENS = 10_000;

type Claims = { sub?: unknown; sid?: unknown; exp?: unknown };

/**
 * Verifies the bearer token (HS256 only: `alg: none` and other keys fail, issuer and audience checked) and binds it
 * to its live session. Verification is jsonwebtoken's through JwtService, called directly by the authentication
 * guard: no strategy lookup or callback chain per request.
 *
 * A token that verified is remembered with its claims until its `exp`: the same bytes verify the same way until then
 * (signature, algorithm, issuer and audience cannot change), so a caller's next requests skip the base64, JSON and
 * HMAC work. Only the signature check is skipped: expiry is checked on every request, and the session check (logout,
 * revocation, disabled user) always runs.
 */
@Injectable()
export class JwtAuthenticator extends AccessTokenAuthenticator {
  /**
   * A KeyObject, not a string: given a string or Buffer, jsonwebtoken first tries to parse it as a public key on
   * every verification, which cost a fifth of the CPU of an authenticated request.
   */
  private readonly key: KeyObject;
  private readonly verified = new Map<string, { claims: Claims; expiresAt: number }>();

  constructor(
    config: AppConfig,
    private readonly jwt: JwtService,
    private readonly sessions: SessionService,
  ) {
    super();
    this.key = createSecretKey(Buffer.from(config.jwtSecret, 'utf8'));
  }

  async authenticate(authorization: string | undefined): Promise<Principal> {
    if (authorization === undefined || authorization === '') {
      throw new AuthenticationFailedError('missing_token', 'A bearer token is required.');
    }
    const match = AUTHORIZATION.exec(authorization);
    if (!match || match[1]!.toLowerCase() !== 'bearer') {
      throw new AuthenticationFailedError('invalid_token', 'The Authorization header must be "Bearer <token>".');
    }
    const claims = this.verify(match[2]!);
    return this.sessions.authenticate(claims);
  }

  private verify(token: string): Claims {
    const known = this.verified.get(token);
    if (known) {
      if (Date.now() < known.expiresAt) return known.claims;
      this.verified.delete(token);
      throw new AuthenticationFailedError('expired_token', 'The access token has expired.');
    }
    let claims: Claims;
    try {
      claims = this.jwt.verify<Claims>(token, {
        secret: this.key as unknown as string,
        algorithms: ['HS256'],
        issuer: JWT_ISSUER,
        audience: JWT_AUDIENCE,
        ignoreExpiration: false,
      });
    } catch (error) {
      if (error instanceof Error && error.name === 'TokenExpiredError') {
        throw new AuthenticationFailedError('expired_token', 'The access token has expired.');
      }
      throw new AuthenticationFailedError('invalid_token', 'The bearer token is invalid.');
    }
    // Every token this service issues has an `exp`; one without it is verified each time, never remembered.
    if (typeof claims.exp === 'number') {
      if (this.verified.size >= VERIFIED_TOKENS) this.verified.delete(this.verified.keys().next().value!);
      this.verified.set(token, { claims, expiresAt: claims.exp * 1000 });
    }
    return claims;
  }
}
