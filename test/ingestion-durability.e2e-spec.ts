import { join } from 'node:path';
import { Client } from 'pg';
import { issueToken } from '../src/modules/ingestion/domain/ingestion-token';
import { freePort } from './support/free-port';
import { ensureBuilt, ROOT, RunningService, startService, waitForReady } from './support/service-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

/*
 * Durability of the acknowledgement: the built service is killed with SIGKILL in the middle of a burst of
 * uplinks; after a restart every uplink that was answered 202 is in the database (the 202 is only sent once the
 * batch holding its row has committed). Rows whose request was cut before its answer may be there too.
 */

jest.setTimeout(240_000);

const ENV = {
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  JWT_SECRET: 'ingest-durability-jwt-secret-0123456789abcdef',
  CURSOR_SECRET: 'ingest-durability-cursor-secret-0123456789',
  BCRYPT_COST: '4',
  ALLOWED_ORIGINS: 'https://console.uplink.test',
  PLATFORM_ADMIN_USERNAME: 'durability-admin',
  PLATFORM_ADMIN_EMAIL: 'durability-admin@example.com',
  PLATFORM_ADMIN_PASSWORD: 'durability-admin-password-1',
  PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED: 'false',
};

let database: TestDatabase;
let db: Client;
let service: RunningService | undefined;

async function start(): Promise<{ url: string; service: RunningService }> {
  const port = await freePort();
  const running = startService({ ...ENV, DATABASE_URL: database.url, PORT: String(port) });
  await waitForReady(port, running.output, 90_000);
  return { url: `http://127.0.0.1:${port}`, service: running };
}

beforeAll(async () => {
  ensureBuilt(join(ROOT, 'dist', 'modules', 'ingestion', 'ingest.controller.js'));
  database = await createTestDatabase();
  db = new Client({ connectionString: database.url });
  await db.connect();
});

afterAll(async () => {
  if (service && service.child.exitCode === null) {
    service.child.kill('SIGTERM');
    await service.exited;
  }
  await db?.end();
  await database?.drop();
});

it('loses no acknowledged uplink when the service is killed with SIGKILL mid-burst', async () => {
  const issued = issueToken();
  await db.query(`INSERT INTO ingestion_credentials (scope, name, token_sha256, token_prefix) VALUES ('platform', 'burst', $1, $2)`, [
    issued.sha256,
    issued.prefix,
  ]);
  const first = await start();
  service = first.service;

  const acknowledged = new Map<string, string>();
  let sent = 0;
  let failed = 0;
  let stop = false;
  const KILL_AFTER = 400;
  let killed: Promise<number | null> | null = null;

  const worker = async (lane: number): Promise<void> => {
    for (let i = 0; !stop; i++) {
      const messageId = `burst-${lane}-${i}`;
      sent++;
      try {
        const res = await fetch(`${first.url}/v1/ingestion/http`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${issued.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify({ devEui: `00000000${String(lane).padStart(4, '0')}0000`, payload: { encoding: 'hex', data: 'cafe' }, messageId }),
        });
        if (res.status === 202) {
          const ack = (await res.json()) as { rawIngestionMessageId: string };
          acknowledged.set(messageId, ack.rawIngestionMessageId);
          if (acknowledged.size >= KILL_AFTER && !killed) {
            first.service.child.kill('SIGKILL');
            killed = first.service.exited;
          }
        } else {
          failed++;
        }
      } catch {
        // The connection died with the process: this request was never acknowledged.
        stop = true;
        failed++;
      }
    }
  };
  await Promise.all(Array.from({ length: 32 }, (_, lane) => worker(lane)));
  await killed;
  expect(acknowledged.size).toBeGreaterThanOrEqual(KILL_AFTER);
  expect(failed).toBeGreaterThan(0); // the kill did land mid-burst

  const second = await start();
  service = second.service;
  const { rows } = await db.query<{ id: string; dedup_key: string }>(
    `SELECT raw_ingestion_message_id AS id, dedup_key FROM raw_ingestion_messages WHERE source = 'http'`,
  );
  const stored = new Map(rows.map((row) => [row.dedup_key, row.id]));
  expect(rows.length).toBeGreaterThanOrEqual(acknowledged.size);
  expect(rows.length).toBeLessThanOrEqual(sent);
  const missing = [...acknowledged].filter(([messageId, id]) => stored.get(`http:${messageId}`) !== id);
  expect(missing).toEqual([]);

  // The restarted service answers a repeat of an acknowledged uplink with the stored original.
  const [messageId, id] = [...acknowledged][0]!;
  const lane = Number(messageId.split('-')[1]);
  const repeat = await fetch(`${second.url}/v1/ingestion/http`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${issued.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ devEui: `00000000${String(lane).padStart(4, '0')}0000`, payload: { encoding: 'hex', data: 'cafe' }, messageId }),
  });
  expect(repeat.status).toBe(202);
  expect(await repeat.json()).toMatchObject({ rawIngestionMessageId: id, duplicate: true });
  process.stdout.write(`durability: ${sent} sent, ${acknowledged.size} acknowledged before SIGKILL, ${rows.length} stored, ${failed} cut\n`);
});
