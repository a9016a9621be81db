import { randomUUID } from 'node:crypto';
import { DebugCaptureStore } from '../src/modules/flows/persistence/debug-capture.store';
import { IngestionProcessor } from '../src/modules/processing/pipeline/ingestion-processor';
import { auditRows } from './support/audit';
import { loginAdmin } from './support/auth';
import { randomDevEui, seedDevice } from './support/devices';
import { as, fieldsOf } from './support/http';
import { member } from './support/member';
import { seedLiveFlow, waitProcessed } from './support/processing';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { chirpstackUp } from './fixtures/ingestion/bodies';

/*
 * Debug capture of a flow: for a bounded time and number of live executions, their traces keep every node's output.
 * The flow decodes a big-endian uint16 and scales it by 0.1 into `level` (test/support/processing.ts).
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
let tenant: SeededTenant;
let token: string;

const hex = (value: number) => Buffer.from([value >> 8, value & 0xff]).toString('base64');

async function ingest(devEui: string, data: string): Promise<string> {
  const body = { ...chirpstackUp(devEui.toLowerCase(), randomUUID()), data };
  const res = await t.http().post('/v1/ingestion/chirpstack?event=up').set('Authorization', `Bearer ${token}`).set('Content-Type', 'application/json').send(JSON.stringify(body));
  expect(res.status).toBe(202);
  return res.body.rawIngestionMessageId as string;
}

/** The stored trace of the execution of raw message `id`. */
async function traceOf(id: string): Promise<{ n: string; o?: unknown; ot?: true }[]> {
  const [row] = await t.dataSource.query(`SELECT e.trace FROM flow_executions e JOIN raw_ingestion_messages r ON r.flow_execution_id = e.flow_execution_id WHERE r.raw_ingestion_message_id = $1`, [id]);
  return row.trace;
}

async function liveFlowWithDevice() {
  const flow = await seedLiveFlow(t, admin, tenant);
  const device = await seedDevice(t, tenant, { deviceTypeId: flow.type.deviceTypeId, key: '' }, null, { devEui: randomDevEui() });
  return { flow, device };
}

beforeAll(async () => {
  t = await startTestApp({ env: { PROCESSING_WORKERS: '3', PROCESSING_BATCH_SIZE: '20' } });
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t);
  token = (await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'NS' }).expect(201)).body.token;
});

afterAll(() => t.close());

describe('POST/GET/DELETE /v1/flows/{flowId}/debug-capture', () => {
  it('is inactive with nulls before any capture; outside a capture succeeded executions keep no outputs', async () => {
    const { flow, device } = await liveFlowWithDevice();
    const state = await admin.get(`/v1/flows/${flow.flowId}/debug-capture`).expect(200);
    expect(state.body).toEqual({ flowId: flow.flowId, active: false, startedAt: null, endsAt: null, maxExecutions: null, remainingExecutions: 0, capturedExecutions: 0 });
    const id = await ingest(device.devEui, hex(100));
    await waitProcessed(t, [id]);
    expect((await traceOf(id)).every((node) => node.o === undefined)).toBe(true);
  });

  it('captures full traces of exactly maxExecutions live executions, then stops by itself; audited', async () => {
    const { flow, device } = await liveFlowWithDevice();
    const started = await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 10, maxExecutions: 3 }).expect(200);
    expect(started.body).toMatchObject({ flowId: flow.flowId, active: true, maxExecutions: 3, remainingExecutions: 3, capturedExecutions: 0 });
    const span = Date.parse(started.body.endsAt) - Date.parse(started.body.startedAt);
    expect(span).toBe(10 * 60_000);

    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await ingest(device.devEui, hex(200 + i)));
    await waitProcessed(t, ids);
    const traces = await Promise.all(ids.map(traceOf));
    // one device: its messages run in receipt order, so the first three are the captured ones
    expect(traces.map((trace) => trace.every((node) => node.o !== undefined))).toEqual([true, true, true, false, false]);
    expect(traces[0]!.map((node) => [node.n, node.o])).toEqual([
      ['decode', { payload: [0, 200], values: { level: 200 } }],
      ['scale', { payload: [0, 200], values: { level: 20 } }],
      ['current', { level: 20 }],
      ['history', { level: 20 }],
    ]);
    // the execution API shows them
    const [{ flow_execution_id: executionId }] = await t.dataSource.query(`SELECT flow_execution_id FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [ids[1]]);
    const execution = await admin.get(`/v1/flows/${flow.flowId}/executions/${executionId}`).expect(200);
    expect(execution.body.trace[1]).toMatchObject({ nodeId: 'scale', output: { values: { level: 20.1 } }, outputTruncated: false });

    const after = await admin.get(`/v1/flows/${flow.flowId}/debug-capture`).expect(200);
    expect(after.body).toMatchObject({ active: false, remainingExecutions: 0, capturedExecutions: 3, maxExecutions: 3 });
    const [event] = await auditRows(t, 'flow', flow.flowId, 'flow.debug_capture_started');
    expect(event).toMatchObject({ tenant_id: tenant.tenantId, action: 'start_debug_capture', outcome: 'success', metadata: { minutes: 10, maxExecutions: 3 } });
  });

  it('keeps an output over 4 KiB as the first 4 KiB of its JSON text, marked truncated', async () => {
    const { flow, device } = await liveFlowWithDevice();
    await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 1, maxExecutions: 1 }).expect(200);
    // 3,000 bytes decode to an array whose JSON is far over 4 KiB
    const id = await ingest(device.devEui, Buffer.alloc(3000, 0xab).toString('base64'));
    await waitProcessed(t, [id]);
    const decode = (await traceOf(id)).find((node) => node.n === 'decode')!;
    expect(decode.ot).toBe(true);
    expect(typeof decode.o).toBe('string');
    expect(Buffer.byteLength(decode.o as string)).toBeLessThanOrEqual(4096);
    expect((decode.o as string).startsWith('{"payload":[171,171')).toBe(true);
  });

  it('DELETE ends it now (audited); executions after it keep no outputs; DELETE again changes and audits nothing', async () => {
    const { flow, device } = await liveFlowWithDevice();
    await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 60, maxExecutions: 1000 }).expect(200);
    const first = await ingest(device.devEui, hex(1));
    await waitProcessed(t, [first]);
    expect((await traceOf(first))[0]!.o).toBeDefined();

    const before = Date.now();
    const ended = await admin.delete(`/v1/flows/${flow.flowId}/debug-capture`).expect(200);
    expect(ended.body).toMatchObject({ active: false, remainingExecutions: 0, capturedExecutions: 1, maxExecutions: 1000 });
    expect(Math.abs(Date.parse(ended.body.endsAt) - before)).toBeLessThan(5000);
    const second = await ingest(device.devEui, hex(2));
    await waitProcessed(t, [second]);
    expect((await traceOf(second)).every((node) => node.o === undefined)).toBe(true);

    const again = await admin.delete(`/v1/flows/${flow.flowId}/debug-capture`).expect(200);
    expect(again.body).toEqual(ended.body);
    const events = await auditRows(t, 'flow', flow.flowId, 'flow.debug_capture_ended');
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ action: 'end_debug_capture', outcome: 'success', metadata: { capturedExecutions: 1 } });
  });

  it('ends when its time is up', async () => {
    const { flow, device } = await liveFlowWithDevice();
    await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 1, maxExecutions: 10 }).expect(200);
    await t.dataSource.query(`UPDATE flow_debug_captures SET started_at = started_at - interval '2 minutes', ends_at = ends_at - interval '2 minutes' WHERE flow_id = $1`, [flow.flowId]);
    const state = await admin.get(`/v1/flows/${flow.flowId}/debug-capture`).expect(200);
    expect(state.body).toMatchObject({ active: false, remainingExecutions: 0, capturedExecutions: 0 });
    const id = await ingest(device.devEui, hex(3));
    await waitProcessed(t, [id]);
    expect((await traceOf(id)).every((node) => node.o === undefined)).toBe(true);
  });

  it('starting again replaces the capture: new limits, counts from zero', async () => {
    const { flow, device } = await liveFlowWithDevice();
    await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 5, maxExecutions: 1 }).expect(200);
    const id = await ingest(device.devEui, hex(4));
    await waitProcessed(t, [id]);
    expect((await admin.get(`/v1/flows/${flow.flowId}/debug-capture`).expect(200)).body).toMatchObject({ active: false, capturedExecutions: 1 });
    const again = await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 2, maxExecutions: 7 }).expect(200);
    expect(again.body).toMatchObject({ active: true, maxExecutions: 7, remainingExecutions: 7, capturedExecutions: 0 });
    expect(Date.parse(again.body.endsAt) - Date.parse(again.body.startedAt)).toBe(2 * 60_000);
  });

  it('counts exactly under concurrency: batches of several replicas share maxExecutions without going over', async () => {
    const { flow } = await liveFlowWithDevice();
    await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 5, maxExecutions: 25 }).expect(200);
    // Eight "replicas" (stores with no shared memory), each a batch of 10 executions in its own transaction.
    const results = await Promise.all(
      Array.from({ length: 8 }, () =>
        t.dataSource.transaction(async (manager) => {
          const candidates = Array.from({ length: 10 }, () => ({ flowId: flow.flowId, flowExecutionId: randomUUID() }));
          return (await new DebugCaptureStore().capture(manager, candidates)).size;
        }),
      ),
    );
    expect(results.reduce((sum, n) => sum + n, 0)).toBe(25);
    expect((await admin.get(`/v1/flows/${flow.flowId}/debug-capture`).expect(200)).body).toMatchObject({ active: false, capturedExecutions: 25, remainingExecutions: 0 });
  });

  it('a rolled-back batch gives its executions back; state lives in the database (a fresh store sees it)', async () => {
    const { flow } = await liveFlowWithDevice();
    await admin.post(`/v1/flows/${flow.flowId}/debug-capture`, { minutes: 5, maxExecutions: 4 }).expect(200);
    await expect(
      t.dataSource.transaction(async (manager) => {
        const captured = await new DebugCaptureStore().capture(manager, [{ flowId: flow.flowId, flowExecutionId: randomUUID() }]);
        expect(captured.size).toBe(1);
        throw new Error('batch failed');
      }),
    ).rejects.toThrow('batch failed');
    const state = await new DebugCaptureStore().state(t.dataSource.manager, flow.flowId);
    expect(state).toMatchObject({ active: true, remainingExecutions: 4, capturedExecutions: 0 });
  });

  it('does not capture other flows, and adds no statement to a batch while no capture is active', async () => {
    const { device } = await liveFlowWithDevice();
    const other = await liveFlowWithDevice();
    await admin.post(`/v1/flows/${other.flow.flowId}/debug-capture`, { minutes: 5, maxExecutions: 5 }).expect(200);
    const id = await ingest(device.devEui, hex(5));
    await waitProcessed(t, [id]);
    expect((await traceOf(id)).every((node) => node.o === undefined)).toBe(true);
    expect((await admin.get(`/v1/flows/${other.flow.flowId}/debug-capture`).expect(200)).body.capturedExecutions).toBe(0);
    await admin.delete(`/v1/flows/${other.flow.flowId}/debug-capture`).expect(200);

    // With no active capture anywhere, a batch reads at most the cached list of active captures.
    await t.dataSource.query(`UPDATE flow_debug_captures SET ends_at = clock_timestamp()`);
    const processor = t.app.get(IngestionProcessor);
    await processor.stop();
    const statements: string[] = [];
    const createQueryRunner = t.dataSource.createQueryRunner.bind(t.dataSource);
    const spy = jest.spyOn(t.dataSource, 'createQueryRunner').mockImplementation((mode) => {
      const runner = createQueryRunner(mode);
      const query = runner.query.bind(runner);
      runner.query = ((sql: string, ...rest: never[]) => {
        if (/flow_debug_captures/.test(sql)) statements.push(sql);
        return query(sql, ...rest);
      }) as typeof runner.query;
      return runner;
    });
    try {
      const ids: string[] = [];
      for (let batch = 0; batch < 2; batch++) {
        ids.push(await ingest(device.devEui, hex(6 + batch)), await ingest(device.devEui, hex(8 + batch)));
        expect((await processor.processBatch()).processed).toBe(2);
      }
      // at most the cached read of the active list, once per batch at most, never a lock or a count per message
      expect(statements.length).toBeLessThanOrEqual(2);
      expect(statements.every((sql) => /^SELECT flow_id FROM flow_debug_captures WHERE/.test(sql) && !/FOR UPDATE/.test(sql))).toBe(true);
      await waitProcessed(t, ids);
    } finally {
      spy.mockRestore();
      processor.start();
    }
  });

  it('400 for bad bodies, 404 for a missing or foreign flow, 403 without the permission; GET needs only flows:read', async () => {
    const { flow } = await liveFlowWithDevice();
    const path = `/v1/flows/${flow.flowId}/debug-capture`;
    const cases: [unknown, string, string][] = [
      [{ maxExecutions: 5 }, 'body.minutes', 'required'],
      [{ minutes: 5 }, 'body.maxExecutions', 'required'],
      [{ minutes: 0, maxExecutions: 5 }, 'body.minutes', 'minimum'],
      [{ minutes: 61, maxExecutions: 5 }, 'body.minutes', 'maximum'],
      [{ minutes: 1.5, maxExecutions: 5 }, 'body.minutes', 'type'],
      [{ minutes: '5', maxExecutions: 5 }, 'body.minutes', 'type'],
      [{ minutes: 5, maxExecutions: 0 }, 'body.maxExecutions', 'minimum'],
      [{ minutes: 5, maxExecutions: 1001 }, 'body.maxExecutions', 'maximum'],
      [{ minutes: 5, maxExecutions: 5, extra: 1 }, 'body.extra', 'unknown_property'],
    ];
    for (const [body, where, rule] of cases) {
      const res = await admin.post(path, body as object).expect(400);
      expect(fieldsOf(res)).toContainEqual({ path: where, rule });
    }
    const notJson = await t.http().post(path).set('Authorization', `Bearer ${(await loginAdmin(t)).accessToken}`).set('Content-Type', 'application/json').send('{"minutes":');
    expect(notJson.status).toBe(400);
    await admin.get('/v1/flows/not-a-uuid/debug-capture').expect(400);

    const missing = await admin.post(`/v1/flows/${randomUUID()}/debug-capture`, { minutes: 5, maxExecutions: 5 }).expect(404);
    expect(missing.body.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resourceType: 'flow' } });
    const stranger = await member(t, await seedTenant(t), 'tenant_admin');
    await stranger.api.get(path).expect(404);
    await stranger.api.post(path, { minutes: 5, maxExecutions: 5 }).expect(404);
    await stranger.api.delete(path).expect(404);

    const viewer = await member(t, tenant, 'tenant_viewer');
    await viewer.api.get(path).expect(200);
    const denied = await viewer.api.post(path, { minutes: 5, maxExecutions: 5 }).expect(403);
    expect(denied.body.error.details).toMatchObject({ reason: 'missing_permission' });
    await viewer.api.delete(path).expect(403);
    expect((await admin.get(path).expect(200)).body.active).toBe(false);
    const deniedEvents = await t.dataSource.query(`SELECT event_type FROM audit_log WHERE outcome = 'denied' AND actor_id = $1`, [viewer.userId]);
    expect(deniedEvents.length).toBe(2);
  });
});
