import { ClsServiceManager } from 'nestjs-cls';
import type { Params } from 'nestjs-pino';
import { AppConfig } from '../config/app-config';

/** Paths pino replaces with [REDACTED]: credentials must never reach a log line. */
export const REDACTED_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-ingestion-token"]',
  'res.headers["set-cookie"]',
  '*.password',
  '*.currentPassword',
  '*.newPassword',
  '*.temporaryPassword',
  '*.token',
  '*.accessToken',
  '*.refreshToken',
  '*.secret',
];

export function loggerOptions(config: AppConfig): Params {
  return {
    // No per-request middleware (pino-http's child logger and nestjs-pino's per-request store): the access line is
    // written once per request by AccessLogMiddleware from the root logger, and every other line written during a
    // request gets its correlation id from the request context (the mixin below). A child logger per request with
    // the serialized request bound to it cost about a fifth of the CPU of a cheap authenticated request.
    forRoutes: [],
    pinoHttp: {
      level: config.logLevel,
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      // Lines written while a request is being served carry its correlation id.
      mixin: () => {
        const cls = ClsServiceManager.getClsService();
        const correlationId = cls.isActive() ? cls.getId() : undefined;
        return correlationId ? { correlationId } : {};
      },
      transport:
        config.nodeEnv === 'development'
          ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:standard' } }
          : undefined,
    },
  };
}
