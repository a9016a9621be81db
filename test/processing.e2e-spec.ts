import { randomUUID } from 'node:crypto';
import { Client } from 'pg';
import { RECEIPT_LOCK_CLASS } from '../src/modules/ingestion/ingest/raw-message-writer';
import { IngestionProcessor } from '../src/modules/processing/pipeline/ingestion-processor';
import { loginAdmin } from './support/auth';
import { randomDevEui, seedDevice } from './support/devices';
import { bend, blockNode, pipelineGraph } from './support/flows';
import { as } from './support/http';
import { seedLiveFlow, waitProcessed } from './support/processing';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { chirpstackUp } from './fixtures/ingestion/bodies';

/*
 * The live processing pipeline: stored uplinks routed to their device, run through the active flow version, values
 * stored, one execution per message, every outcome recorded on the raw message. The flow decodes a big-endian
 * uint16 and scales it by 0.1 into `level`.
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
let tenant: SeededTenant;
let tenantToken: string;
let platformToken: string;

const hex = (value: number) => Buffer.from([value >> 8, value & 0xff]).toString('base64');

function post(token: string, devEui: string, data: string, options: { dedup?: string; time?: string; correlationId?: string } = {}) {
  const body = { ...chirpstackUp(devEui.toLowerCase(), options.dedup ?? randomUUID()), data, ...(options.time ? { time: options.time } : {}) };
  const req = t.http().post('/v1/ingestion/chirpstack?event=up').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json');
  if (options.correlationId) req.set('X-Correlation-Id', options.correlationId);
  return req.send(JSON.stringify(body));
}

async function ingest(token: string, devEui: string, value: number, options: { dedup?: string; time?: string; correlationId?: string } = {}): Promise<string> {
  const res = await post(token, devEui, hex(value), options);
  expect(res.status).toBe(202);
  return res.body.rawIngestionMessageId as string;
}

const raw = async (id: string) =>
  (await t.dataSource.query(`SELECT processing_status, processing_reason, device_id, tenant_id, flow_execution_id FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [id]))[0];

const execution = async (id: string) => (await t.dataSource.query(`SELECT * FROM flow_executions WHERE flow_execution_id = $1`, [id]))[0];

async function deviceFor(target: SeededTenant, typeId: string, devEui = randomDevEui()) {
  return seedDevice(t, target, { deviceTypeId: typeId, key: '' }, null, { devEui });
}

beforeAll(async () => {
  t = await startTestApp({ env: { PROCESSING_WORKERS: '3', PROCESSING_BATCH_SIZE: '50' } });
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t);
  tenantToken = (await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'tenant NS' }).expect(201)).body.token;
  platformToken = (await admin.post('/v1/ingestion-credentials', { name: 'shared NS' }).expect(201)).body.token;
});

afterAll(() => t.close());

describe('live processing', () => {
  it('runs the active flow: values stored, one execution with a compact trace, the raw message processed', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const device = await deviceFor(tenant, flow.type.deviceTypeId);
    const id = await ingest(tenantToken, device.devEui, 255, { time: '2026-03-14T09:34:15.775023242+00:00', correlationId: 'corr-live-1' });
    await waitProcessed(t, [id]);
    const row = await raw(id);
    expect(row).toMatchObject({ processing_status: 'processed', processing_reason: null, device_id: device.deviceId, tenant_id: tenant.tenantId });
    const run = await execution(row.flow_execution_id);
    expect(run).toMatchObject({
      flow_id: flow.flowId,
      flow_version_id: flow.versionId,
      version_number: 2,
      device_id: device.deviceId,
      mode: 'live',
      replay_id: null,
      raw_ingestion_message_id: id,
      correlation_id: 'corr-live-1',
      status: 'succeeded',
      error: null,
      current: { level: 25.5 },
      timeseries: { level: 25.5 },
    });
    expect(run.observed_at.toISOString()).toBe('2026-03-14T09:34:15.775Z');
    expect(run.trace.map((node: { n: string; s: string }) => [node.n, node.s])).toEqual([
      ['decode', 'succeeded'],
      ['scale', 'succeeded'],
      ['current', 'succeeded'],
      ['history', 'succeeded'],
    ]);
    expect(run.trace[0].o).toBeUndefined();

    const current = await admin.get(`/v1/devices/${device.deviceId}/current-values`).expect(200);
    expect(JSON.stringify(current.body)).toContain('25.5');
    const [point] = await t.dataSource.query(`SELECT value_num, observed_at FROM measurements WHERE device_id = $1`, [device.deviceId]);
    expect(point.value_num).toBe(25.5);
    expect(point.observed_at.toISOString()).toBe('2026-03-14T09:34:15.775Z');
  });

  it('records every routing outcome with its reason', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const other = await seedTenant(t);
    const otherFlow = await seedLiveFlow(t, admin, other);
    const foreign = await deviceFor(other, otherFlow.type.deviceTypeId);
    const disabledDevice = await deviceFor(tenant, flow.type.deviceTypeId);
    await t.dataSource.query(`UPDATE devices SET status = 'disabled' WHERE device_id = $1`, [disabledDevice.deviceId]);
    const retired = await deviceFor(tenant, flow.type.deviceTypeId);
    await t.dataSource.query(`UPDATE devices SET status = 'retired', retired_at = now() WHERE device_id = $1`, [retired.deviceId]);

    const disabledTypeFlow = await seedLiveFlow(t, admin, tenant);
    const inDisabledType = await deviceFor(tenant, disabledTypeFlow.type.deviceTypeId);
    await t.dataSource.query(`UPDATE device_types SET status = 'disabled' WHERE device_type_id = $1`, [disabledTypeFlow.type.deviceTypeId]);

    const noFlowType = (await t.dataSource.query(`INSERT INTO device_types (tenant_id, key, name) VALUES ($1, $2, 'No flow') RETURNING device_type_id`, [tenant.tenantId, `noflow-${randomUUID().slice(0, 8)}`]))[0].device_type_id;
    const withoutFlow = await deviceFor(tenant, noFlowType);
    const inactiveType = (await t.dataSource.query(`INSERT INTO device_types (tenant_id, key, name) VALUES ($1, $2, 'Inactive') RETURNING device_type_id`, [tenant.tenantId, `inactive-${randomUUID().slice(0, 8)}`]))[0].device_type_id;
    await admin.post(`/v1/device-types/${inactiveType}/flow`, { key: `inactive-${randomUUID().slice(0, 8)}`, name: 'Never activated' }).expect(201);
    const withoutActive = await deviceFor(tenant, inactiveType);

    const disabledTenant = await seedTenant(t);
    const disabledTenantFlow = await seedLiveFlow(t, admin, disabledTenant);
    const inDisabledTenant = await deviceFor(disabledTenant, disabledTenantFlow.type.deviceTypeId);
    await t.dataSource.query(`UPDATE tenants SET status = 'disabled' WHERE tenant_id = $1`, [disabledTenant.tenantId]);

    const cases: [string, string, string | null, string | null][] = [
      [await ingest(tenantToken, randomDevEui(), 1), 'unrouted', 'unknown_dev_eui', null],
      [await ingest(tenantToken, retired.devEui, 1), 'unrouted', 'unknown_dev_eui', null],
      [await ingest(tenantToken, foreign.devEui, 1), 'rejected', 'tenant_mismatch', null],
      [await ingest(platformToken, foreign.devEui, 1), 'processed', null, foreign.deviceId],
      [await ingest(tenantToken, disabledDevice.devEui, 1), 'skipped', 'device_disabled', disabledDevice.deviceId],
      [await ingest(tenantToken, inDisabledType.devEui, 1), 'skipped', 'device_type_disabled', inDisabledType.deviceId],
      [await ingest(tenantToken, withoutFlow.devEui, 1), 'skipped', 'no_flow', withoutFlow.deviceId],
      [await ingest(tenantToken, withoutActive.devEui, 1), 'skipped', 'no_active_flow_version', withoutActive.deviceId],
      [await ingest(platformToken, inDisabledTenant.devEui, 1), 'skipped', 'tenant_disabled', inDisabledTenant.deviceId],
    ];
    await waitProcessed(t, cases.map(([id]) => id));
    for (const [id, status, reason, deviceId] of cases) {
      const row = await raw(id);
      expect({ id, status: row.processing_status, reason: row.processing_reason, deviceId: row.device_id }).toEqual({ id, status, reason, deviceId });
      expect(row.flow_execution_id === null).toBe(status !== 'processed');
    }
    // A tenant credential keeps its own tenant on a mismatch; the platform credential's message takes the device's.
    expect((await raw(cases[2]![0])).tenant_id).toBe(tenant.tenantId);
    expect((await raw(cases[3]![0])).tenant_id).toBe(other.tenantId);
    const metrics = await t.http().get('/metrics');
    expect(metrics.text).toMatch(/ingestion_processed_total\{status="rejected",reason="tenant_mismatch"\} \d+/);
    expect(metrics.text).toMatch(/flow_executions_total\{mode="live",status="succeeded"\} \d+/);
    expect(metrics.text).toMatch(/ingestion_backlog \d+/);
    expect(metrics.text).toMatch(/ingestion_lag_seconds [\d.e+-]+/);
    expect(metrics.text).toContain('flow_execution_duration_seconds_bucket');
  });

  it('stores a failing execution as failed with nothing else, without affecting the rest of its batch', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const devices = await Promise.all(Array.from({ length: 5 }, () => deviceFor(tenant, flow.type.deviceTypeId)));
    await t.app.get(IngestionProcessor).stop();
    try {
      const good = await Promise.all(devices.map((device, i) => ingest(tenantToken, device.devEui, 100 + i)));
      // One byte: the uint16 read is out of range.
      const bad = (await post(tenantToken, devices[0]!.devEui, Buffer.from([7]).toString('base64'))).body.rawIngestionMessageId as string;
      await drain();
      const badRow = await raw(bad);
      expect(badRow.processing_status).toBe('processed');
      const failed = await execution(badRow.flow_execution_id);
      expect(failed).toMatchObject({ status: 'failed', current: {}, timeseries: {} });
      expect(failed.error.code).toBe('decode_error');
      // Failed executions keep node outputs for debugging.
      expect(failed.trace.find((node: { n: string }) => node.n === 'decode').s).toBe('failed');
      for (const id of good) expect((await execution((await raw(id)).flow_execution_id)).status).toBe('succeeded');
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM measurements WHERE device_id = ANY ($1::uuid[])`, [devices.map((d) => d.deviceId)]);
      expect(n).toBe(5);
    } finally {
      t.app.get(IngestionProcessor).start();
    }
  });

  it('turns a message whose values the storage refuses into a failed execution, and stores the rest of the batch', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const devices = await Promise.all(Array.from({ length: 4 }, () => deviceFor(tenant, flow.type.deviceTypeId)));
    // A check the flow cannot know about: a measurement of about 66.6 is refused by the database.
    await t.dataSource.query(`
      CREATE FUNCTION refuse_666() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF NEW.value_num BETWEEN 66 AND 67 THEN RAISE EXCEPTION 'refused by test' USING ERRCODE = '23514'; END IF;
        RETURN NEW;
      END $$;
      CREATE TRIGGER refuse_666 BEFORE INSERT ON measurements FOR EACH ROW EXECUTE FUNCTION refuse_666();`);
    const processor = t.app.get(IngestionProcessor);
    await processor.stop();
    try {
      const ids = await Promise.all(devices.map((device, i) => ingest(tenantToken, device.devEui, i === 2 ? 666 : 100 + i)));
      await drain();
      const runs = await Promise.all(ids.map(async (id) => execution((await raw(id)).flow_execution_id)));
      expect(runs.map((run) => run.status)).toEqual(['succeeded', 'succeeded', 'failed', 'succeeded']);
      expect(runs[2].error.code).toBe('type_mismatch');
      expect(runs[2].current).toEqual({});
      const stored = await t.dataSource.query(`SELECT device_id FROM measurements WHERE device_id = ANY ($1::uuid[])`, [devices.map((d) => d.deviceId)]);
      expect(stored.map((r: { device_id: string }) => r.device_id).sort()).toEqual([devices[0]!, devices[1]!, devices[3]!].map((d) => d.deviceId).sort());
      const [current] = await t.dataSource.query(`SELECT count(*)::int AS n FROM device_current_values WHERE device_id = $1`, [devices[2]!.deviceId]);
      expect(current.n).toBe(0);
    } finally {
      await t.dataSource.query(`DROP TRIGGER refuse_666 ON measurements; DROP FUNCTION refuse_666()`);
      processor.start();
    }
  });

  it('processes a message sent 20 times in parallel once', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const device = await deviceFor(tenant, flow.type.deviceTypeId);
    const dedup = randomUUID();
    const results = await Promise.all(Array.from({ length: 20 }, () => post(tenantToken, device.devEui, hex(42), { dedup })));
    expect(new Set(results.map((r) => r.body.rawIngestionMessageId)).size).toBe(1);
    await waitProcessed(t, [results[0]!.body.rawIngestionMessageId]);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM flow_executions WHERE device_id = $1`, [device.deviceId]);
    expect(n).toBe(1);
  });

  it('keeps per-device receipt order with several workers: executions in receipt order, the last value current', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const devices = await Promise.all(Array.from({ length: 6 }, () => deviceFor(tenant, flow.type.deviceTypeId)));
    const ids: string[] = [];
    // The same observedAt for every message: only receipt order decides which value is current.
    for (let i = 0; i < 40; i++) {
      const batch = await Promise.all(devices.map((device) => ingest(tenantToken, device.devEui, i, { time: '2026-05-01T00:00:00Z' })));
      ids.push(...batch);
    }
    await waitProcessed(t, ids, 30_000);
    for (const device of devices) {
      const rows = await t.dataSource.query(
        `SELECT e.timeseries->>'level' AS level, e.started_at FROM flow_executions e JOIN raw_ingestion_messages r ON r.raw_ingestion_message_id = e.raw_ingestion_message_id
          WHERE e.device_id = $1 ORDER BY r.receipt_seq`,
        [device.deviceId],
      );
      expect(rows.map((r: { level: string }) => Number(r.level))).toEqual(Array.from({ length: 40 }, (_, i) => i * 0.1));
      // No execution started before the one of the message received before it.
      const starts = rows.map((r: { started_at: Date }) => r.started_at.getTime());
      expect(starts).toEqual([...starts].sort((x, y) => x - y));
      const [current] = await t.dataSource.query(`SELECT value FROM device_current_values WHERE device_id = $1`, [device.deviceId]);
      expect(current.value).toBe(39 * 0.1);
    }
  });

  it('numbers a device\'s uplink after one another replica is still storing: the writer waits for that device\'s receipt lock', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const device = await deviceFor(tenant, flow.type.deviceTypeId);
    // Another replica in the middle of storing an uplink of the device: its transaction holds the device's receipt
    // lock and has numbered its row, but has not committed yet.
    const other = new Client({ connectionString: t.database.url });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query(`SELECT pg_advisory_xact_lock(${RECEIPT_LOCK_CLASS}, hashtext($1))`, [device.devEui]);
      const earlierId = randomUUID();
      const body = Buffer.from('{}');
      const earlier = await other.query(
        `INSERT INTO raw_ingestion_messages (raw_ingestion_message_id, received_at, source, event, dev_eui, observed_at, raw_payload, content_type, body, size_bytes)
         VALUES ($1, clock_timestamp(), 'http', 'uplink', $2, '2026-07-01T00:00:00Z', '{"encoding":"hex","data":"0001"}', 'application/json', $3, 2)
         RETURNING receipt_seq`,
        [earlierId, device.devEui, body],
      );
      let answered = false;
      const later = ingest(tenantToken, device.devEui, 2, { time: '2026-07-01T00:00:00Z' }).then((id) => {
        answered = true;
        return id;
      });
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(answered).toBe(false);
      await other.query('COMMIT');
      const laterId = await later;
      const [row] = await t.dataSource.query(`SELECT receipt_seq FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [laterId]);
      expect(BigInt(row.receipt_seq)).toBeGreaterThan(BigInt(earlier.rows[0].receipt_seq));
      await waitProcessed(t, [earlierId, laterId]);
      const runs = await t.dataSource.query(
        `SELECT e.current->>'level' AS level FROM flow_executions e JOIN raw_ingestion_messages r USING (raw_ingestion_message_id)
          WHERE e.device_id = $1 ORDER BY r.receipt_seq`,
        [device.deviceId],
      );
      expect(runs.map((r: { level: string }) => Number(r.level))).toEqual([0.1, 0.2]);
    } finally {
      await other.end();
    }
  });

  it('keeps exactly the pending messages queued, whoever writes them (insert, outcome, back to pending, delete), and records an outcome without rewriting the raw row', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const device = await deviceFor(tenant, flow.type.deviceTypeId);
    const ids = [await ingest(tenantToken, device.devEui, 1), await ingest(tenantToken, device.devEui, 2)];
    await waitProcessed(t, ids);
    const QUEUED = `SELECT count(*)::int AS n FROM raw_message_queue WHERE raw_ingestion_message_id = $1`;
    for (const id of ids) expect((await t.dataSource.query(QUEUED, [id]))[0].n).toBe(0);
    // The device's messages are found by its devEui, then its routing.
    const listed = await admin.get(`/v1/raw-ingestion-messages?deviceId=${device.deviceId}`).expect(200);
    expect(listed.body.items.map((item: { rawIngestionMessageId: string }) => item.rawIngestionMessageId)).toEqual([...ids].reverse());

    // Written by hand (not through the writer), then given an outcome, then deleted: the queue follows each step.
    // The outcome is a heap-only update (no index entry rewritten), counted by this transaction's own statistics.
    const other = new Client({ connectionString: t.database.url });
    await other.connect();
    const queued = async (id: string) => (await other.query<{ n: number }>(QUEUED, [id])).rows[0].n;
    try {
      await other.query('BEGIN');
      const id = randomUUID();
      await other.query(
        `INSERT INTO raw_ingestion_messages (raw_ingestion_message_id, received_at, source, event, tenant_id, dev_eui, content_type, body, size_bytes)
         VALUES ($1, clock_timestamp(), 'http', 'uplink', $2, $3, 'application/json', '\\x7b7d', 2)`,
        [id, tenant.tenantId, device.devEui],
      );
      expect(await queued(id)).toBe(1);
      await other.query(
        `UPDATE raw_ingestion_messages SET processing_status = 'processed', device_id = $2, flow_execution_id = $3 WHERE raw_ingestion_message_id = $1`,
        [id, device.deviceId, randomUUID()],
      );
      expect(await queued(id)).toBe(0);
      const { rows: [counts] } = await other.query(
        `SELECT pg_stat_get_xact_tuples_updated('raw_ingestion_messages'::regclass)::int AS updated,
                pg_stat_get_xact_tuples_hot_updated('raw_ingestion_messages'::regclass)::int AS hot`,
      );
      expect(counts).toEqual({ updated: 1, hot: 1 });
      // Back to pending: queued again; an update that leaves the status alone leaves the queue alone.
      await other.query(
        `UPDATE raw_ingestion_messages SET processing_status = 'pending', device_id = NULL, flow_execution_id = NULL WHERE raw_ingestion_message_id = $1`,
        [id],
      );
      expect(await queued(id)).toBe(1);
      await other.query(`UPDATE raw_ingestion_messages SET pinned = true, processing_status = 'pending' WHERE raw_ingestion_message_id = $1`, [id]);
      expect(await queued(id)).toBe(1);
      await other.query(`UPDATE raw_ingestion_messages SET processing_status = 'skipped', processing_reason = 'no_flow' WHERE raw_ingestion_message_id = $1`, [id]);
      expect(await queued(id)).toBe(0);
      const pending = randomUUID();
      await other.query(
        `INSERT INTO raw_ingestion_messages (raw_ingestion_message_id, received_at, source, event, content_type, body, size_bytes)
         VALUES ($1, clock_timestamp(), 'http', 'uplink', 'application/json', '\\x7b7d', 2)`,
        [pending],
      );
      expect(await queued(pending)).toBe(1);
      await other.query(`DELETE FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [pending]);
      expect(await queued(pending)).toBe(0);
    } finally {
      await other.query('ROLLBACK');
      await other.end();
    }
  });

  it('uses live parameter overrides: device over device type over tenant over the default', async () => {
    const scaled = (type: { deviceTypeId: string }) =>
      bend(pipelineGraph(type, 'level'), (graph) => {
        graph.nodes[1] = blockNode('scale', 'scale', { fieldKey: 'level', multiply: { $param: 'factor' }, add: 0 });
      });
    const flow = await seedLiveFlow(t, admin, tenant, scaled, [{ key: 'factor', type: 'number', defaultValue: 1 }]);
    const [a, b] = await Promise.all([deviceFor(tenant, flow.type.deviceTypeId), deviceFor(tenant, flow.type.deviceTypeId)]);
    const level = async (device: { devEui: string }) => {
      const id = await ingest(tenantToken, device.devEui, 10);
      await waitProcessed(t, [id]);
      return (await execution((await raw(id)).flow_execution_id)).current.level;
    };
    expect(await level(a)).toBe(10);
    await admin.put(`/v1/flows/${flow.flowId}/parameter-overrides/tenant/factor`).send({ value: 2 }).expect(200);
    expect(await level(a)).toBe(20);
    await admin.put(`/v1/flows/${flow.flowId}/parameter-overrides/device-type/factor`).send({ value: 3 }).expect(200);
    await admin.put(`/v1/flows/${flow.flowId}/parameter-overrides/devices/${b.deviceId}/factor`).send({ value: 4 }).expect(200);
    expect(await level(a)).toBe(30);
    expect(await level(b)).toBe(40);
    const id = await ingest(tenantToken, b.devEui, 1);
    await waitProcessed(t, [id]);
    expect((await execution((await raw(id)).flow_execution_id)).parameters).toEqual({ factor: 4 });
  });

  it('records the e-mail requests of a live execution in its transaction, for delivery later', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const templateId = randomUUID();
    // E-mail templates do not exist yet, so validation refuses an email-action node: the version is stored directly.
    const graph = bend(pipelineGraph(flow.type, 'level'), (g) => {
      g.nodes.push(blockNode('mail', 'email-action', { emailTemplateId: templateId }));
      g.edges.push({ fromNodeId: 'scale', toNodeId: 'mail' });
    });
    const [version] = await t.dataSource.query(
      `INSERT INTO flow_versions (flow_id, tenant_id, version_number, status, graph, parameters, checksum, released_at)
       VALUES ($1, $2, 99, 'released', $3, '[]', repeat('a', 64), clock_timestamp()) RETURNING flow_version_id`,
      [flow.flowId, tenant.tenantId, JSON.stringify(graph)],
    );
    const etag = (await admin.get(`/v1/flows/${flow.flowId}`).expect(200)).headers.etag as string;
    await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: version.flow_version_id }).set('If-Match', etag).expect(200);
    const device = await deviceFor(tenant, flow.type.deviceTypeId);
    const id = await ingest(tenantToken, device.devEui, 7);
    await waitProcessed(t, [id]);
    const executionId = (await raw(id)).flow_execution_id;
    expect((await execution(executionId)).actions).toEqual([{ nodeId: 'mail', emailTemplateId: templateId }]);
    const requests = await t.dataSource.query(`SELECT tenant_id, flow_id, node_id, email_template_id, device_id, status FROM flow_action_requests WHERE flow_execution_id = $1`, [executionId]);
    // Recorded with the execution; the actions module's job may already have expanded it (pending -> done).
    expect(requests).toEqual([{ tenant_id: tenant.tenantId, flow_id: flow.flowId, node_id: 'mail', email_template_id: templateId, device_id: device.deviceId, status: expect.stringMatching(/^(pending|done)$/) }]);
  });
});

/** Processes everything pending with this test's own calls (the workers are stopped). */
async function drain(): Promise<void> {
  const processor = t.app.get(IngestionProcessor);
  for (let i = 0; i < 100; i++) {
    const summary = await processor.processBatch();
    if (summary.claimed === 0) return;
  }
}


describe('how old a value is: current values carry observedAt, devices lastSeenAt', () => {
  const receivedAt = async (id: string): Promise<string> =>
    ((await t.dataSource.query(`SELECT received_at FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [id]))[0].received_at as Date).toISOString();

  it('shows null before the first storage, then the stored value\'s observedAt and the last processed uplink\'s receipt time', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const device = await deviceFor(tenant, flow.type.deviceTypeId);
    const before = await admin.get(`/v1/devices/${device.deviceId}`).expect(200);
    expect(before.body.lastSeenAt).toBeNull();
    const listed = await admin.get(`/v1/tenants/${tenant.tenantNumber}/devices`).query({ q: device.devEui }).expect(200);
    expect(listed.body.items.find((item: { deviceId: string }) => item.deviceId === device.deviceId).lastSeenAt).toBeNull();
    const empty = await admin.get(`/v1/devices/${device.deviceId}/current-values`).expect(200);
    expect(empty.body.fields.map((entry: { currentValue: unknown; observedAt: unknown }) => [entry.currentValue, entry.observedAt])).toEqual([[null, null]]);

    const first = await ingest(tenantToken, device.devEui, 200, { time: '2026-03-14T09:00:00.125Z' });
    await waitProcessed(t, [first]);
    const current = await admin.get(`/v1/devices/${device.deviceId}/current-values`).expect(200);
    expect(current.body.fields.map((entry: { currentValue: unknown; observedAt: unknown }) => [entry.currentValue, entry.observedAt])).toEqual([[20, '2026-03-14T09:00:00.125Z']]);
    const seen = await admin.get(`/v1/devices/${device.deviceId}`).expect(200);
    expect(seen.body.lastSeenAt).toBe(await receivedAt(first));
    // traffic is not a change made through the API
    expect(seen.body.updatedAt).toBe(before.body.updatedAt);

    // A later uplink observed earlier: the current value (and its time) stay, the device was still seen later.
    const late = await ingest(tenantToken, device.devEui, 100, { time: '2026-03-14T08:00:00.000Z' });
    await waitProcessed(t, [late]);
    const after = await admin.get(`/v1/devices/${device.deviceId}/current-values`).expect(200);
    expect(after.body.fields.map((entry: { currentValue: unknown; observedAt: unknown }) => [entry.currentValue, entry.observedAt])).toEqual([[20, '2026-03-14T09:00:00.125Z']]);
    const lastSeen = (await admin.get(`/v1/devices/${device.deviceId}`).expect(200)).body.lastSeenAt as string;
    expect(lastSeen).toBe(await receivedAt(late));
    expect(lastSeen > seen.body.lastSeenAt).toBe(true);
  });

  it('counts only processed uplinks: a skipped or failing-to-route message leaves lastSeenAt; a failed execution still counts', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const disabled = await deviceFor(tenant, flow.type.deviceTypeId);
    await t.dataSource.query(`UPDATE devices SET status = 'disabled' WHERE device_id = $1`, [disabled.deviceId]);
    const skipped = await ingest(tenantToken, disabled.devEui, 1);
    const failing = await deviceFor(tenant, flow.type.deviceTypeId);
    const bad = (await post(tenantToken, failing.devEui, Buffer.from([7]).toString('base64')).expect(202)).body.rawIngestionMessageId as string;
    await waitProcessed(t, [skipped, bad]);
    expect((await raw(skipped)).processing_status).toBe('skipped');
    expect((await admin.get(`/v1/devices/${disabled.deviceId}`).expect(200)).body.lastSeenAt).toBeNull();
    expect((await execution((await raw(bad)).flow_execution_id)).status).toBe('failed');
    expect((await admin.get(`/v1/devices/${failing.deviceId}`).expect(200)).body.lastSeenAt).toBe(await receivedAt(bad));
    // a failed execution stores no value: the current value and its time stay null
    const values = await admin.get(`/v1/devices/${failing.deviceId}/current-values`).expect(200);
    expect(values.body.fields[0]).toMatchObject({ currentValue: null, observedAt: null });
  });

  it('writes lastSeenAt once per device per batch: the latest receipt of the batch, one statement for all devices', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const devices = await Promise.all(Array.from({ length: 3 }, () => deviceFor(tenant, flow.type.deviceTypeId)));
    const processor = t.app.get(IngestionProcessor);
    await processor.stop();
    const statements: string[] = [];
    const createQueryRunner = t.dataSource.createQueryRunner.bind(t.dataSource);
    const spy = jest.spyOn(t.dataSource, 'createQueryRunner').mockImplementation((mode) => {
      const runner = createQueryRunner(mode);
      const query = runner.query.bind(runner);
      runner.query = ((sql: string, ...rest: never[]) => {
        if (/UPDATE devices/.test(sql)) statements.push(sql);
        return query(sql, ...rest);
      }) as typeof runner.query;
      return runner;
    });
    try {
      const ids: string[][] = devices.map(() => []);
      for (let round = 0; round < 3; round++) {
        for (const [i, device] of devices.entries()) ids[i]!.push(await ingest(tenantToken, device.devEui, 10 * round + i));
      }
      const summary = await processor.processBatch(50);
      expect(summary.processed).toBe(9);
      expect(statements).toHaveLength(1);
      for (const [i, device] of devices.entries()) {
        expect((await admin.get(`/v1/devices/${device.deviceId}`).expect(200)).body.lastSeenAt).toBe(await receivedAt(ids[i]![2]!));
      }
    } finally {
      spy.mockRestore();
      processor.start();
    }
  });
});
