import { randomBytes, randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { ensureBuilt, Replica, startReplica } from './support/service-process';
import { createTestDatabase, TestDatabase } from './support/test-database';
import { chirpstackUp } from './fixtures/ingestion/bodies';

/*
 * Per-device receipt order across service replicas: two service processes on one database, each with two
 * processing workers, receive interleaved uplinks of the same devices (each device's next uplink goes to the other
 * replica once the previous one is acknowledged). Every uplink is processed exactly once, and each device's
 * executions ran in receipt order.
 */

const ADMIN = { username: 'replica-admin', password: 'replica-admin-password-1' };
const DEVICES = 8;
const PER_DEVICE = 40;

let database: TestDatabase;
let db: Client;
let replicas: Replica[] = [];

/** Two processing workers per replica, small batches and a fast poll, so the replicas interleave. */
const startProcessingReplica = (databaseUrl: string) =>
  startReplica(databaseUrl, ADMIN, { PROCESSING_WORKERS: '2', PROCESSING_BATCH_SIZE: '20', PROCESSING_POLL_INTERVAL_MS: '20' });

async function api(replica: Replica, token: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${replica.url}${path}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : null };
}

beforeAll(() => ensureBuilt(), 120_000);

beforeAll(async () => {
  database = await createTestDatabase();
  db = new Client({ connectionString: database.url });
  await db.connect();
  replicas = await Promise.all([startProcessingReplica(database.url), startProcessingReplica(database.url)]);
}, 240_000);

afterAll(async () => {
  for (const replica of replicas) {
    if (replica.service.child.exitCode === null) {
      replica.service.child.kill('SIGTERM');
      await replica.service.exited;
    }
  }
  await db?.end();
  await database?.drop();
}, 60_000);

it('processes interleaved uplinks of the same devices through two replicas once each, in receipt order per device', async () => {
  const [a, b] = replicas as [Replica, Replica];
  const login = await fetch(`${a.url}/v1/auth/login`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ identifier: ADMIN.username, password: ADMIN.password }) });
  const token = ((await login.json()) as { accessToken: string }).accessToken;
  const tenant = (await db.query(`INSERT INTO tenants (key, name) VALUES ('replicas', 'Replicas') RETURNING tenant_id, tenant_number`)).rows[0];
  const type = (await db.query(`INSERT INTO device_types (tenant_id, key, name) VALUES ($1, 'meter', 'Meter') RETURNING device_type_id`, [tenant.tenant_id])).rows[0];
  await db.query(
    `INSERT INTO device_field_definitions (tenant_id, device_type_id, key, name, schema_ref, storage_targets, measurement_type)
     VALUES ($1, $2, 'level', 'Level', 'platform://schemas/number/v1', '{current,timeseries}', 'gauge')`,
    [tenant.tenant_id, type.device_type_id],
  );
  const flow = await api(a, token, 'POST', `/v1/device-types/${type.device_type_id}/flow`, { key: 'meter', name: 'Meter' });
  expect(flow.status).toBe(201);
  const field = { fieldKey: 'level', schemaRef: 'platform://schemas/number/v1' };
  const graph = {
    schemaVersion: 'flow-graph.v2',
    deviceTypeId: type.device_type_id,
    nodes: [
      { kind: 'block', nodeId: 'decode', block: { type: 'builtin', key: 'decode-binary', version: 1 }, name: 'Decode', configuration: { reads: [{ offset: 0, type: 'uint16be', fieldKey: 'level' }] }, position: { x: 0, y: 0 } },
      { kind: 'current-output', nodeId: 'current', block: null, name: 'Current', configuration: { fields: [field] }, position: { x: 1, y: 0 } },
      { kind: 'timeseries-output', nodeId: 'history', block: null, name: 'History', configuration: { fields: [field] }, position: { x: 2, y: 0 } },
    ],
    edges: [
      { fromNodeId: 'decode', toNodeId: 'current' },
      { fromNodeId: 'decode', toNodeId: 'history' },
    ],
  };
  const version = await api(a, token, 'POST', `/v1/flows/${flow.body.flowId}/versions`, { graph });
  expect(version.status).toBe(201);
  expect((await api(a, token, 'POST', `/v1/flows/${flow.body.flowId}/versions/${version.body.flowVersionId}/release`)).status).toBe(200);
  const activated = await api(a, token, 'POST', `/v1/flows/${flow.body.flowId}/activate`, { flowVersionId: version.body.flowVersionId }, { 'If-Match': flow.headers.get('etag')! });
  expect(activated.status).toBe(200);
  const credential = await api(a, token, 'POST', '/v1/ingestion-credentials', { name: 'shared' });
  expect(credential.status).toBe(201);

  const devices: { deviceId: string; devEui: string }[] = [];
  for (let i = 0; i < DEVICES; i++) {
    const devEui = randomBytes(8).toString('hex').toUpperCase();
    const row = (await db.query(`INSERT INTO devices (tenant_id, device_type_id, dev_eui, name) VALUES ($1, $2, $3, $3) RETURNING device_id`, [tenant.tenant_id, type.device_type_id, devEui])).rows[0];
    devices.push({ deviceId: row.device_id, devEui });
  }

  // All at once, alternating replicas, so that a backlog builds and every worker of both replicas claims messages
  // of the same devices. The same observedAt for all: only receipt order decides.
  const sends = devices.flatMap((device) =>
    Array.from({ length: PER_DEVICE }, async (_, k) => {
      const replica = k % 2 === 0 ? a : b;
      const body = { ...chirpstackUp(device.devEui.toLowerCase(), randomUUID()), time: '2026-06-01T00:00:00Z', data: Buffer.from([0, k]).toString('base64') };
      const res = await fetch(`${replica.url}/v1/ingestion/chirpstack?event=up`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${credential.body.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(202);
      return ((await res.json()) as { rawIngestionMessageId: string }).rawIngestionMessageId;
    }),
  );
  const acked = await Promise.all(sends);

  const deadline = Date.now() + 60_000;
  for (;;) {
    const { rows } = await db.query(`SELECT count(*)::int AS n FROM raw_ingestion_messages WHERE processing_status = 'pending'`);
    if (rows[0].n === 0) break;
    if (Date.now() > deadline) throw new Error(`${rows[0].n} uplinks still pending`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }

  const { rows: counts } = await db.query(
    `SELECT (SELECT count(*)::int FROM raw_ingestion_messages WHERE processing_status = 'processed' AND raw_ingestion_message_id = ANY ($1::uuid[])) AS processed,
            (SELECT count(*)::int FROM flow_executions WHERE raw_ingestion_message_id = ANY ($1::uuid[])) AS executions,
            (SELECT count(DISTINCT raw_ingestion_message_id)::int FROM flow_executions WHERE raw_ingestion_message_id = ANY ($1::uuid[])) AS distinct_messages`,
    [acked],
  );
  expect(counts[0]).toEqual({ processed: DEVICES * PER_DEVICE, executions: DEVICES * PER_DEVICE, distinct_messages: DEVICES * PER_DEVICE });

  for (const device of devices) {
    const { rows } = await db.query(
      `SELECT (e.current->>'level')::int AS level, e.started_at, r.received_at FROM flow_executions e
         JOIN raw_ingestion_messages r ON r.raw_ingestion_message_id = e.raw_ingestion_message_id
        WHERE e.device_id = $1 ORDER BY r.receipt_seq`,
      [device.deviceId],
    );
    expect(rows).toHaveLength(PER_DEVICE);
    // No execution started before the one of the message received before it.
    const starts = rows.map((r: { started_at: Date }) => r.started_at.getTime());
    expect(starts).toEqual([...starts].sort((x, y) => x - y));
    const { rows: current } = await db.query(`SELECT value FROM device_current_values WHERE device_id = $1`, [device.deviceId]);
    // The current value is the latest by (observedAt, rawReceivedAt); all share observedAt here.
    const latest = rows.reduce((kept: { received_at: Date }, row: { received_at: Date }) => (row.received_at >= kept.received_at ? row : kept));
    expect(current[0].value).toBe(latest.level);
  }

  // Both replicas' workers took part.
  const executed = await Promise.all(
    replicas.map(async (replica) => {
      const text = await (await fetch(`${replica.url}/metrics`)).text();
      return Number(/flow_executions_total\{mode="live",status="succeeded"\} (\d+)/.exec(text)?.[1] ?? 0);
    }),
  );
  expect(executed[0]! + executed[1]!).toBe(DEVICES * PER_DEVICE);
}, 180_000);
