import { randomUUID } from 'node:crypto';
import { loginAdmin } from './support/auth';
import { seedDevice, SeededDevice } from './support/devices';
import { seedExecution, seedRawMessage, seedReplay, SeededRawMessage } from './support/executions';
import { pipelineGraph } from './support/flows';
import { member } from './support/member';
import { as, fieldsOf } from './support/http';
import { LiveFlow, releasedVersion, seedLiveFlow, waitProcessed } from './support/processing';
import { seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;

/*
 * Execution records of a flow: the newest-first list with its window on startedAt and exact filters, and the
 * detail with the input rebuilt from the raw message and the trace expanded from the version's graph. Rows are
 * seeded with SQL (chosen times and statuses); one test reads an execution the live pipeline wrote.
 */
let t: TestApp;
let admin: Api;
let tenant: SeededTenant;
let flow: LiveFlow;
let otherVersionId: string;
let device1: SeededDevice;
let device2: SeededDevice;
let replayId: string;
let raw1: SeededRawMessage;

const now = Date.now();
const minutesAgo = (minutes: number) => new Date(now - minutes * 60_000);
const ids: Record<string, string> = {};

const list = (query = '', api = admin) => api.get(`/v1/flows/${flow.flowId}/executions${query ? `?${query}` : ''}`);
const idsOf = (res: { body: { items: { flowExecutionId: string }[] } }) => res.body.items.map((item) => item.flowExecutionId);


beforeAll(async () => {
  t = await startTestApp();
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t);
  flow = await seedLiveFlow(t, admin, tenant);
  otherVersionId = await releasedVersion(admin, flow.flowId, pipelineGraph(flow.type, 'level'));
  device1 = await seedDevice(t, tenant, flow.type);
  device2 = await seedDevice(t, tenant, flow.type);
  replayId = await seedReplay(t, { tenantId: tenant.tenantId, flowId: flow.flowId, flowVersionId: otherVersionId });
  raw1 = await seedRawMessage(t, {
    tenantId: tenant.tenantId,
    deviceId: device1.deviceId,
    devEui: device1.devEui,
    observedAt: minutesAgo(11),
    value: 255,
    connectionData: { fPort: 2, rssi: -97 },
    correlationId: 'ingest-req-1',
  });
  const base = { tenantId: tenant.tenantId, flowId: flow.flowId, flowVersionId: flow.versionId, versionNumber: 2 };
  // Newest first: e (2 min) ... a (10 min); `old` is outside the default 24 hours.
  ids.a = await seedExecution(t, { ...base, deviceId: device1.deviceId, startedAt: minutesAgo(10), raw: raw1, correlationId: 'ingest-req-1', parameters: { factor: 2 }, current: { level: 25.5 }, timeseries: { level: 25.5 } });
  ids.b = await seedExecution(t, { ...base, deviceId: device2.deviceId, startedAt: minutesAgo(8), status: 'failed', trace: [{ n: 'decode', s: 'failed', t: 0, d: 0.2, e: { code: 'decode_error', message: 'short' }, o: { payload: [1], values: {} } }, { n: 'scale', s: 'skipped', t: 0.2, d: 0 }, { n: 'current', s: 'skipped', t: 0.2, d: 0 }, { n: 'history', s: 'skipped', t: 0.2, d: 0 }] });
  ids.c = await seedExecution(t, { ...base, deviceId: device1.deviceId, startedAt: minutesAgo(6), status: 'filtered' });
  ids.d = await seedExecution(t, { ...base, flowVersionId: otherVersionId, versionNumber: 3, deviceId: device2.deviceId, startedAt: minutesAgo(4), mode: 'replay', replayId });
  ids.e = await seedExecution(t, { ...base, deviceId: device1.deviceId, startedAt: minutesAgo(2), correlationId: 'ingest-req-2' });
  ids.old = await seedExecution(t, { ...base, deviceId: device1.deviceId, startedAt: minutesAgo(60 * 25) });
});

afterAll(() => t.close());

describe('list', () => {
  it('lists the last 24 hours newest first by startedAt, items without input, outputs or trace', async () => {
    const res = await list().expect(200);
    expect(idsOf(res)).toEqual([ids.e, ids.d, ids.c, ids.b, ids.a]);
    expect(res.body.nextCursor).toBeUndefined();
    expect(res.body.items[4]).toEqual({
      flowExecutionId: ids.a,
      flowId: flow.flowId,
      tenantId: tenant.tenantId,
      flowVersionId: flow.versionId,
      versionNumber: 2,
      deviceId: device1.deviceId,
      mode: 'live',
      replayId: null,
      rawIngestionMessageId: raw1.rawIngestionMessageId,
      rawReceivedAt: raw1.receivedAt.toISOString(),
      observedAt: raw1.observedAt.toISOString(),
      correlationId: 'ingest-req-1',
      status: 'succeeded',
      startedAt: minutesAgo(10).toISOString(),
      durationMs: 0.5,
      error: null,
    });
    expect(res.body.items[3].error).toEqual({ nodeId: 'decode', code: 'decode_error', message: 'The payload is too short.' });
  });

  it('filters by device, status, version, mode, replay and correlation id (each exact, combinable)', async () => {
    expect(idsOf(await list(`deviceId=${device2.deviceId}`).expect(200))).toEqual([ids.d, ids.b]);
    expect(idsOf(await list(`deviceId=${device1.deviceId.toUpperCase()}`).expect(200))).toEqual([ids.e, ids.c, ids.a]);
    expect(idsOf(await list('status=failed').expect(200))).toEqual([ids.b]);
    expect(idsOf(await list('status=filtered').expect(200))).toEqual([ids.c]);
    expect(idsOf(await list(`flowVersionId=${otherVersionId}`).expect(200))).toEqual([ids.d]);
    expect(idsOf(await list('mode=replay').expect(200))).toEqual([ids.d]);
    expect(idsOf(await list('mode=live').expect(200))).toEqual([ids.e, ids.c, ids.b, ids.a]);
    expect(idsOf(await list(`replayId=${replayId}`).expect(200))).toEqual([ids.d]);
    expect(idsOf(await list('correlationId=ingest-req-2').expect(200))).toEqual([ids.e]);
    expect(idsOf(await list(`deviceId=${device1.deviceId}&status=succeeded`).expect(200))).toEqual([ids.e, ids.a]);
    expect(idsOf(await list('correlationId=nobody').expect(200))).toEqual([]);
  });

  it('takes from/to as a half-open window on startedAt, at most 31 days', async () => {
    const window = (from: Date, to: Date) => `from=${encodeURIComponent(from.toISOString())}&to=${encodeURIComponent(to.toISOString())}`;
    expect(idsOf(await list(window(minutesAgo(60 * 48), minutesAgo(60))).expect(200))).toEqual([ids.old]);
    // `from` inclusive, `to` exclusive.
    expect(idsOf(await list(window(minutesAgo(8), minutesAgo(4))).expect(200))).toEqual([ids.c, ids.b]);
    // Any offset.
    const from = new Date(now - 9 * 60_000);
    const local = `${new Date(from.getTime() + 2 * 3600_000).toISOString().slice(0, 23)}+02:00`;
    expect(idsOf(await list(`from=${encodeURIComponent(local)}&to=${encodeURIComponent(minutesAgo(7).toISOString())}`).expect(200))).toEqual([ids.b]);
  });

  it('refuses bad filters with the path and rule of each', async () => {
    const from = encodeURIComponent(minutesAgo(60).toISOString());
    const cases: [string, { path: string; rule: string }[]][] = [
      [`from=${from}`, [{ path: 'query.to', rule: 'required' }]],
      [`to=${from}`, [{ path: 'query.from', rule: 'required' }]],
      [`from=${from}&to=${from}`, [{ path: 'query.to', rule: 'range' }]],
      [`from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:01Z`, [{ path: 'query.to', rule: 'max_span' }]],
      ['from=yesterday&to=2026-01-01T00:00:00Z', [{ path: 'query.from', rule: 'format' }]],
      ['deviceId=not-a-uuid', [{ path: 'query.deviceId', rule: 'format' }]],
      ['status=done', [{ path: 'query.status', rule: 'enum' }]],
      ['mode=preview', [{ path: 'query.mode', rule: 'enum' }]],
      ['flowVersionId=1', [{ path: 'query.flowVersionId', rule: 'format' }]],
      ['replayId=x', [{ path: 'query.replayId', rule: 'format' }]],
      ['correlationId=has%20space', [{ path: 'query.correlationId', rule: 'pattern' }]],
      ['limit=0', [{ path: 'query.limit', rule: 'minimum' }]],
      ['limit=101', [{ path: 'query.limit', rule: 'maximum' }]],
      ['cursor=abc', [{ path: 'query.cursor', rule: 'cursor_invalid' }]],
      ['color=red', [{ path: 'query.color', rule: 'unknown_property' }]],
    ];
    for (const [query, expected] of cases) {
      const res = await list(query);
      expect({ query, status: res.status }).toEqual({ query, status: 400 });
      expect(fieldsOf(res)).toEqual(expected);
    }
  });

  it('refuses ids naming nothing of this flow with reference_not_found', async () => {
    const otherType = await seedLiveFlow(t, admin, tenant);
    const foreignDevice = await seedDevice(t, tenant, otherType.type);
    const res = await list(`deviceId=${foreignDevice.deviceId}&flowVersionId=${otherType.versionId}&replayId=${randomUUID()}`).expect(400);
    expect(fieldsOf(res)).toEqual([
      { path: 'query.deviceId', rule: 'reference_not_found' },
      { path: 'query.flowVersionId', rule: 'reference_not_found' },
      { path: 'query.replayId', rule: 'reference_not_found' },
    ]);
  });

  it('pages with a cursor bound to the filters and the limit', async () => {
    const first = await list('limit=2').expect(200);
    expect(idsOf(first)).toEqual([ids.e, ids.d]);
    const second = await list(`limit=2&cursor=${first.body.nextCursor}`).expect(200);
    expect(idsOf(second)).toEqual([ids.c, ids.b]);
    const third = await list(`limit=2&cursor=${second.body.nextCursor}`).expect(200);
    expect(idsOf(third)).toEqual([ids.a]);
    expect(third.body.nextCursor).toBeUndefined();
    // A row started after page 1 never appears on a later page (the anchor is fixed).
    await seedExecution(t, { tenantId: tenant.tenantId, flowId: flow.flowId, flowVersionId: flow.versionId, versionNumber: 2, deviceId: device1.deviceId, startedAt: new Date() });
    expect(idsOf(await list(`limit=2&cursor=${first.body.nextCursor}`).expect(200))).toEqual([ids.c, ids.b]);

    expect(fieldsOf(await list(`limit=3&cursor=${first.body.nextCursor}`).expect(400))).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    expect(fieldsOf(await list(`limit=2&status=failed&cursor=${first.body.nextCursor}`).expect(400))).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    const other = await seedLiveFlow(t, admin, tenant);
    const foreign = await admin.get(`/v1/flows/${other.flowId}/executions?limit=2&cursor=${first.body.nextCursor}`).expect(400);
    expect(fieldsOf(foreign)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    const tampered = `${first.body.nextCursor.slice(0, -2)}${first.body.nextCursor.endsWith('A') ? 'BB' : 'AA'}`;
    expect(fieldsOf(await list(`limit=2&cursor=${tampered}`).expect(400))).toEqual([{ path: 'query.cursor', rule: 'cursor_invalid' }]);
  });
});

describe('detail', () => {
  it('rebuilds the input from the raw message and the stored parameters, with outputs and the expanded trace', async () => {
    const res = await admin.get(`/v1/flows/${flow.flowId}/executions/${ids.a}`).expect(200);
    expect(res.body).toMatchObject({ flowExecutionId: ids.a, status: 'succeeded', current: { level: 25.5 }, timeseries: { level: 25.5 }, actions: [] });
    expect(res.body.input).toEqual({
      mode: 'live',
      rawPayload: { encoding: 'hex', data: '00FF' },
      observedAt: raw1.observedAt.toISOString(),
      rawReceivedAt: raw1.receivedAt.toISOString(),
      tenantId: tenant.tenantId,
      deviceId: device1.deviceId,
      deviceTypeId: flow.type.deviceTypeId,
      correlationId: 'ingest-req-1',
      connectionData: { fPort: 2, rssi: -97 },
      parameters: { factor: 2 },
    });
    expect(res.body.trace).toEqual([
      {
        nodeId: 'decode',
        kind: 'block',
        block: { type: 'builtin', key: 'decode-binary', version: 1 },
        status: 'succeeded',
        port: null,
        startedAtOffsetMs: 0,
        durationMs: 0.1,
        output: null,
        outputTruncated: false,
        logs: [],
        error: null,
      },
    ]);
  });

  it('keeps the node outputs of a failed execution; kinds and blocks come from the version graph', async () => {
    const res = await admin.get(`/v1/flows/${flow.flowId}/executions/${ids.b}`).expect(200);
    expect(res.body.error).toEqual({ nodeId: 'decode', code: 'decode_error', message: 'The payload is too short.' });
    expect(res.body.trace.map((node: { nodeId: string; kind: string; status: string }) => [node.nodeId, node.kind, node.status])).toEqual([
      ['decode', 'block', 'failed'],
      ['scale', 'block', 'skipped'],
      ['current', 'current-output', 'skipped'],
      ['history', 'timeseries-output', 'skipped'],
    ]);
    expect(res.body.trace[0]).toMatchObject({ output: { payload: [1], values: {} }, error: { code: 'decode_error', message: 'short' } });
    expect(res.body.trace[1].block).toEqual({ type: 'builtin', key: 'scale', version: 1 });
    expect(res.body.trace[2].block).toBeNull();
  });

  it('answers null rawPayload and connectionData once the raw message is gone (retention)', async () => {
    const raw = await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: device2.deviceId, devEui: device2.devEui, observedAt: minutesAgo(3) });
    const id = await seedExecution(t, { tenantId: tenant.tenantId, flowId: flow.flowId, flowVersionId: flow.versionId, versionNumber: 2, deviceId: device2.deviceId, startedAt: minutesAgo(3), raw });
    await t.dataSource.query(`DELETE FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [raw.rawIngestionMessageId]);
    const res = await admin.get(`/v1/flows/${flow.flowId}/executions/${id}`).expect(200);
    expect(res.body.rawIngestionMessageId).toBe(raw.rawIngestionMessageId);
    expect(res.body.input).toMatchObject({ rawPayload: null, connectionData: null, observedAt: raw.observedAt.toISOString(), deviceId: device2.deviceId });
  });

  it('is 404 for an execution of another flow, a missing one, and a malformed id is 400', async () => {
    const other = await seedLiveFlow(t, admin, tenant);
    const missing = await admin.get(`/v1/flows/${flow.flowId}/executions/${randomUUID()}`).expect(404);
    expect(missing.body.error.details).toEqual({ resourceType: 'flow_execution' });
    const underOther = await admin.get(`/v1/flows/${other.flowId}/executions/${ids.a}`).expect(404);
    expect(underOther.body.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resourceType: 'flow_execution' } });
    expect(fieldsOf(await admin.get(`/v1/flows/${flow.flowId}/executions/nope`).expect(400))).toEqual([{ path: 'params.flowExecutionId', rule: 'format' }]);
    expect((await admin.get(`/v1/flows/${randomUUID()}/executions/${ids.a}`).expect(404)).body.error.details).toEqual({ resourceType: 'flow' });
  });

  it('reads an execution the live pipeline recorded, its input rebuilt from the stored uplink', async () => {
    const token = (await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'exec NS' }).expect(201)).body.token as string;
    const ack = await t
      .http()
      .post('/v1/ingestion/http')
      .set('Authorization', `Bearer ${token}`)
      .set('X-Correlation-Id', 'live-read-1')
      .send({ devEui: device1.devEui, payload: { encoding: 'hex', data: '0100' }, observedAt: '2026-03-14T09:00:00.123Z', connectionData: { fPort: 9 } })
      .expect(202);
    await waitProcessed(t, [ack.body.rawIngestionMessageId]);
    const listed = await list(`correlationId=live-read-1`).expect(200);
    expect(listed.body.items).toHaveLength(1);
    const res = await admin.get(`/v1/flows/${flow.flowId}/executions/${listed.body.items[0].flowExecutionId}`).expect(200);
    expect(res.body).toMatchObject({ mode: 'live', status: 'succeeded', current: { level: 25.6 }, rawIngestionMessageId: ack.body.rawIngestionMessageId });
    expect(res.body.input).toEqual({
      mode: 'live',
      rawPayload: { encoding: 'hex', data: '0100' },
      observedAt: '2026-03-14T09:00:00.123Z',
      rawReceivedAt: ack.body.receivedAt,
      tenantId: tenant.tenantId,
      deviceId: device1.deviceId,
      deviceTypeId: flow.type.deviceTypeId,
      correlationId: 'live-read-1',
      connectionData: { fPort: 9 },
      parameters: {},
    });
    expect(res.body.trace.map((node: { nodeId: string; kind: string }) => `${node.nodeId}:${node.kind}`)).toEqual(['decode:block', 'scale:block', 'current:current-output', 'history:timeseries-output']);
  });
});

describe('access', () => {
  it('lets every tenant role read (flows:read at tenant level)', async () => {
    for (const role of ['tenant_viewer', 'tenant_operator', 'tenant_admin'] as const) {
      const api = (await member(t, tenant, role)).api;
      expect(idsOf(await list('status=failed', api).expect(200))).toEqual([ids.b]);
      await api.get(`/v1/flows/${flow.flowId}/executions/${ids.a}`).expect(200);
    }
  });

  it('refuses a grant on a unit (403) and hides the flow from another tenant (404 like a missing flow)', async () => {
    const unit = await seedUnit(t, tenant);
    const scoped = (await member(t, tenant, 'tenant_admin', unit)).api;
    expect((await list('', scoped).expect(403)).body.error.details).toMatchObject({ reason: 'missing_permission', permission: 'flows:read' });
    await scoped.get(`/v1/flows/${flow.flowId}/executions/${ids.a}`).expect(403);

    const stranger = (await member(t, await seedTenant(t), 'tenant_admin')).api;
    const foreign = await list('', stranger).expect(404);
    const missing = await stranger.get(`/v1/flows/${randomUUID()}/executions`).expect(404);
    expect(foreign.body.error.details).toEqual(missing.body.error.details);
    await stranger.get(`/v1/flows/${flow.flowId}/executions/${ids.a}`).expect(404);
  });
});
