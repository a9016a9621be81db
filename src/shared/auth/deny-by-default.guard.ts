import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { RequestContext } from '../context/request-context';
import { AuthenticationFailedError, DomainError } from '../errors/domain-error';
import { Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/**
 * The first global guard: a route answers only if it is @Public() or the caller presents a valid access token
 * whose session is still active (401 otherwise). The per-user rate limit (429) runs next, then AccountStateGuard
 * (403 forced change, 403 platform-admin-only). Token verification is passport-jwt's (`JwtStrategy` of the
 * identity module).
 */
@Injectable()
export class DenyByDefaultGuard extends AuthGuard('jwt') {
  constructor(
    private readonly reflector: Reflector,
    private readonly context: RequestContext,
  ) {
    super();
  }

  override async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    await super.canActivate(context);
    const principal = context.switchToHttp().getRequest<Request & { user: Principal }>().user;
    this.context.setActor({ actorType: 'user', actorId: principal.userId });
    return true;
  }

  /** passport-jwt's outcome → the API's 401 reasons. */
  override handleRequest<TUser = Principal>(
    error: unknown,
    user: TUser | false,
    info: unknown,
    context: ExecutionContext,
  ): TUser {
    if (error instanceof DomainError) throw error;
    if (error) throw error;
    if (user) return user;
    const name = info instanceof Error ? info.name : '';
    if (name === 'TokenExpiredError') throw new AuthenticationFailedError('expired_token', 'The access token has expired.');
    if (name === 'JsonWebTokenError' || name === 'NotBeforeError') {
      throw new AuthenticationFailedError('invalid_token', 'The bearer token is invalid.');
    }
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    throw header
      ? new AuthenticationFailedError('invalid_token', 'The Authorization header must be "Bearer <token>".')
      : new AuthenticationFailedError('missing_token', 'A bearer token is required.');
  }
}
