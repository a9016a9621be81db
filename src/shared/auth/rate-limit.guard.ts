import { ExecutionContext, Injectable } from '@nestjs/common';
import { ThrottlerGuard, ThrottlerLimitDetail } from '@nestjs/throttler';
import type { Request } from 'express';
import { RateLimitedError } from '../errors/domain-error';
import type { Principal } from './principal';

/**
 * RATE_LIMIT_PER_MINUTE requests per user per minute across the whole API (@nestjs/throttler, per replica).
 * Runs after the authentication guard, so it counts per user; public routes count per client IP. Probes,
 * metrics and docs (outside /v1) are never limited.
 */
@Injectable()
export class RateLimitGuard extends ThrottlerGuard {
  protected override async shouldSkip(context: ExecutionContext): Promise<boolean> {
    return !context.switchToHttp().getRequest<Request>().path.startsWith('/v1/');
  }

  protected override async getTracker(req: Record<string, unknown>): Promise<string> {
    const user = (req as { user?: Principal }).user;
    return user ? `user:${user.userId}` : `ip:${(req as unknown as Request).ip ?? 'unknown'}`;
  }

  /** One budget per caller for every route, not one per route. */
  protected override generateKey(_context: ExecutionContext, tracker: string, throttlerName: string): string {
    return `${throttlerName}:${tracker}`;
  }

  protected override async throwThrottlingException(
    _context: ExecutionContext,
    detail: ThrottlerLimitDetail,
  ): Promise<void> {
    throw new RateLimitedError(Math.max(1, detail.timeToBlockExpire || detail.timeToExpire));
  }
}
