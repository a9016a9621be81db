import type { NextFunction, Request, Response } from 'express';
import type { AppConfig } from '../../config/app-config';
import { correlationIdOf } from '../context/correlation-id';
import { AuthorizationFailedError } from '../errors/domain-error';
import { sendError } from '../errors/error-response';

/** Not used: a refused preflight is an expected answer, never an unhandled error. */
const NO_LOG = { error: () => undefined };

/**
 * A CORS preflight (`OPTIONS` with `Origin` and `Access-Control-Request-Method`) from an origin that may not call
 * the API answers 403 `origin_not_allowed`, naming the origin and ALLOWED_ORIGINS. Without this the CORS layer
 * lets the request fall through to the router, whose 404 "no resource at this path" misleads. Allowed origins
 * and ordinary requests pass on untouched.
 */
export function refusedPreflightMiddleware(config: AppConfig) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const origin = req.headers.origin;
    if (req.method !== 'OPTIONS' || origin === undefined || req.headers['access-control-request-method'] === undefined) return next();
    if (config.isOriginAllowed(origin)) return next();
    sendError(res, originNotAllowed(origin, config), correlationIdOf(req), NO_LOG);
  };
}

/** The 403 of a browser origin the configuration does not allow (preflight, refresh, logout). */
export function originNotAllowed(origin: string | undefined, config: AppConfig): AuthorizationFailedError {
  const hint =
    config.nodeEnv === 'development'
      ? 'Add it to ALLOWED_ORIGINS (comma-separated, exact scheme, host and port; http://localhost and http://127.0.0.1 on any port are allowed in development).'
      : 'Add it to ALLOWED_ORIGINS (comma-separated, exact scheme, host and port).';
  if (origin === undefined) {
    return new AuthorizationFailedError('origin_not_allowed', `This request needs an Origin header listed in ALLOWED_ORIGINS. ${hint}`, {
      origin: null,
      setting: 'ALLOWED_ORIGINS',
    });
  }
  const shown = origin.length > 200 ? `${origin.slice(0, 200)}…` : origin;
  return new AuthorizationFailedError('origin_not_allowed', `The origin ${shown} is not allowed. ${hint}`, {
    origin: shown,
    setting: 'ALLOWED_ORIGINS',
  });
}
