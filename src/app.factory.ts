import { Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { AppConfig } from './config/app-config';
import { AppModule } from './app.module';
import { correlationIdMiddleware } from './shared/context/correlation-id';
import { noStoreMiddleware } from './shared/http/no-store.middleware';
import { setupOpenApi } from './openapi/openapi';

/**
 * Builds the fully configured application (used by main.ts, the e2e tests and the benchmark), so tests exercise
 * exactly the production pipeline.
 */
export async function createApp(config: AppConfig, extraModules: Type[] = []): Promise<NestExpressApplication> {
  const app = await NestFactory.create<NestExpressApplication>(AppModule.forRoot(config, extraModules), {
    bufferLogs: true,
    // Parsing is ours (JsonBodyMiddleware): JSON only, 1 MiB, failures in the error envelope.
    bodyParser: false,
    abortOnError: false,
  });
  app.useLogger(app.get(Logger));
  app.flushLogs();
  configureApp(app, config);
  return app;
}

export function configureApp(app: NestExpressApplication, config: AppConfig): void {
  app.disable('x-powered-by');
  app.set('trust proxy', false);
  app.use(correlationIdMiddleware);
  app.use(noStoreMiddleware);
  app.use(helmet());
  app.enableCors({
    // Exact match only; no wildcard can coexist with credentials.
    origin: (origin, callback) => callback(null, origin !== undefined && config.allowedOrigins.includes(origin)),
    credentials: true,
    exposedHeaders: ['X-Correlation-Id', 'ETag', 'Location', 'Retry-After', 'WWW-Authenticate'],
    maxAge: 600,
  });
  if (config.docsEnabled) setupOpenApi(app);
}
