import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import cookieParser from 'cookie-parser';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { AppModule } from './app.module';
import { ClsService } from 'nestjs-cls';
import { JsonBodyMiddleware } from './shared/http/json-body.middleware';
import { HttpMetricsMiddleware } from './shared/metrics/http-metrics.middleware';
import { requestStartMiddleware } from './shared/http/request-start.middleware';
import { setupOpenApi } from './openapi/openapi';
import { NestLogger } from './logging/nest-logger';
import { PLAIN_COOKIE_NAME, SECURE_COOKIE_NAME } from './shared/auth/refresh-cookie-names';
import { refusedPreflightMiddleware } from './shared/http/cors-preflight.middleware';
import { answerClientErrors } from './shared/http/client-error';
import { keepConnectionsAlive } from './shared/http/keep-alive';
import { setupConsole } from './console/serve-console';
import { IngestFastPath } from './modules/ingestion';
import { ExpressObjectsAdapter } from './shared/http/express-objects-adapter';

/**
 * Builds the fully configured application (used by main.ts, the e2e tests and the benchmark), so tests exercise
 * exactly the production pipeline.
 */
export async function createApp(config: AppConfig, extraModules: Type[] = []): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, extraModules), new ExpressObjectsAdapter(), {
    bufferLogs: true,
    // Parsing is ours (JsonBodyMiddleware): JSON only, 1 MiB, failures in the error envelope.
    bodyParser: false,
    abortOnError: false,
  });
  app.useLogger(new NestLogger(app.get(Logger)));
  app.flushLogs();
  configureApp(app, config);
  return app;
}

export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  // Requests Node's parser refuses (headers over 16 KiB, malformed HTTP) get the error envelope too.
  answerClientErrors(app.getHttpServer());
  keepConnectionsAlive(app.getHttpServer(), config.httpKeepAliveTimeoutMs);
  // Every answer is `no-store`, so Express's automatic body-hash ETag could never be used by a cache; the
  // ETags the API promises are the explicit resource versions handlers set for If-Match.
  app.set('etag', false);
  // TRUST_PROXY (default off): behind an ingress, req.ip (login throttles, rate limits, audit, logs) is the
  // client address the trusted hops report in X-Forwarded-For, not the ingress's own.
  app.set('trust proxy', config.trustProxy);
  // Order matters: the correlation id, the headers every answer carries and the request context first (everything
  // after logs or returns the id), then CORS, metrics timing and body parsing, all before Nest's router.
  const requestStart = requestStartMiddleware(app.get(ClsService), {
    // The defaults, minus `upgrade-insecure-requests`: on plain-HTTP development and cluster-internal hosts it
    // makes browsers fetch the /docs assets over https, which fails. TLS is the ingress's job.
    contentSecurityPolicy: { directives: { upgradeInsecureRequests: null } },
  });
  app.use(requestStart);
  // The web console's static files, before CORS and body parsing (neither applies to them).
  if (config.consoleEnabled) setupConsole(app);
  // A preflight from an origin CORS refuses gets a 403 envelope naming the origin and the setting, not a 404.
  app.use(refusedPreflightMiddleware(config));
  app.enableCors({
    // Exact match only (plus local http origins in development); no wildcard can coexist with credentials.
    origin: (origin, callback) => callback(null, config.isOriginAllowed(origin)),
    credentials: true,
    exposedHeaders: ['X-Correlation-Id', 'ETag', 'Location', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600,
  });
  // Only the refresh cookie is read, and only by /v1/auth routes.
  app.use('/v1/auth', cookieParser());
  const metrics = app.get(HttpMetricsMiddleware);
  const measured = metrics.use.bind(metrics);
  app.use(measured);
  // Webhook uplinks are answered in front of Express, after the same first middlewares (see IngestFastPath).
  app.get(IngestFastPath).install(app.getHttpServer(), app.getHttpAdapter().getInstance(), [requestStart, measured]);
  const jsonBody = app.get(JsonBodyMiddleware);
  app.use(jsonBody.use.bind(jsonBody));
  if (config.docsEnabled) setupOpenApi(app, config.version, config.refreshCookieSecure ? SECURE_COOKIE_NAME : PLAIN_COOKIE_NAME);
}
