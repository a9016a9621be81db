import { rmSync } from 'node:fs';
import { Client } from 'pg';
import { TEST_ADMIN_URL, TEST_TEMPLATE_DB } from './test-env';

export default async function globalTeardown(): Promise<void> {
  const embedded = globalThis.__UPLINK_EMBEDDED__;
  if (embedded) {
    // The whole throw-away cluster goes, data directory included.
    await embedded.stop();
    const dataDir = globalThis.__UPLINK_EMBEDDED_DIR__;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    return;
  }
  const adminUrl = process.env[TEST_ADMIN_URL];
  const template = process.env[TEST_TEMPLATE_DB];
  if (!adminUrl || !template) return;
  const admin = new Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const clones = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [
      `${template.replace('tpl', 't')}%`,
    ]);
    for (const { datname } of clones.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
    await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}
