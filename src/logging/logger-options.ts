import type { IncomingMessage } from 'node:http';
import { RequestMethod } from '@nestjs/common';
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
    // The request logger (and its access line) covers the API under /v1. Probes and /metrics are polled by
    // kubelets and scrapers every few seconds and stay out of it, which also keeps them cheap (bench:http).
    forRoutes: [{ path: 'v1/{*path}', method: RequestMethod.ALL }],
    pinoHttp: {
      level: config.logLevel,
      // The correlation id middleware already chose the id; pino logs it as `req.id`.
      genReqId: (req: IncomingMessage) => (req as IncomingMessage & { id: string }).id,
      // The client's address as Express works it out (TRUST_PROXY): behind a proxy, `req.remoteAddress` is the proxy.
      customProps: (req: IncomingMessage) => ({ clientIp: (req as IncomingMessage & { ip?: string }).ip }),
      redact: { paths: REDACTED_PATHS, censor: '[REDACTED]' },
      customLogLevel: (_req, res, error) => (error || res.statusCode >= 500 ? 'error' : res.statusCode >= 400 ? 'warn' : 'info'),
      serializers: {
        // Response headers add nothing but noise (and Set-Cookie); the status is what matters.
        res: (res: { statusCode: number }) => ({ statusCode: res.statusCode }),
      },
      transport:
        config.nodeEnv === 'development'
          ? { target: 'pino-pretty', options: { singleLine: true, translateTime: 'SYS:standard' } }
          : undefined,
    },
  };
}
