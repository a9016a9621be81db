#!/usr/bin/env node
'use strict';

/*
 * `npm run openapi [file]`: writes the OpenAPI document of the built application (`dist/`) without a database.
 * Preview mode builds the module graph and routes but instantiates no provider, so neither PostgreSQL nor any
 * other dependency is touched. It lives outside `src/` because it starts the whole application module.
 */

require('reflect-metadata');
const { writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');

const DIST = join(__dirname, '..', 'dist');
const { NestFactory } = require('@nestjs/core');
const { AppModule } = require(join(DIST, 'app.module'));
const { AppConfig } = require(join(DIST, 'config', 'app-config'));
const { buildOpenApiDocument, DOCUMENT_ONLY_ENV } = require(join(DIST, 'openapi', 'openapi'));

async function main() {
  const target = resolve(process.argv[2] ?? 'openapi.json');
  const config = AppConfig.fromEnv(DOCUMENT_ONLY_ENV);
  const app = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  const document = buildOpenApiDocument(app, config.version);
  writeFileSync(target, `${JSON.stringify(document, null, 2)}\n`);
  process.stdout.write(`OpenAPI ${document.openapi} with ${Object.keys(document.paths).length} paths written to ${target}\n`);
  await app.close();
}

main().catch((error) => {
  process.stderr.write(`openapi: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
