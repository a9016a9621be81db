import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { createDataSource, runMigrationsLocked } from '../../src/database/data-source';
import { EmbeddedPostgresServer } from '../../src/database/embedded-postgres';
import { freePort } from './free-port';
import { TEST_ADMIN_URL, TEST_TEMPLATE_DB } from './test-env';

declare global {
  var __UPLINK_EMBEDDED__: EmbeddedPostgresServer | undefined;
  var __UPLINK_EMBEDDED_DIR__: string | undefined;
}

/**
 * One PostgreSQL for the whole run: DATABASE_URL when set, else a throw-away embedded cluster. A template
 * database is migrated once; each e2e file clones it (CREATE DATABASE ... TEMPLATE), so files run in parallel
 * on their own data.
 */
export default async function globalSetup(): Promise<void> {
  let adminUrl = process.env.DATABASE_URL;
  if (!adminUrl) {
    const dataDir = mkdtempSync(join(tmpdir(), 'uplink-test-pg-'));
    const server = await EmbeddedPostgresServer.start({ dataDir, port: await freePort() });
    globalThis.__UPLINK_EMBEDDED__ = server;
    globalThis.__UPLINK_EMBEDDED_DIR__ = dataDir;
    adminUrl = server.url('postgres');
  }
  const template = `uplink_tpl_${process.pid}_${Date.now().toString(36)}`;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${template}`);
  } finally {
    await admin.end();
  }
  const dataSource = createDataSource(withDatabase(adminUrl, template), { poolMax: 2 });
  await dataSource.initialize();
  try {
    await runMigrationsLocked(dataSource);
  } finally {
    await dataSource.destroy();
  }
  process.env[TEST_ADMIN_URL] = adminUrl;
  process.env[TEST_TEMPLATE_DB] = template;
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
