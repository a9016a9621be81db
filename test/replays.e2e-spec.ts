import { Logger } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import type { JobContext } from '../src/shared/jobs/job';
import { REPLAY_BATCH_SIZE, RunReplayHandler } from '../src/modules/processing/run-replay/run-replay.handler';
import { RecoverReplaysHandler } from '../src/modules/processing/run-replay/recover-replays.handler';
import { REPLAY_JOB } from '../src/modules/processing/run-replay/replay-job';
import { ReplayMessageReader } from '../src/modules/processing/run-replay/replay-messages';
import { auditRows } from './support/audit';
import { loginAdmin } from './support/auth';
import { seedDevice, seedDeviceType, SeededDevice, SeededDeviceType } from './support/devices';
import { seedRawMessage, SeededRawMessage, seedUplinkSeries } from './support/executions';
import { bend, pipelineGraph } from './support/flows';
import { member } from './support/member';
import { waitUntil } from './support/wait';
import { as, fieldsOf } from './support/http';
import { LiveFlow, releasedVersion, seedLiveFlow } from './support/processing';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;

/*
 * Replays: the API (create, list, read, cancel and every refusal), then the replay job run directly (values and
 * `replay` executions, the dry-run diff, batches, cancellation, resume), then in the background through the job
 * system across a restart of the service. The flows decode a big-endian uint16 into `level` and scale it: the
 * active version by 1, the candidate by 2.
 */

const scaled = (type: SeededDeviceType | { deviceTypeId: string }, multiply: number) =>
  bend(pipelineGraph(type, 'level'), (copy) => {
    (copy.nodes[1]!.configuration as Record<string, unknown>).multiply = multiply;
  });

interface ScaledFlow extends LiveFlow {
  /** Released, not active: scales by 2. */
  candidateId: string;
}

/** A flow whose active version scales by 1, with a released candidate scaling by 2. */
async function scaledFlow(t: TestApp, api: Api, tenant: SeededTenant): Promise<ScaledFlow> {
  const flow = await seedLiveFlow(t, api, tenant, (type) => scaled(type, 1));
  return { ...flow, candidateId: await releasedVersion(api, flow.flowId, scaled(flow.type, 2)) };
}

/** Routed uplinks of `device` with these values, one every `stepMs` from `start`. */
async function uplinks(t: TestApp, tenant: SeededTenant, device: SeededDevice, values: number[], start: string, stepMs = 1000): Promise<SeededRawMessage[]> {
  const rows: SeededRawMessage[] = [];
  for (const [index, value] of values.entries()) {
    rows.push(await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: device.deviceId, devEui: device.devEui, observedAt: new Date(Date.parse(start) + index * stepMs), value }));
  }
  return rows;
}

const context = (attempt = 1, maxAttempts = 10): JobContext => ({ jobId: '0', name: REPLAY_JOB, attempt, maxAttempts, signal: new AbortController().signal });

const count = async (t: TestApp, sql: string, params: unknown[] = []) => Number((await t.dataSource.query<{ n: string }[]>(sql, params))[0]!.n);

async function fieldNo(t: TestApp, type: SeededDeviceType): Promise<number> {
  const [row] = await t.dataSource.query<{ field_no: number }[]>(`SELECT field_no FROM device_field_definitions WHERE device_type_id = $1 AND key = 'level'`, [type.deviceTypeId]);
  return row!.field_no;
}

/** The stored `level` series of a device: observedAt ISO -> value. */
async function series(t: TestApp, device: SeededDevice, type: SeededDeviceType): Promise<Record<string, number>> {
  const rows = await t.dataSource.query<{ observed_at: Date; value_num: number }[]>(
    `SELECT observed_at, value_num FROM measurements WHERE device_id = $1 AND field_no = $2 ORDER BY observed_at`,
    [device.deviceId, await fieldNo(t, type)],
  );
  return Object.fromEntries(rows.map((row) => [row.observed_at.toISOString(), row.value_num]));
}

describe('replays', () => {
  let t: TestApp;
  let admin: Api;
  let adminUserId: string;
  let tenant: SeededTenant;


  const WINDOW = { from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z' };
  const create = (flowId: string, body: Record<string, unknown> = {}, api = admin) => api.post(`/v1/flows/${flowId}/replays`, { ...WINDOW, ...body });
  const replayRow = async (replayId: string) => (await t.dataSource.query(`SELECT * FROM flow_replays WHERE replay_id = $1`, [replayId]))[0];
  const run = (replayId: string, ctx = context()) => t.app.get(RunReplayHandler).handle({ replayId }, ctx);

  beforeAll(async () => {
    // Jobs do not run on their own here: each test runs the replay job when it wants to.
    t = await startTestApp({ env: { JOBS_ENABLED: 'false' } });
    const signedIn = await loginAdmin(t);
    admin = as(t, signedIn.accessToken);
    adminUserId = (await admin.get('/v1/auth/me').expect(200)).body.user.userId;
    tenant = await seedTenant(t);
  });
  afterAll(() => t.close());

  describe('API', () => {
    it('queues a replay (202, Location), with its job and its audit row', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const device = await seedDevice(t, tenant, flow.type);
      const res = await create(flow.flowId, { from: '2026-03-01T01:00:00+01:00', deviceIds: [device.deviceId.toUpperCase()] }).expect(202);
      expect(res.headers.location).toBe(`/v1/flows/${flow.flowId}/replays/${res.body.replayId}`);
      expect(res.body).toEqual({
        replayId: expect.any(String),
        flowId: flow.flowId,
        tenantId: tenant.tenantId,
        flowVersionId: flow.versionId,
        from: '2026-03-01T00:00:00.000Z',
        to: '2026-03-02T00:00:00.000Z',
        deviceIds: [device.deviceId],
        dryRun: false,
        status: 'queued',
        totalMessages: null,
        processedMessages: 0,
        succeeded: 0,
        failed: 0,
        filtered: 0,
        error: null,
        requestedBy: adminUserId,
        createdAt: expect.any(String),
        startedAt: null,
        finishedAt: null,
        diff: null,
      });
      const jobs = await t.dataSource.query(`SELECT name, payload, state FROM jobs WHERE dedup_key = $1`, [`replay:${res.body.replayId}`]);
      expect(jobs).toEqual([{ name: 'flows.replay.run', payload: { replayId: res.body.replayId }, state: 'pending' }]);
      const [audit] = await auditRows(t, 'flow_replay', res.body.replayId);
      expect(audit).toMatchObject({
        tenant_id: tenant.tenantId,
        event_type: 'flow_replay.created',
        action: 'create',
        actor_type: 'user',
        actor_id: adminUserId,
        outcome: 'success',
        status_code: 202,
        metadata: { flowId: flow.flowId, flowVersionId: flow.versionId, versionNumber: 2, comparedWith: null, deviceCount: 1, dryRun: false, status: 'queued' },
      });
      await admin.post(`/v1/flows/${flow.flowId}/replays/${res.body.replayId}/cancel`).expect(200);
    });

    it('compares a dry run of another version with the active one; a dry run of the active version has no diff', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const dry = await create(flow.flowId, { flowVersionId: flow.candidateId, dryRun: true }).expect(202);
      expect(dry.body).toMatchObject({ flowVersionId: flow.candidateId, dryRun: true });
      expect(dry.body.diff).toEqual({ comparedWith: flow.versionId, messagesCompared: 0, identical: 0, changed: 0, newlyFailing: 0, newlySucceeding: 0, fields: {}, examples: [] });
      await admin.post(`/v1/flows/${flow.flowId}/replays/${dry.body.replayId}/cancel`).expect(200);
      const same = await create(flow.flowId, { flowVersionId: flow.versionId, dryRun: true }).expect(202);
      expect(same.body.diff).toBeNull();
      await admin.post(`/v1/flows/${flow.flowId}/replays/${same.body.replayId}/cancel`).expect(200);
    });

    it('lists newest first with a cursor, reads one, and cancels a queued one once', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const replays: string[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await create(flow.flowId).expect(202);
        replays.push(res.body.replayId);
        const cancelled = await admin.post(`/v1/flows/${flow.flowId}/replays/${res.body.replayId}/cancel`).expect(200);
        expect(cancelled.body).toMatchObject({ status: 'cancelled', finishedAt: expect.any(String), startedAt: null });
      }
      const first = await admin.get(`/v1/flows/${flow.flowId}/replays?limit=2`).expect(200);
      expect(first.body.items.map((item: { replayId: string }) => item.replayId)).toEqual([replays[2], replays[1]]);
      const second = await admin.get(`/v1/flows/${flow.flowId}/replays?limit=2&cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.items.map((item: { replayId: string }) => item.replayId)).toEqual([replays[0]]);
      expect(second.body.nextCursor).toBeUndefined();
      expect(fieldsOf(await admin.get(`/v1/flows/${flow.flowId}/replays?limit=3&cursor=${first.body.nextCursor}`).expect(400))).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);

      const one = await admin.get(`/v1/flows/${flow.flowId}/replays/${replays[0]}`).expect(200);
      expect(one.body).toMatchObject({ replayId: replays[0], status: 'cancelled' });
      const again = await admin.post(`/v1/flows/${flow.flowId}/replays/${replays[0]}/cancel`).expect(409);
      expect(again.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'cancelled' });
      expect((await auditRows(t, 'flow_replay', replays[0]!)).map((row) => [row.event_type, row.action, row.metadata.status])).toEqual([
        ['flow_replay.created', 'create', 'queued'],
        ['flow_replay.cancelled', 'cancel', { before: 'queued', after: 'cancelled' }],
      ]);
    });

    it('keeps one unfinished replay per flow: 409 replay_in_progress, also for two parallel requests', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const first = await create(flow.flowId).expect(202);
      const second = await create(flow.flowId, { dryRun: true }).expect(409);
      expect(second.body.error.details).toEqual({ reason: 'replay_in_progress' });
      await admin.post(`/v1/flows/${flow.flowId}/replays/${first.body.replayId}/cancel`).expect(200);
      await create(flow.flowId).expect(202);

      const fresh = await scaledFlow(t, admin, tenant);
      const answers = await Promise.all([create(fresh.flowId), create(fresh.flowId, { dryRun: true })]);
      expect(answers.map((res) => res.status).sort()).toEqual([202, 409]);
      expect(answers.find((res) => res.status === 409)!.body.error.details).toEqual({ reason: 'replay_in_progress' });
      expect(await count(t, `SELECT count(*) AS n FROM flow_replays WHERE flow_id = $1`, [fresh.flowId])).toBe(1);
      expect(await count(t, `SELECT count(*) AS n FROM audit_log WHERE event_type = 'flow_replay.created' AND metadata->>'flowId' = $1`, [fresh.flowId])).toBe(1);
    });

    it('refuses bad bodies with the path and rule of each', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const many = Array.from({ length: 101 }, () => randomUUID());
      const id = randomUUID();
      const cases: [Record<string, unknown>, { path: string; rule: string }[]][] = [
        [{ from: undefined }, [{ path: 'body.from', rule: 'required' }]],
        [{ to: undefined }, [{ path: 'body.to', rule: 'required' }]],
        [{ from: 'yesterday' }, [{ path: 'body.from', rule: 'format' }]],
        [{ to: WINDOW.from }, [{ path: 'body.to', rule: 'range' }]],
        [{ to: '2026-02-28T00:00:00Z' }, [{ path: 'body.to', rule: 'range' }]],
        [{ to: '2026-04-01T00:00:01Z' }, [{ path: 'body.to', rule: 'max_span' }]],
        [{ flowVersionId: 'v3' }, [{ path: 'body.flowVersionId', rule: 'format' }]],
        [{ deviceIds: [] }, [{ path: 'body.deviceIds', rule: 'min_items' }]],
        [{ deviceIds: many }, [{ path: 'body.deviceIds', rule: 'max_items' }]],
        [{ deviceIds: [id, id.toUpperCase()] }, [{ path: 'body.deviceIds', rule: 'unique' }]],
        [{ deviceIds: ['not-a-uuid'] }, [{ path: 'body.deviceIds', rule: 'format' }]],
        [{ deviceIds: 'all' }, [{ path: 'body.deviceIds', rule: 'type' }]],
        [{ dryRun: 'yes' }, [{ path: 'body.dryRun', rule: 'type' }]],
        [{ speed: 2 }, [{ path: 'body.speed', rule: 'unknown_property' }]],
      ];
      for (const [body, expected] of cases) {
        const res = await create(flow.flowId, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(fieldsOf(res)).toEqual(expected);
      }
      expect(await count(t, `SELECT count(*) AS n FROM flow_replays WHERE flow_id = $1`, [flow.flowId])).toBe(0);
    });

    it('refuses references naming nothing of this flow: another flow’s version, devices of another type or tenant', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const other = await scaledFlow(t, admin, tenant);
      const own = await seedDevice(t, tenant, flow.type);
      const otherType = await seedDevice(t, tenant, other.type);
      const foreignTenant = await seedTenant(t);
      const foreign = await seedDevice(t, foreignTenant, await seedDeviceType(t, foreignTenant));
      const version = await create(flow.flowId, { flowVersionId: other.versionId }).expect(400);
      expect(fieldsOf(version)).toEqual([{ path: 'body.flowVersionId', rule: 'reference_not_found' }]);
      const devices = await create(flow.flowId, { deviceIds: [own.deviceId, otherType.deviceId, foreign.deviceId, randomUUID()] }).expect(400);
      expect(fieldsOf(devices)).toEqual([
        { path: 'body.deviceIds[1]', rule: 'reference_not_found' },
        { path: 'body.deviceIds[2]', rule: 'reference_not_found' },
        { path: 'body.deviceIds[3]', rule: 'reference_not_found' },
      ]);
    });

    it('refuses a version that is not released (409 version_not_released) and a flow without an active version (409 no_active_version)', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const draft = await admin.post(`/v1/flows/${flow.flowId}/versions`, { graph: scaled(flow.type, 3) }).expect(201);
      const res = await create(flow.flowId, { flowVersionId: draft.body.flowVersionId }).expect(409);
      expect(res.body.error.details).toEqual({ reason: 'version_not_released', currentStatus: 'draft' });
      await admin.post(`/v1/flows/${flow.flowId}/versions/${flow.candidateId}/deprecate`).expect(200);
      const deprecated = await create(flow.flowId, { flowVersionId: flow.candidateId }).expect(409);
      expect(deprecated.body.error.details).toEqual({ reason: 'version_not_released', currentStatus: 'deprecated' });
      // The active version runs live even when deprecated, so it can be replayed.
      await admin.post(`/v1/flows/${flow.flowId}/versions/${flow.versionId}/deprecate`).expect(200);
      const active = await create(flow.flowId).expect(202);
      expect(active.body.flowVersionId).toBe(flow.versionId);
      await admin.post(`/v1/flows/${flow.flowId}/replays/${active.body.replayId}/cancel`).expect(200);

      const type = await seedDeviceType(t, tenant);
      const bare = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: `bare-${randomUUID().slice(0, 8)}`, name: 'No active version' }).expect(201);
      const none = await create(bare.body.flowId).expect(409);
      expect(none.body.error.details).toEqual({ reason: 'no_active_version' });
    });

    it('lets viewers and operators read but only flows:release start or cancel; another tenant sees 404s', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const queued = await create(flow.flowId).expect(202);
      const path = `/v1/flows/${flow.flowId}/replays`;
      for (const role of ['tenant_viewer', 'tenant_operator'] as const) {
        const api = (await member(t, tenant, role)).api;
        await api.get(path).expect(200);
        await api.get(`${path}/${queued.body.replayId}`).expect(200);
        const refused = await create(flow.flowId, {}, api).expect(403);
        expect(refused.body.error.details).toEqual({ reason: 'missing_permission', permission: 'flows:release' });
        await api.post(`${path}/${queued.body.replayId}/cancel`).expect(403);
        // A missing replay is still a 404 for them (existence before permission).
        await api.post(`${path}/${randomUUID()}/cancel`).expect(404);
      }
      const tenantAdmin = (await member(t, tenant, 'tenant_admin')).api;
      await tenantAdmin.post(`${path}/${queued.body.replayId}/cancel`).expect(200);
      await create(flow.flowId, {}, tenantAdmin).expect(202);

      const stranger = (await member(t, await seedTenant(t), 'tenant_admin')).api;
      for (const res of [
        await stranger.get(path),
        await stranger.get(`${path}/${queued.body.replayId}`),
        await create(flow.flowId, {}, stranger),
        await stranger.post(`${path}/${queued.body.replayId}/cancel`),
      ]) {
        expect(res.status).toBe(404);
        expect(res.body.error.details).toEqual({ resourceType: 'flow' });
      }
      const other = await scaledFlow(t, admin, tenant);
      const underOther = await admin.get(`/v1/flows/${other.flowId}/replays/${queued.body.replayId}`).expect(404);
      expect(underOther.body.error.details).toEqual({ resourceType: 'flow_replay' });
      await admin.post(`/v1/flows/${other.flowId}/replays/${queued.body.replayId}/cancel`).expect(404);
    });
  });

  describe('the replay job', () => {
    it('runs the selected messages in (observedAt, rawReceivedAt) order, stores values and records replay executions, never e-mail', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const [d1, d2] = [await seedDevice(t, tenant, flow.type), await seedDevice(t, tenant, flow.type)];
      const a = await uplinks(t, tenant, d1!, [10, 20, 30], '2026-03-01T10:00:00Z', 2000);
      const b = await uplinks(t, tenant, d2!, [5, 6], '2026-03-01T10:00:01Z', 2000);
      // Same instant as a[0], received later: runs after it. A skipped message (no active version then) is replayed too.
      const tie = await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: d1!.deviceId, devEui: d1!.devEui, observedAt: a[0]!.observedAt, receivedAt: new Date(a[0]!.receivedAt.getTime() + 50), value: 11 });
      const skipped = await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: d2!.deviceId, devEui: d2!.devEui, observedAt: new Date('2026-03-01T11:00:00Z'), value: 7, processingStatus: 'skipped' });
      // An uplink without a time of its own: its receipt time is its observedAt.
      const untimed = await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: d1!.deviceId, devEui: d1!.devEui, observedAt: new Date('2026-03-01T10:00:03Z'), value: 25, carriesObservedAt: false });
      // Outside the window, another device type, another tenant: not selected.
      await uplinks(t, tenant, d1!, [99], '2026-03-02T00:00:00Z');
      await uplinks(t, tenant, d1!, [98], '2026-02-28T23:59:59.999Z');
      const otherFlow = await scaledFlow(t, admin, tenant);
      await uplinks(t, tenant, await seedDevice(t, tenant, otherFlow.type), [97], '2026-03-01T10:00:00Z');
      const stranger = await seedTenant(t);
      const foreignDevice = await seedDevice(t, stranger, await seedDeviceType(t, stranger));
      await seedRawMessage(t, { tenantId: stranger.tenantId, deviceId: foreignDevice.deviceId, devEui: foreignDevice.devEui, observedAt: new Date('2026-03-01T10:00:00Z'), value: 96 });
      // A value stored live for a[1] (same raw message, same receipt time): the replay recomputes and replaces it.
      await t.dataSource.query(`INSERT INTO measurements (device_id, field_no, observed_at, raw_received_at, value_num) VALUES ($1, $2, $3, $4, 1000)`, [
        d1!.deviceId,
        await fieldNo(t, flow.type),
        a[1]!.observedAt,
        a[1]!.receivedAt,
      ]);

      const res = await create(flow.flowId, { flowVersionId: flow.candidateId }).expect(202);
      const replayId = res.body.replayId as string;
      await run(replayId);

      const done = await admin.get(`/v1/flows/${flow.flowId}/replays/${replayId}`).expect(200);
      expect(done.body).toMatchObject({ status: 'succeeded', totalMessages: 8, processedMessages: 8, succeeded: 8, failed: 0, filtered: 0, error: null, diff: null });
      expect(Date.parse(done.body.startedAt)).toBeLessThanOrEqual(Date.parse(done.body.finishedAt));
      expect(await series(t, d1!, flow.type)).toEqual({
        [a[0]!.observedAt.toISOString()]: 22,
        [a[1]!.observedAt.toISOString()]: 40,
        [untimed.observedAt.toISOString()]: 50,
        [a[2]!.observedAt.toISOString()]: 60,
      });
      expect(await series(t, d2!, flow.type)).toEqual({ [b[0]!.observedAt.toISOString()]: 10, [b[1]!.observedAt.toISOString()]: 12, [skipped.observedAt.toISOString()]: 14 });
      const current = await t.dataSource.query(`SELECT value, observed_at FROM device_current_values WHERE device_id = $1`, [d2!.deviceId]);
      expect(current).toEqual([{ value: 14, observed_at: skipped.observedAt }]);

      const executions = await t.dataSource.query<{ raw_ingestion_message_id: string; mode: string; replay_id: string; flow_version_id: string; status: string }[]>(
        `SELECT raw_ingestion_message_id, mode, replay_id, flow_version_id, status FROM flow_executions WHERE flow_id = $1 ORDER BY started_at, observed_at, raw_received_at`,
        [flow.flowId],
      );
      expect(executions.map((row) => row.raw_ingestion_message_id)).toEqual(
        [a[0]!, tie, b[0]!, a[1]!, untimed, b[1]!, a[2]!, skipped].map((row) => row.rawIngestionMessageId),
      );
      expect(executions.every((row) => row.mode === 'replay' && row.replay_id === replayId && row.flow_version_id === flow.candidateId && row.status === 'succeeded')).toBe(true);
      const recent = await admin.get(`/v1/flows/${flow.flowId}/executions?replayId=${replayId}&mode=replay`).expect(200);
      expect(recent.body.items).toHaveLength(8);

      // Started by the system, in its own audit row; replays write no e-mail requests.
      expect((await auditRows(t, 'flow_replay', replayId)).map((row) => [row.event_type, row.actor_type])).toEqual([
        ['flow_replay.created', 'user'],
        ['flow_replay.started', 'system'],
      ]);
      expect(await count(t, `SELECT count(*) AS n FROM flow_action_requests`)).toBe(0);
      // Running the finished replay's job again changes nothing.
      await run(replayId);
      expect(await count(t, `SELECT count(*) AS n FROM flow_executions WHERE replay_id = $1`, [replayId])).toBe(8);
    });

    it('records e-mail requests of a replayed version in its executions only, never as requests to send', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const device = await seedDevice(t, tenant, flow.type);
      await uplinks(t, tenant, device, [1, 2], '2026-03-01T08:00:00Z');
      // A released version with an e-mail action (inserted directly: no e-mail template exists in this build).
      const graph = bend(scaled(flow.type, 1), (copy) => {
        copy.nodes.push({ kind: 'block', nodeId: 'mail', block: { type: 'builtin', key: 'email-action', version: 1 }, name: 'Mail', configuration: { emailTemplateId: randomUUID() }, position: { x: 0, y: 400 } });
        copy.edges.push({ fromNodeId: 'scale', toNodeId: 'mail' });
      });
      const [version] = await t.dataSource.query<{ flow_version_id: string }[]>(
        `INSERT INTO flow_versions (flow_id, tenant_id, version_number, status, graph, checksum, released_at)
         VALUES ($1, $2, 9, 'released', $3, repeat('a', 64), clock_timestamp()) RETURNING flow_version_id`,
        [flow.flowId, tenant.tenantId, JSON.stringify(graph)],
      );
      const res = await create(flow.flowId, { flowVersionId: version!.flow_version_id }).expect(202);
      await run(res.body.replayId);
      expect(await replayRow(res.body.replayId)).toMatchObject({ status: 'succeeded', succeeded: 2 });
      const actions = await t.dataSource.query<{ actions: unknown[] }[]>(`SELECT actions FROM flow_executions WHERE replay_id = $1`, [res.body.replayId]);
      expect(actions.map((row) => row.actions.length)).toEqual([1, 1]);
      expect(await count(t, `SELECT count(*) AS n FROM flow_action_requests`)).toBe(0);
    });

    it('dry-runs a candidate that changes one field’s scaling: every message changed, the diff exact, nothing stored', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const [d1, d2] = [await seedDevice(t, tenant, flow.type), await seedDevice(t, tenant, flow.type)];
      const values1 = Array.from({ length: 15 }, (_, i) => 100 + i);
      const values2 = Array.from({ length: 10 }, (_, i) => 500 + 10 * i);
      const m1 = await uplinks(t, tenant, d1!, values1, '2026-03-01T06:00:00Z', 60_000);
      await uplinks(t, tenant, d2!, values2, '2026-03-01T06:00:30Z', 60_000);
      const before = await count(t, `SELECT count(*) AS n FROM measurements`);
      const executionsBefore = await count(t, `SELECT count(*) AS n FROM flow_executions`);

      const res = await create(flow.flowId, { flowVersionId: flow.candidateId, dryRun: true }).expect(202);
      await run(res.body.replayId);
      const done = await admin.get(`/v1/flows/${flow.flowId}/replays/${res.body.replayId}`).expect(200);
      expect(done.body).toMatchObject({ status: 'succeeded', dryRun: true, totalMessages: 25, processedMessages: 25, succeeded: 25 });
      const { diff } = done.body;
      expect(diff).toMatchObject({ comparedWith: flow.versionId, messagesCompared: 25, identical: 0, changed: 25, newlyFailing: 0, newlySucceeding: 0 });
      // Candidate 2v vs active v: the change is v, largest for d2's last value.
      expect(diff.fields).toEqual({ level: { changed: 25, maxAbsDelta: 590 } });
      expect(diff.examples).toHaveLength(20);
      expect(diff.examples[0]).toEqual({
        rawIngestionMessageId: m1[0]!.rawIngestionMessageId,
        deviceId: d1!.deviceId,
        observedAt: '2026-03-01T06:00:00.000Z',
        active: { status: 'succeeded', current: { level: 100 }, timeseries: { level: 100 } },
        candidate: { status: 'succeeded', current: { level: 200 }, timeseries: { level: 200 } },
      });
      expect(diff.examples[1].deviceId).toBe(d2!.deviceId);
      expect(await count(t, `SELECT count(*) AS n FROM measurements`)).toBe(before);
      expect(await count(t, `SELECT count(*) AS n FROM flow_executions`)).toBe(executionsBefore);
      expect(await count(t, `SELECT count(*) AS n FROM device_current_values WHERE device_id = ANY($1::uuid[])`, [[d1!.deviceId, d2!.deviceId]])).toBe(0);
    });

    it('reports newly failing messages and identical ones in a dry-run diff', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const device = await seedDevice(t, tenant, flow.type);
      await uplinks(t, tenant, device, [1, 2], '2026-03-01T05:00:00Z');
      // Too short for a uint16: both versions fail (identical).
      await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: device.deviceId, devEui: device.devEui, observedAt: new Date('2026-03-01T05:00:10Z'), rawPayload: { encoding: 'hex', data: '01' } });
      // The candidate reads 4 bytes: the 2-byte messages fail under it only.
      const wide = await releasedVersion(
        admin,
        flow.flowId,
        bend(scaled(flow.type, 1), (copy) => {
          (copy.nodes[0]!.configuration as { reads: { type: string }[] }).reads[0]!.type = 'uint32be';
        }),
      );
      const res = await create(flow.flowId, { flowVersionId: wide, dryRun: true }).expect(202);
      await run(res.body.replayId);
      const row = await replayRow(res.body.replayId);
      expect(row).toMatchObject({ status: 'succeeded', processed_messages: 3, succeeded: 0, failed: 3 });
      expect(row.diff).toMatchObject({ messagesCompared: 3, identical: 1, changed: 0, newlyFailing: 2, newlySucceeding: 0, fields: { level: { changed: 2, maxAbsDelta: null } } });
      expect(row.diff.examples.map((example: { candidate: { status: string } }) => example.candidate.status)).toEqual(['failed', 'failed']);
    });

    it('commits batch by batch: counters, resume point and diff grow with each batch', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const device = await seedDevice(t, tenant, flow.type);
      const total = REPLAY_BATCH_SIZE * 2 + 17;
      await seedUplinkSeries(t, tenant.tenantId, device, total, '2026-03-01T12:00:00Z', 1);
      const res = await create(flow.flowId, { flowVersionId: flow.candidateId, dryRun: true }).expect(202);
      // Stop after the second batch: cancel as soon as its commit is visible.
      const handler = t.app.get(RunReplayHandler);
      const seen: number[] = [];
      const original = handler['runBatch'].bind(handler);
      const spy = jest.spyOn(handler as unknown as { runBatch: typeof original }, 'runBatch').mockImplementation(async (...args) => {
        const result = await original(...args);
        seen.push((await replayRow(res.body.replayId)).processed_messages);
        if (seen.length === 2) await admin.post(`/v1/flows/${flow.flowId}/replays/${res.body.replayId}/cancel`).expect(200);
        return result;
      });
      try {
        await run(res.body.replayId);
      } finally {
        spy.mockRestore();
      }
      expect(seen).toEqual([REPLAY_BATCH_SIZE, REPLAY_BATCH_SIZE * 2]);
      const row = await replayRow(res.body.replayId);
      expect(row).toMatchObject({ status: 'cancelled', total_messages: total, processed_messages: REPLAY_BATCH_SIZE * 2 });
      expect(row.diff).toMatchObject({ messagesCompared: REPLAY_BATCH_SIZE * 2, changed: REPLAY_BATCH_SIZE * 2 });
      expect(row.resume_after).toEqual({ observedAt: '2026-03-01T12:06:40.000Z', receivedAt: '2026-03-01T12:06:40.100Z', rawIngestionMessageId: expect.any(String) });
      // A cancelled replay's job does nothing more.
      await run(res.body.replayId);
      expect((await replayRow(res.body.replayId)).processed_messages).toBe(REPLAY_BATCH_SIZE * 2);
    });

    it('resumes a replay left running after its last committed batch, continuing its counters', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const device = await seedDevice(t, tenant, flow.type);
      const messages = await uplinks(t, tenant, device, [1, 2, 3, 4, 5], '2026-03-01T09:00:00Z');
      const res = await create(flow.flowId, { flowVersionId: flow.candidateId }).expect(202);
      // As a crashed run leaves it: running, two messages committed (their values stored by that run).
      const resume = { observedAt: messages[1]!.observedAt.toISOString(), receivedAt: messages[1]!.receivedAt.toISOString(), rawIngestionMessageId: messages[1]!.rawIngestionMessageId };
      await t.dataSource.query(
        `UPDATE flow_replays SET status = 'running', started_at = clock_timestamp(), total_messages = 5, processed_messages = 2, succeeded = 2, resume_after = $2 WHERE replay_id = $1`,
        [res.body.replayId, JSON.stringify(resume)],
      );
      await run(res.body.replayId, context(3));
      expect(await replayRow(res.body.replayId)).toMatchObject({ status: 'succeeded', processed_messages: 5, succeeded: 5, total_messages: 5 });
      const replayed = await t.dataSource.query<{ raw_ingestion_message_id: string }[]>(`SELECT raw_ingestion_message_id FROM flow_executions WHERE replay_id = $1 ORDER BY observed_at`, [res.body.replayId]);
      expect(replayed.map((row) => row.raw_ingestion_message_id)).toEqual(messages.slice(2).map((m) => m.rawIngestionMessageId));
      expect(Object.values(await series(t, device, flow.type))).toEqual([6, 8, 10]);
      // Only the first start is audited.
      expect((await auditRows(t, 'flow_replay', res.body.replayId, 'flow_replay.started')).length).toBe(0);
    });

    it('fails the replay after its last attempt, and fails one left without any job to resume it', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const res = await create(flow.flowId).expect(202);
      const handler = t.app.get(RunReplayHandler);
      const spy = jest.spyOn(handler as unknown as { run: () => Promise<void> }, 'run').mockRejectedValue(new Error('database went away'));
      try {
        await expect(handler.handle({ replayId: res.body.replayId }, context(1, 2))).rejects.toThrow('database went away');
        expect((await replayRow(res.body.replayId)).status).toBe('queued');
        await handler.handle({ replayId: res.body.replayId }, context(2, 2));
      } finally {
        spy.mockRestore();
      }
      const failed = await admin.get(`/v1/flows/${flow.flowId}/replays/${res.body.replayId}`).expect(200);
      expect(failed.body).toMatchObject({ status: 'failed', error: { code: 'replay_error' }, finishedAt: expect.any(String) });
      expect(JSON.stringify(failed.body.error)).not.toContain('database went away');

      // Left running, its job dead (the process died on its last attempt): recovery fails it; a live one is kept.
      const orphan = await create(flow.flowId).expect(202);
      await t.dataSource.query(`UPDATE flow_replays SET status = 'running', started_at = clock_timestamp() WHERE replay_id = $1`, [orphan.body.replayId]);
      await t.dataSource.query(`UPDATE jobs SET state = 'dead', attempts = max_attempts, finished_at = clock_timestamp() WHERE dedup_key = $1`, [`replay:${orphan.body.replayId}`]);
      const keeper = await scaledFlow(t, admin, tenant);
      const alive = await create(keeper.flowId).expect(202);
      const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
      try {
        await t.app.get(RecoverReplaysHandler).handle();
        // one line per replay it failed, naming it
        expect(warn.mock.calls.map(([message]) => String(message))).toEqual([`Replay ${orphan.body.replayId} had no job left to resume it; marked failed.`]);
        // nothing left to recover: no line at all
        warn.mockClear();
        await t.app.get(RecoverReplaysHandler).handle();
        expect(warn).not.toHaveBeenCalled();
      } finally {
        warn.mockRestore();
      }
      expect(await replayRow(orphan.body.replayId)).toMatchObject({ status: 'failed', error: { code: 'replay_interrupted' } });
      expect((await replayRow(alive.body.replayId)).status).toBe('queued');
      await admin.post(`/v1/flows/${keeper.flowId}/replays/${alive.body.replayId}/cancel`).expect(200);
    });

    it('reads a dense range in order through its adaptive observedAt windows', async () => {
      const flow = await scaledFlow(t, admin, tenant);
      const [d1, d2] = [await seedDevice(t, tenant, flow.type), await seedDevice(t, tenant, flow.type)];
      // A burst (many per second), a gap of days, then sparse messages.
      await uplinks(t, tenant, d1!, Array.from({ length: 30 }, (_, i) => i), '2026-03-03T00:00:00Z', 37);
      await uplinks(t, tenant, d2!, Array.from({ length: 30 }, (_, i) => i), '2026-03-03T00:00:00.010Z', 41);
      await uplinks(t, tenant, d1!, [1, 2, 3], '2026-03-20T00:00:00Z', 3 * 3600_000);
      const expected = await t.dataSource.query<{ id: string }[]>(
        `SELECT raw_ingestion_message_id AS id FROM raw_ingestion_messages WHERE device_id = ANY($1::uuid[]) ORDER BY observed_at, received_at, raw_ingestion_message_id`,
        [[d1!.deviceId, d2!.deviceId]],
      );
      const reader = new ReplayMessageReader({ tenantId: tenant.tenantId, deviceTypeId: flow.type.deviceTypeId, deviceIds: null, rangeFrom: new Date('2026-03-02T00:00:00Z'), rangeTo: new Date('2026-03-31T00:00:00Z') });
      const read: string[] = [];
      for (let after = null as Parameters<ReplayMessageReader['next']>[1]; ; ) {
        const batch = await reader.next(t.dataSource.manager, after, 7);
        if (batch.length === 0) break;
        expect(batch.length === 7 || read.length + batch.length === expected.length).toBe(true);
        read.push(...batch.map((message) => message.uplink.rawIngestionMessageId));
        after = batch[batch.length - 1]!.position;
      }
      expect(read).toEqual(expected.map((row) => row.id));
      const onlyD2 = new ReplayMessageReader({ tenantId: tenant.tenantId, deviceTypeId: flow.type.deviceTypeId, deviceIds: [d2!.deviceId], rangeFrom: new Date('2026-03-02T00:00:00Z'), rangeTo: new Date('2026-03-31T00:00:00Z') });
      expect(await onlyD2.count(t.dataSource.manager)).toBe(30);
    });
  });
});

describe('replays in the background', () => {
  const FAST = { JOBS_POLL_INTERVAL_MS: '100', JOBS_LEASE_MS: '1000', SHUTDOWN_TIMEOUT_MS: '0' };

  it('runs through the job system and survives a restart of the service mid-replay, each message replayed once', async () => {
    const first = await startTestApp({ env: FAST });
    let firstClosed = false;
    let second: TestApp | null = null;
    try {
      const admin = as(first, (await loginAdmin(first)).accessToken);
      const tenant = await seedTenant(first);
      const flow = await scaledFlow(first, admin, tenant);
      const device = await seedDevice(first, tenant, flow.type);
      const total = 40_000;
      await seedUplinkSeries(first, tenant.tenantId, device, total, '2026-03-01T00:00:00Z', 1);
      const res = await admin.post(`/v1/flows/${flow.flowId}/replays`, { from: '2026-03-01T00:00:00Z', to: '2026-03-02T00:00:00Z', flowVersionId: flow.candidateId }).expect(202);
      const replayId = res.body.replayId as string;
      const row = async (t: TestApp) => (await t.dataSource.query(`SELECT status, processed_messages, total_messages FROM flow_replays WHERE replay_id = $1`, [replayId]))[0];
      // Progress is visible while it runs.
      await waitUntil(async () => (await row(first)).processed_messages >= REPLAY_BATCH_SIZE, 20_000);
      expect((await row(first)).status).toBe('running');
      // Stopped without waiting for the running job (as a crash would): its lease expires and the next process resumes it.
      await first.app.close();
      firstClosed = true;

      second = await startTestApp({ env: FAST, databaseUrl: async () => first.database.url });
      const t2 = second;
      await waitUntil(async () => (await row(t2)).status === 'succeeded', 60_000);
      expect(await row(t2)).toMatchObject({ processed_messages: total, total_messages: total });
      const [executions] = await t2.dataSource.query<{ n: number; messages: number }[]>(
        `SELECT count(*)::int AS n, count(DISTINCT raw_ingestion_message_id)::int AS messages FROM flow_executions WHERE replay_id = $1`,
        [replayId],
      );
      expect(executions).toEqual({ n: total, messages: total });
      const [points] = await t2.dataSource.query<{ n: number; wrong: number }[]>(
        `SELECT count(*)::int AS n, count(*) FILTER (WHERE m.value_num <> 2 * ('x' || lpad(r.raw_payload->>'data', 8, '0'))::bit(32)::int)::int AS wrong
           FROM measurements m JOIN raw_ingestion_messages r ON r.device_id = m.device_id AND r.observed_at = m.observed_at
          WHERE m.device_id = $1`,
        [device.deviceId],
      );
      expect(points).toEqual({ n: total, wrong: 0 });
      const jobs = await t2.dataSource.query<{ state: string; attempts: number }[]>(`SELECT state, attempts FROM jobs WHERE dedup_key = $1`, [`replay:${replayId}`]);
      expect(jobs).toEqual([{ state: 'completed', attempts: 2 }]);
    } finally {
      await second?.close();
      if (firstClosed) await first.database.drop();
      else await first.close();
    }
    // two app starts, a replay and a lease expiry: on a slow or busy machine more than the default 30 s
  }, 120_000);
});
