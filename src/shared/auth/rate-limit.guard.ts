import { CanActivate, ExecutionContext, Injectable, OnModuleDestroy, SetMetadata } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { Request } from 'express';
import { AppConfig } from '../../config/app-config';
import { RateLimitedError } from '../errors/domain-error';
import type { Principal } from './principal';

const WINDOW_MS = 60_000;

const SKIP_RATE_LIMIT = 'uplink:skip-rate-limit';

/**
 * Exempts a route from the per-caller request budget: machine endpoints with their own credential (network-server
 * webhooks), where one client address legitimately sends thousands of requests a minute.
 */
export const SkipRateLimit = (): MethodDecorator & ClassDecorator => SetMetadata(SKIP_RATE_LIMIT, true);

interface Budget {
  hits: number;
  resetAt: number;
}

/**
 * RATE_LIMIT_PER_MINUTE requests per user per minute across the whole API (per replica, in memory). Runs after the
 * authentication guard, so it counts per user; public routes count per client IP. Probes, metrics and docs
 * (outside /v1) are never limited.
 *
 * A caller's minute starts with its first request; past the limit every request until the minute ends is a 429
 * whose Retry-After is the time left. One counter and one map lookup per request: no per-hit timestamps to prune,
 * which made the cost of a request grow with the limit (the sliding log of @nestjs/throttler).
 */
@Injectable()
export class RateLimitGuard implements CanActivate, OnModuleDestroy {
  private readonly budgets = new Map<string, Budget>();
  private readonly limit: number;
  private readonly sweeper: NodeJS.Timeout;

  constructor(
    config: AppConfig,
    private readonly reflector: Reflector,
  ) {
    this.limit = config.rateLimitPerMinute;
    // Ended minutes are dropped once a minute, so idle callers do not accumulate.
    this.sweeper = setInterval(() => this.sweep(Date.now()), WINDOW_MS);
    this.sweeper.unref();
  }

  onModuleDestroy(): void {
    clearInterval(this.sweeper);
  }

  canActivate(context: ExecutionContext): boolean {
    const req = context.switchToHttp().getRequest<Request & { user?: Principal }>();
    if (!req.path.startsWith('/v1/')) return true;
    if (this.reflector.getAllAndOverride<boolean>(SKIP_RATE_LIMIT, [context.getHandler(), context.getClass()])) return true;
    const key = req.user ? `user:${req.user.userId}` : `ip:${req.ip ?? 'unknown'}`;
    const now = Date.now();
    let budget = this.budgets.get(key);
    if (!budget || budget.resetAt <= now) {
      budget = { hits: 0, resetAt: now + WINDOW_MS };
      this.budgets.set(key, budget);
    }
    budget.hits += 1;
    if (budget.hits > this.limit) throw new RateLimitedError(Math.max(1, Math.ceil((budget.resetAt - now) / 1000)));
    return true;
  }

  private sweep(now: number): void {
    for (const [key, budget] of this.budgets) if (budget.resetAt <= now) this.budgets.delete(key);
  }
}
