import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { RequestContext } from '../context/request-context';
import { AccessTokenAuthenticator } from './access-token-authenticator';
import { Principal } from './principal';
import { IS_PUBLIC } from './public.decorator';

/**
 * The first global guard: a route answers only if it is @Public() or the caller presents a valid access token
 * whose session is still active (401 otherwise). The per-user rate limit (429) runs next, then AccountStateGuard
 * (403 forced change, 403 platform-admin-only).
 */
@Injectable()
export class DenyByDefaultGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly context: RequestContext,
    private readonly authenticator: AccessTokenAuthenticator,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean>(IS_PUBLIC, targets)) return true;

    const req = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    const principal = await this.authenticator.authenticate(req.headers.authorization);
    req.user = principal;
    this.context.setActor({ actorType: 'user', actorId: principal.userId });
    return true;
  }
}
