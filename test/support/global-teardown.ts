import { rmSync } from 'node:fs';
import type { Client } from 'pg';
import { clonePrefix, withAdmin } from './test-database';
import { TEST_ADMIN_URL, TEST_TEMPLATE_DB } from './test-env';
import { waitUntil } from './wait';

/** How long connections of the run's databases may take to go once the last file has finished. */
const LEFTOVER_GRACE_MS = 3_000;

export default async function globalTeardown(): Promise<void> {
  // Unset when the global setup stopped before the template existed: then there is only a cluster to stop.
  const template = process.env[TEST_ADMIN_URL] ? process.env[TEST_TEMPLATE_DB] : undefined;
  const leftovers = template ? await withAdmin((admin) => leftoverConnections(admin, template)) : [];
  if (leftovers.length > 0) {
    // Printed before the cluster stops: stopping it ends those connections, and a leaked client without an
    // 'error' listener then crashes this process with nothing to say where it came from.
    process.stderr.write(`Connections left open by the tests (a test app or client that was never closed):\n${JSON.stringify(leftovers, null, 2)}\n`);
  }
  const embedded = globalThis.__UPLINK_EMBEDDED__;
  if (embedded) {
    // The whole throw-away cluster goes, data directory included.
    await embedded.stop();
    const dataDir = globalThis.__UPLINK_EMBEDDED_DIR__;
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  } else if (template) {
    await withAdmin(async (admin) => {
      const clones = await admin.query<{ datname: string }>(`SELECT datname FROM pg_database WHERE datname LIKE $1`, [clonePattern(template)]);
      for (const { datname } of clones.rows) await admin.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      await admin.query(`DROP DATABASE IF EXISTS "${template}" WITH (FORCE)`);
    });
  }
  if (leftovers.length > 0) throw new Error(`${leftovers.length} database connection(s) were left open by the tests (listed above)`);
}

interface Leftover {
  database: string;
  application: string;
  since: string;
  lastQuery: string;
}

/**
 * Connections to the run's databases other than the admin's own, after a short grace for those still closing.
 * Each file drops its database when done, which ends its connections: what is left belongs to a database that was
 * never dropped, i.e. to something a test never closed.
 */
async function leftoverConnections(admin: Client, template: string): Promise<Leftover[]> {
  let rows: Leftover[] = [];
  const gone = async () => {
    ({ rows } = await admin.query<Leftover>(
      `SELECT datname AS database, application_name AS application, backend_start::text AS since, left(query, 160) AS "lastQuery"
         FROM pg_stat_activity
        WHERE backend_type = 'client backend' AND pid <> pg_backend_pid() AND (datname = $1 OR datname LIKE $2)
        ORDER BY backend_start`,
      [template, clonePattern(template)],
    ));
    return rows.length === 0;
  };
  // Still there at the deadline: those are the leftovers.
  await waitUntil(gone, LEFTOVER_GRACE_MS).catch(() => undefined);
  return rows;
}

function clonePattern(template: string): string {
  return `${clonePrefix(template)}%`;
}
