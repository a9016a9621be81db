import { ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { AuthGuard } from '@nestjs/passport';
import type { Request } from 'express';
import { RequestContext } from '../context/request-context';
import { AuthenticationFailedError, AuthorizationFailedError, DomainError } from '../errors/domain-error';
import { ALLOW_DURING_PASSWORD_CHANGE, PLATFORM_ADMIN_ONLY, Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/**
 * The one global guard, in the design's check order: a route answers only if it is @Public() or the caller
 * presents a valid access token whose session is still active (401 otherwise); then a pending forced password
 * change (403 `password_change_required`) and platform-admin-only routes (403 `platform_admin_required`).
 * Token verification is passport-jwt's (`JwtStrategy` of the identity module).
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

    if (principal.passwordChangeRequired && !this.reflector.getAllAndOverride<boolean>(ALLOW_DURING_PASSWORD_CHANGE, targets)) {
      throw new AuthorizationFailedError('password_change_required', 'Change your password first: POST /v1/auth/change-password with {currentPassword, newPassword}; its answer carries a new access token.');
    }
    if (this.reflector.getAllAndOverride<boolean>(PLATFORM_ADMIN_ONLY, targets) && !principal.isPlatformAdmin) {
      throw new AuthorizationFailedError('platform_admin_required', 'This endpoint requires the platform_admin role.');
    }
    return true;
  }

  /** passport-jwt's outcome → the design's 401 reasons. */
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
