import { createSecretKey } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
import { AppConfig } from '../../../config/app-config';
import type { Principal } from '../../../shared/auth/principal';
import { SessionService } from './session-service';
import { JWT_AUDIENCE, JWT_ISSUER } from './token-issuer';

/** Verifies the bearer token (HS256 only: `alg: none` and other keys fail) and binds it to its live session. */
@Injectable()
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor(
    config: AppConfig,
    private readonly sessions: SessionService,
  ) {
    super({
      jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken(),
      // A KeyObject, not a string: given a string or Buffer, jsonwebtoken first tries to parse it as a public key
      // on every verification, which cost a fifth of the CPU of an authenticated request. passport-jwt hands the
      // value to jsonwebtoken untouched; only its typings are narrower.
      secretOrKey: createSecretKey(Buffer.from(config.jwtSecret, 'utf8')) as unknown as Buffer,
      algorithms: ['HS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      ignoreExpiration: false,
    });
  }

  validate(claims: { sub?: unknown; sid?: unknown }): Promise<Principal> {
    return this.sessions.authenticate(claims);
  }
}
