import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthorizationFailedError } from '../errors/domain-error';
import { ALLOW_DURING_PASSWORD_CHANGE, PLATFORM_ADMIN_ONLY, Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/**
 * The third global guard, after authentication (401) and the per-user rate limit (429): a pending forced
 * password change (403 `password_change_required`) and platform-admin-only routes (403
 * `platform_admin_required`), both before any request validation or lookup.
 */
@Injectable()
export class AccountStateGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;
    const principal = context.switchToHttp().getRequest<Request & { user?: Principal }>().user;
    if (!principal) return true;
    if (principal.passwordChangeRequired && !this.reflector.getAllAndOverride<boolean>(ALLOW_DURING_PASSWORD_CHANGE, targets)) {
      throw new AuthorizationFailedError('password_change_required', 'Change your password first: POST /v1/auth/change-password with {currentPassword, newPassword}; its answer carries a new access token.');
    }
    if (this.reflector.getAllAndOverride<boolean>(PLATFORM_ADMIN_ONLY, targets) && !principal.isPlatformAdmin) {
      throw new AuthorizationFailedError('platform_admin_required', 'This endpoint requires the platform_admin role.');
    }
    return true;
  }
}
