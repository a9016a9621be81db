import { randomUUID } from 'node:crypto';
import { AppConfig } from '../src/config/app-config';
import { RETENTION_JOB } from '../src/modules/ingestion/retention/retention.job';
import { RETENTION_LOCK_KEY, RetentionSweeper } from '../src/modules/ingestion/retention/retention-sweeper';
import { EXECUTION_RETENTION_JOB } from '../src/modules/processing/retention/execution-retention.job';
import { EXECUTION_RETENTION_LOCK_KEY, ExecutionRetentionSweeper } from '../src/modules/processing/retention/execution-retention-sweeper';
import { loginAdmin } from './support/auth';
import { seedDevice, seedDeviceType, seedField } from './support/devices';
import { pipelineGraph } from './support/flows';
import { as } from './support/http';
import { isPinned, seedRawMessage } from './support/raw-messages';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/*
 * Retention of raw messages (RAW_RETENTION_DAYS, default 30; pinned and pending ones kept), flow executions
 * (EXECUTION_RETENTION_DAYS, default 14; processing's own sweep and job) and expired dedup keys.
 *
 * Raw messages are written routed with SQL (seedRawMessage): routing belongs to the processing pipeline, which
 * these tests do not depend on.
 */

describe('retention', () => {
  let t: TestApp;
  let admin: ReturnType<typeof as>;
  let tenant: SeededTenant;
  let sweeper: RetentionSweeper;
  let executionSweeper: ExecutionRetentionSweeper;

  const exists = async (table: string, column: string, id: string) =>
    (await t.dataSource.query(`SELECT 1 FROM ${table} WHERE ${column} = $1`, [id])).length === 1;
  const rawExists = (id: string) => exists('raw_ingestion_messages', 'raw_ingestion_message_id', id);
  const executionExists = (id: string) => exists('flow_executions', 'flow_execution_id', id);
  const dedupKeyExists = (key: string) => exists('ingestion_dedup_keys', 'dedup_key', key);
  const jobRuns = (state: string, job = RETENTION_JOB) =>
    t.dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM jobs WHERE name = $1 AND state = $2`, [job, state]).then((rows) => rows[0]!.n);

  async function newFlow() {
    const type = await seedDeviceType(t, tenant);
    await seedField(t, tenant, type, { key: 'level' });
    const device = await seedDevice(t, tenant, type);
    const flow = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: `retention-${randomUUID().slice(0, 8)}`, name: 'Flow' }).expect(201);
    const version = await admin.post(`/v1/flows/${flow.body.flowId}/versions`, { graph: pipelineGraph(type, 'level') }).expect(201);
    return { type, device, flowId: flow.body.flowId as string, flowVersionId: version.body.flowVersionId as string };
  }

  async function seedExecution(flow: Awaited<ReturnType<typeof newFlow>>, ageDays: number): Promise<string> {
    const id = randomUUID();
    await t.dataSource.query(
      `INSERT INTO flow_executions (flow_execution_id, tenant_id, flow_id, flow_version_id, version_number, device_id, mode,
                                    raw_received_at, observed_at, correlation_id, status, started_at, duration_ms, trace)
       VALUES ($1, $2, $3, $4, 1, $5, 'live', now(), now(), 'corr', 'succeeded', clock_timestamp() - make_interval(days => $6), 1.5, '[]')`,
      [id, tenant.tenantId, flow.flowId, flow.flowVersionId, flow.device.deviceId, ageDays],
    );
    return id;
  }

  async function seedDedupKey(expiresInSeconds: number): Promise<string> {
    const key = `retention:${randomUUID()}`;
    await t.dataSource.query(
      `INSERT INTO ingestion_dedup_keys (dedup_scope, dedup_key, raw_ingestion_message_id, raw_received_at, expires_at)
       VALUES ('platform', $1, gen_random_uuid(), now(), clock_timestamp() + make_interval(secs => $2))`,
      [key, expiresInSeconds],
    );
    return key;
  }

  const expiredRaw = (count: number, options: Parameters<typeof seedRawMessage>[1] = {}) =>
    Promise.all(Array.from({ length: count }, () => seedRawMessage(t, { tenantId: tenant.tenantId, ageDays: 31, ...options })));

  beforeAll(async () => {
    t = await startTestApp({ env: { JOBS_POLL_INTERVAL_MS: '100' } });
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
    sweeper = t.app.get(RetentionSweeper);
    executionSweeper = t.app.get(ExecutionRetentionSweeper);
    // The recurring jobs run once at start; the direct runs below must not meet them holding their locks.
    await waitUntil(async () => (await jobRuns('completed')) >= 1 && (await jobRuns('completed', EXECUTION_RETENTION_JOB)) >= 1);
  });
  afterAll(() => t.close());

  it('validates its configuration like every other variable', () => {
    expect(AppConfig.fromEnv({})).toMatchObject({ rawRetentionDays: 30, executionRetentionDays: 14 });
    expect(() => AppConfig.fromEnv({ RAW_RETENTION_DAYS: '0' })).toThrow('RAW_RETENTION_DAYS');
    expect(() => AppConfig.fromEnv({ EXECUTION_RETENTION_DAYS: 'two weeks' })).toThrow('EXECUTION_RETENTION_DAYS');
  });

  it('deletes raw messages received more than 30 days ago, keeping fresh, pinned and still pending ones', async () => {
    const flow = await newFlow();
    const [expired, unrouted, fresh, pinned, pending] = [
      await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: flow.device.deviceId, ageDays: 31 }),
      await seedRawMessage(t, { tenantId: tenant.tenantId, ageDays: 45 }),
      await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: flow.device.deviceId, ageDays: 29 }),
      await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: flow.device.deviceId, ageDays: 60, pinned: true }),
      await seedRawMessage(t, { tenantId: tenant.tenantId, ageDays: 31, status: 'pending' }),
    ];
    const result = await sweeper.run();
    expect(result).toMatchObject({ rawMessages: 2, yielded: false, aborted: false });
    expect(await rawExists(expired!.rawIngestionMessageId)).toBe(false);
    expect(await rawExists(unrouted!.rawIngestionMessageId)).toBe(false);
    expect(await rawExists(fresh!.rawIngestionMessageId)).toBe(true);
    expect(await rawExists(pinned!.rawIngestionMessageId)).toBe(true);
    expect(await rawExists(pending!.rawIngestionMessageId)).toBe(true);
    await t.dataSource.query(`DELETE FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [pending!.rawIngestionMessageId]);
  });

  it('keeps an expired message while a fixture references it, and deletes it after the fixture is deleted', async () => {
    const flow = await newFlow();
    const message = await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: flow.device.deviceId, ageDays: 40 });
    const raw = { rawIngestionMessageId: message.rawIngestionMessageId, receivedAt: message.receivedAt };
    const fixture = await admin.post(`/v1/flows/${flow.flowId}/fixtures`, { raw, confirmRawRetentionExtension: true }).expect(201);
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);
    await sweeper.run();
    expect(await rawExists(message.rawIngestionMessageId)).toBe(true);

    await admin.delete(`/v1/flows/${flow.flowId}/fixtures/${fixture.body.fixtureId}`).set('If-Match', '"1"').expect(204);
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(false);
    expect((await sweeper.run()).rawMessages).toBe(1);
    expect(await rawExists(message.rawIngestionMessageId)).toBe(false);
  });

  it('deletes executions started more than 14 days ago with their e-mail requests, keeping newer ones', async () => {
    const flow = await newFlow();
    const [old, older, recent] = [await seedExecution(flow, 15), await seedExecution(flow, 100), await seedExecution(flow, 13)];
    await t.dataSource.query(
      `INSERT INTO flow_action_requests (tenant_id, flow_id, flow_execution_id, node_id, email_template_id, device_id)
       VALUES ($1, $2, $3, 'mail', gen_random_uuid(), $4), ($1, $2, $5, 'mail', gen_random_uuid(), $4)`,
      [tenant.tenantId, flow.flowId, old, flow.device.deviceId, recent],
    );
    expect(await executionSweeper.run()).toMatchObject({ executions: 2 });
    expect(await sweeper.run()).not.toHaveProperty('executions');
    expect([await executionExists(old), await executionExists(older), await executionExists(recent)]).toEqual([false, false, true]);
    const requests = await t.dataSource.query(`SELECT flow_execution_id FROM flow_action_requests WHERE flow_id = $1`, [flow.flowId]);
    expect(requests).toEqual([{ flow_execution_id: recent }]);
  });

  it('deletes expired dedup keys and keeps live ones', async () => {
    const [expired, live] = [await seedDedupKey(-1), await seedDedupKey(3600)];
    expect((await sweeper.run()).dedupKeys).toBe(1);
    expect([await dedupKeyExists(expired), await dedupKeyExists(live)]).toEqual([false, true]);
  });

  it('deletes in batches until a batch comes up short, passing kept rows on the way', async () => {
    const flow = await newFlow();
    const deleted = await expiredRaw(23, { deviceId: flow.device.deviceId });
    const kept = await expiredRaw(4, { deviceId: flow.device.deviceId, pinned: true });
    const executions = await Promise.all(Array.from({ length: 7 }, () => seedExecution(flow, 20)));
    const result = await sweeper.run({ batchSize: 5 });
    expect(result).toMatchObject({ rawMessages: 23 });
    expect(await executionSweeper.run({ batchSize: 5 })).toMatchObject({ executions: 7, batches: 2 });
    for (const message of deleted) expect(await rawExists(message.rawIngestionMessageId)).toBe(false);
    for (const message of kept) expect(await rawExists(message.rawIngestionMessageId)).toBe(true);
    for (const id of executions) expect(await executionExists(id)).toBe(false);
    expect(await sweeper.run({ batchSize: 5 })).toMatchObject({ rawMessages: 0, dedupKeys: 0 });
    expect(await executionSweeper.run({ batchSize: 5 })).toMatchObject({ executions: 0 });
  });

  it('yields to a replica holding the retention lock, and two concurrent runs delete everything exactly once', async () => {
    const flow = await newFlow();
    const messages = await expiredRaw(5, { deviceId: flow.device.deviceId });
    const holder = t.dataSource.createQueryRunner();
    try {
      await holder.startTransaction();
      await holder.query('SELECT pg_advisory_xact_lock($1)', [RETENTION_LOCK_KEY]);
      expect(await sweeper.run()).toMatchObject({ rawMessages: 0, yielded: true });
      expect(await rawExists(messages[0]!.rawIngestionMessageId)).toBe(true);
      // Each sweep has its own lock: executions are swept meanwhile.
      expect(await executionSweeper.run()).toMatchObject({ yielded: false });
      await holder.commitTransaction();
      await holder.startTransaction();
      const execution = await seedExecution(flow, 20);
      await holder.query('SELECT pg_advisory_xact_lock($1)', [EXECUTION_RETENTION_LOCK_KEY]);
      expect(await executionSweeper.run()).toMatchObject({ executions: 0, yielded: true });
      expect(await executionExists(execution)).toBe(true);
      await holder.commitTransaction();
      expect(await executionSweeper.run()).toMatchObject({ executions: 1, yielded: false });
    } finally {
      await holder.release();
    }
    expect((await sweeper.run()).rawMessages).toBe(5);

    const many = await expiredRaw(120, { deviceId: flow.device.deviceId });
    const executions = await Promise.all(Array.from({ length: 30 }, () => seedExecution(flow, 30)));
    const [runs, executionRuns] = await Promise.all([
      Promise.all([sweeper.run({ batchSize: 7 }), sweeper.run({ batchSize: 7 }), sweeper.run({ batchSize: 11 })]),
      Promise.all([executionSweeper.run({ batchSize: 7 }), executionSweeper.run({ batchSize: 3 })]),
    ]);
    expect(runs.reduce((sum, run) => sum + run.rawMessages, 0)).toBe(120);
    expect(executionRuns.reduce((sum, run) => sum + run.executions, 0)).toBe(30);
    for (const message of many) expect(await rawExists(message.rawIngestionMessageId)).toBe(false);
    for (const id of executions) expect(await executionExists(id)).toBe(false);
  });

  it('stops between batches when its abort signal fires', async () => {
    const flow = await newFlow();
    const messages = await expiredRaw(3, { deviceId: flow.device.deviceId });
    const abort = new AbortController();
    abort.abort();
    expect(await sweeper.run({ signal: abort.signal })).toMatchObject({ rawMessages: 0, aborted: true });
    expect(await rawExists(messages[0]!.rawIngestionMessageId)).toBe(true);
    expect((await sweeper.run()).rawMessages).toBe(3);
  });

  it('runs hourly as a recurring job on the job queue', async () => {
    const [{ due_in_s: dueIn }] = await t.dataSource.query<{ due_in_s: number }[]>(
      `SELECT extract(epoch FROM run_at - clock_timestamp())::float8 AS due_in_s FROM jobs WHERE name = $1 AND state = 'pending'`,
      [RETENTION_JOB],
    );
    expect(dueIn).toBeGreaterThan(3000);
    const flow = await newFlow();
    const [message] = await expiredRaw(1, { deviceId: flow.device.deviceId });
    const execution = await seedExecution(flow, 15);
    const key = await seedDedupKey(-60);
    const completed = await jobRuns('completed');
    const executionsCompleted = await jobRuns('completed', EXECUTION_RETENTION_JOB);
    await t.dataSource.query(`UPDATE jobs SET run_at = clock_timestamp() WHERE name = ANY ($1) AND state = 'pending'`, [[RETENTION_JOB, EXECUTION_RETENTION_JOB]]);
    await waitUntil(async () => (await jobRuns('completed')) > completed && (await jobRuns('completed', EXECUTION_RETENTION_JOB)) > executionsCompleted);
    expect([await rawExists(message!.rawIngestionMessageId), await executionExists(execution), await dedupKeyExists(key)]).toEqual([false, false, false]);
    await waitUntil(async () => (await jobRuns('pending')) === 1 && (await jobRuns('pending', EXECUTION_RETENTION_JOB)) === 1);
  });
});
