import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../app.module';
import { AppConfig } from '../config/app-config';
import { buildOpenApiDocument } from './openapi';

/**
 * `npm run openapi [file]`: writes the OpenAPI document without a database. Preview mode builds the module
 * graph and routes but instantiates no provider, so neither PostgreSQL nor any other dependency is touched.
 */
async function main(): Promise<void> {
  const target = resolve(process.argv[2] ?? 'openapi.json');
  const config = AppConfig.fromEnv({
    NODE_ENV: 'production',
    METRICS_TOKEN: 'unused-for-openapi-only',
    JWT_SECRET: 'unused-for-openapi-only-0123456789abcdef',
    CURSOR_SECRET: 'unused-for-openapi-only-0123456789abcdef',
    LOG_LEVEL: 'silent',
  });
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  const document = buildOpenApiDocument(app, config.version);
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`OpenAPI ${document.openapi} with ${Object.keys(document.paths).length} paths written to ${target}\n`);
  await app.close();
}

main().catch((error: unknown) => {
  process.stderr.write(`openapi: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
