import { CanActivate, ExecutionContext, Injectable } from '@nestjs/common';
import type { Request } from 'express';
import { ValidationFailedError } from '../errors/domain-error';
import { inputViolations } from '../validation/json-input';
import { bodyErrorOf } from './json-body.middleware';

/**
 * The last global guard, after authentication (401), the rate limit (429) and the account's state (403), before
 * the pipes: path and query values carrying a NUL character, a lone surrogate or a prototype-member name are refused
 * here for every route (no DTO has to remember it), then the body failure JsonBodyMiddleware recorded, if any,
 * surfaces as its 400. A guard rather than an interceptor: with no global interceptor, Nest calls the handler
 * without building an RxJS pipeline per request.
 */
@Injectable()
export class RequestInputGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    if (context.getType() !== 'http') return true;
    const req = context.switchToHttp().getRequest<Request>();
    const violations = [...inputViolations({ ...req.params }, 'params'), ...inputViolations(queryOf(req), 'query')];
    if (violations.length > 0) throw new ValidationFailedError(violations);
    const bodyError = bodyErrorOf(req);
    if (bodyError) throw bodyError;
    return true;
  }
}

/** The parsed query as own properties (the parser may build a null-prototype object). */
function queryOf(req: Request): Record<string, unknown> {
  const query = req.query as Record<string, unknown> | undefined;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(query ?? {})) Object.defineProperty(copy, key, { value: query![key], enumerable: true });
  return copy;
}
