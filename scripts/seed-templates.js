#!/usr/bin/env node
'use strict';

/*
 * `npm run seed:templates [dir]`: loads the starter flow template catalog (`templates/*.json` by default) into the
 * database the service uses (DATABASE_URL, else the embedded PostgreSQL of `npm start`), through the same
 * commands the API runs: global codec blocks pass their release gates, templates the flow compile rules.
 * Idempotent by key: a second run changes nothing; a changed file becomes a new released version. Background
 * jobs, ingestion processing and MQTT stay off in this process. It lives outside `src/` because it starts the
 * whole application module.
 */

require('reflect-metadata');
const { existsSync } = require('node:fs');
const { join, resolve } = require('node:path');

const DIST = join(__dirname, '..', 'dist');
const { createApp } = require(join(DIST, 'app.factory'));
const { AppConfig } = require(join(DIST, 'config', 'app-config'));
const { withDevelopmentSecrets } = require(join(DIST, 'config', 'development-secrets'));
const { TemplateCatalogSeeder } = require(join(DIST, 'modules', 'flow-templates'));

async function main() {
  if (existsSync('.env')) process.loadEnvFile('.env');
  const dir = resolve(process.argv[2] ?? join(__dirname, '..', 'templates'));
  const env = { ...process.env, JOBS_ENABLED: 'false', PROCESSING_ENABLED: 'false', MQTT_ENABLED: 'false', LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn' };
  const config = withDevelopmentSecrets(env, AppConfig.fromEnv(env));
  const app = await createApp(config);
  await app.init();
  try {
    const summary = await app.get(TemplateCatalogSeeder, { strict: false }).seed(dir);
    for (const block of summary.blocks) process.stdout.write(`block    ${block.key}: ${block.action} (version ${block.versionNumber})\n`);
    for (const template of summary.templates) process.stdout.write(`template ${template.key}: ${template.action} (version ${template.versionNumber})\n`);
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  process.stderr.write(`seed:templates: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
