import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AuthenticationFailedError } from '../errors/domain-error';
import { IS_PUBLIC } from './public.decorator';

/**
 * Global first guard: a route answers only if it is marked @Public(). Until the identity module verifies
 * bearer tokens, no token is accepted, so every protected route answers 401.
 */
@Injectable()
export class DenyByDefaultGuard implements CanActivate {
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const isPublic = this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, [context.getHandler(), context.getClass()]);
    if (isPublic) return true;
    const header = context.switchToHttp().getRequest<Request>().headers.authorization;
    throw header
      ? new AuthenticationFailedError('invalid_token', 'The bearer token is invalid.')
      : new AuthenticationFailedError('missing_token', 'A bearer token is required.');
  }
}
