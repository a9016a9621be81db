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
      secretOrKey: config.jwtSecret,
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
