import { randomUUID } from 'node:crypto';
import type { TenantRole } from '../src/shared/access/permissions';
import { SandboxUnavailableError } from '../src/modules/sandbox/domain/sandbox.errors';
import { ScriptSandbox } from '../src/modules/sandbox/script-sandbox';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedDeviceType, seedField, SeededDeviceType } from './support/devices';
import { bend, blockNode, pipelineGraph } from './support/flows';
import { as, fieldsOf } from './support/http';
import { seedGrant, seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;
let counter = 0;
const uniqueKey = () => `flow-run-${process.pid}-${++counter}`;

/*
 * Fixture runs and previews: a version of any status run on an input through the engine; nothing stored or sent.
 * The pipeline flow decodes a big-endian uint16 into `level` and scales it by 0.1: payload 00FF -> 25.5.
 */
describe('flows API: fixture runs and preview', () => {
  let t: TestApp;
  let admin: Api;
  let tenant: SeededTenant;

  async function member(role: TenantRole, target = tenant): Promise<Api> {
    const user = await seedUser(t);
    await seedGrant(t, user.userId, target, role, null);
    return as(t, (await login(t, user.username, user.password)).accessToken);
  }

  interface Setup {
    type: SeededDeviceType;
    flowId: string;
    versionId: string;
  }

  /** A flow on a new device type with a number field `level` and a string field `label`, and a draft of `graph`. */
  async function newFlow(graphOf: (type: SeededDeviceType) => unknown = (type) => pipelineGraph(type, 'level'), target = tenant, api = admin): Promise<Setup> {
    const type = await seedDeviceType(t, target);
    await seedField(t, target, type, { key: 'level' });
    await seedField(t, target, type, { key: 'label', kind: 'string' });
    const flow = await api.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'Flow' }).expect(201);
    const version = await api.post(`/v1/flows/${flow.body.flowId}/versions`, { graph: graphOf(type) }).expect(201);
    return { type, flowId: flow.body.flowId, versionId: version.body.flowVersionId };
  }

  const input = (type: SeededDeviceType, mode: 'fixture' | 'preview', overrides: Record<string, unknown> = {}, target = tenant) => ({
    mode,
    rawPayload: { encoding: 'hex', data: '00FF' },
    observedAt: '2026-03-14T09:15:00Z',
    rawReceivedAt: '2026-03-14T09:15:01.204Z',
    tenantId: target.tenantId,
    deviceId: randomUUID(),
    deviceTypeId: type.deviceTypeId,
    correlationId: 'run-1',
    connectionData: { fPort: 2 },
    parameters: {},
    ...overrides,
  });

  async function fixture(setup: Setup, body: Record<string, unknown>): Promise<string> {
    const res = await admin.post(`/v1/flows/${setup.flowId}/fixtures`, { input: input(setup.type, 'fixture'), ...body }).expect(201);
    return res.body.fixtureId;
  }

  const auditTotal = async () => Number((await t.dataSource.query(`SELECT count(*) AS n FROM audit_log`))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
  });
  afterAll(() => t.close());

  describe('fixture runs', () => {
    it('runs every fixture against a draft: passing and failing assertions, counts, no assertions = not failed; stores and audits nothing', async () => {
      const setup = await newFlow();
      const good = await fixture(setup, { name: 'Good', assertions: [{ path: 'status', expected: 'succeeded' }, { path: 'current.level', expected: 25.5 }, { path: 'timeseries.level', expected: 25.5 }, { path: 'error', expected: null }] });
      const wrong = await fixture(setup, { name: 'Wrong', assertions: [{ path: 'current.level', expected: 99 }, { path: 'actions[0].nodeId', expected: 'x' }] });
      const plain = await fixture(setup, {});
      const before = await auditTotal();

      const res = await admin.post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: setup.versionId }).expect(200);
      expect(res.body).toEqual({
        flowVersionId: setup.versionId,
        total: 3,
        passed: 2,
        failed: 1,
        results: [
          {
            fixtureId: good,
            name: 'Good',
            passed: true,
            status: 'succeeded',
            error: null,
            assertions: [
              { path: 'status', expected: 'succeeded', actual: 'succeeded', passed: true },
              { path: 'current.level', expected: 25.5, actual: 25.5, passed: true },
              { path: 'timeseries.level', expected: 25.5, actual: 25.5, passed: true },
              { path: 'error', expected: null, actual: null, passed: true },
            ],
          },
          {
            fixtureId: wrong,
            name: 'Wrong',
            passed: false,
            status: 'succeeded',
            error: null,
            assertions: [
              { path: 'current.level', expected: 99, actual: 25.5, passed: false },
              { path: 'actions[0].nodeId', expected: 'x', actual: null, passed: false },
            ],
          },
          { fixtureId: plain, name: null, passed: true, status: 'succeeded', error: null, assertions: [] },
        ],
      });
      expect(await auditTotal()).toBe(before);
      expect(Number((await t.dataSource.query(`SELECT count(*) AS n FROM device_current_values`))[0].n)).toBe(0);
    });

    it('fixtureIds runs only the named fixtures in the order given; input.parameters overlay the defaults, stored overrides are ignored', async () => {
      const setup = await newFlow((type) =>
        bend(pipelineGraph(type, 'level'), (g) => {
          (g.nodes[1] as { configuration: Record<string, unknown> }).configuration = { fieldKey: 'level', multiply: { $param: 'factor' }, add: 0 };
        }),
      );
      // A draft with parameters: a new draft carrying the declaration.
      const graph = (await admin.get(`/v1/flows/${setup.flowId}/versions/${setup.versionId}`).expect(200)).body.graph;
      const declared = await admin
        .post(`/v1/flows/${setup.flowId}/versions`, { graph, parameters: [{ key: 'factor', type: 'number', defaultValue: 2 }] })
        .expect(201);
      await admin.put(`/v1/flows/${setup.flowId}/parameter-overrides/device-type/factor`).send({ value: 1000 }).expect(200);
      const byDefault = await fixture(setup, { assertions: [{ path: 'current.level', expected: 510 }] });
      const overlaid = await fixture(setup, { input: input(setup.type, 'fixture', { parameters: { factor: 0.5 } }), assertions: [{ path: 'current.level', expected: 127.5 }] });
      await fixture(setup, { name: 'not run' });

      const res = await admin
        .post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: declared.body.flowVersionId, fixtureIds: [overlaid, byDefault.toUpperCase()] })
        .expect(200);
      expect(res.body).toMatchObject({ total: 2, passed: 2, failed: 0 });
      expect(res.body.results.map((r: { fixtureId: string }) => r.fixtureId)).toEqual([overlaid, byDefault]);
    });

    it('a failing node: type_mismatch on the current output, later nodes skipped, nothing written; the fixture fails', async () => {
      const setup = await newFlow((type) =>
        pipelineGraph(type, 'label', { currentFields: [{ fieldKey: 'label', schemaRef: 'platform://schemas/string/v1' }], timeseriesFields: [{ fieldKey: 'label', schemaRef: 'platform://schemas/string/v1' }] }),
      );
      await fixture(setup, { assertions: [{ path: 'error.code', expected: 'type_mismatch' }] });
      await fixture(setup, {});
      const run = await admin.post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: setup.versionId }).expect(200);
      expect(run.body).toMatchObject({ total: 2, passed: 1, failed: 1 });
      expect(run.body.results[0]).toMatchObject({ passed: true, status: 'failed', error: { nodeId: 'current', code: 'type_mismatch' } });
      expect(run.body.results[1]).toMatchObject({ passed: false, status: 'failed' });

      const preview = await admin.post(`/v1/flows/${setup.flowId}/preview`, { flowVersionId: setup.versionId, input: input(setup.type, 'preview') }).expect(200);
      expect(preview.body).toMatchObject({ status: 'failed', current: {}, timeseries: {}, error: { nodeId: 'current', code: 'type_mismatch' } });
      expect(preview.body.trace.map((n: { nodeId: string; status: string }) => [n.nodeId, n.status])).toEqual([
        ['decode', 'succeeded'],
        ['scale', 'succeeded'],
        ['current', 'failed'],
        ['history', 'skipped'],
      ]);
    });

    it('422 FLOW_FAILURE with details.issues for a draft with an error issue; the same graph released earlier still runs', async () => {
      const setup = await newFlow();
      await fixture(setup, { assertions: [{ path: 'current.level', expected: 25.5 }] });
      await admin.post(`/v1/flows/${setup.flowId}/versions/${setup.versionId}/release`).expect(200);
      const broken = await admin
        .post(`/v1/flows/${setup.flowId}/versions`, { graph: pipelineGraph(setup.type, 'missing-field') })
        .expect(201);

      const refused = await admin.post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: broken.body.flowVersionId }).expect(422);
      expect(refused.body.error.code).toBe('FLOW_FAILURE');
      expect(refused.body.error.details.issues).toContainEqual(expect.objectContaining({ severity: 'error', code: 'unknown_field' }));
      const previewRefused = await admin
        .post(`/v1/flows/${setup.flowId}/preview`, { flowVersionId: broken.body.flowVersionId, input: input(setup.type, 'preview') })
        .expect(422);
      expect(previewRefused.body.error.details.issues.length).toBeGreaterThan(0);

      const released = await admin.post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: setup.versionId }).expect(200);
      expect(released.body).toMatchObject({ total: 1, passed: 1 });
    });

    it('no fixtures: an empty run', async () => {
      const setup = await newFlow();
      const res = await admin.post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: setup.versionId }).expect(200);
      expect(res.body).toEqual({ flowVersionId: setup.versionId, total: 0, passed: 0, failed: 0, results: [] });
    });

    it('400: body rules, another flow\'s version or fixture (reference_not_found); 404 for a missing or foreign flow; 403 for a viewer', async () => {
      const setup = await newFlow();
      const other = await newFlow();
      const otherFixture = await fixture(other, {});
      const path = `/v1/flows/${setup.flowId}/fixture-runs`;
      const cases: [object, { path: string; rule: string }][] = [
        [{}, { path: 'body.flowVersionId', rule: 'required' }],
        [{ flowVersionId: 'nope' }, { path: 'body.flowVersionId', rule: 'format' }],
        [{ flowVersionId: setup.versionId, fixtureIds: [] }, { path: 'body.fixtureIds', rule: 'min_items' }],
        [{ flowVersionId: setup.versionId, fixtureIds: [otherFixture, otherFixture] }, { path: 'body.fixtureIds', rule: 'unique' }],
        [{ flowVersionId: setup.versionId, fixtureIds: Array.from({ length: 101 }, () => randomUUID()) }, { path: 'body.fixtureIds', rule: 'max_items' }],
        [{ flowVersionId: other.versionId }, { path: 'body.flowVersionId', rule: 'reference_not_found' }],
        [{ flowVersionId: setup.versionId, fixtureIds: [otherFixture] }, { path: 'body.fixtureIds[0]', rule: 'reference_not_found' }],
      ];
      for (const [body, expected] of cases) {
        const res = await admin.post(path, body).expect(400);
        expect(fieldsOf(res)).toContainEqual(expected);
      }
      await admin.post(`/v1/flows/${randomUUID()}/fixture-runs`, { flowVersionId: setup.versionId }).expect(404);
      const foreign = await newFlow(undefined, await seedTenant(t));
      const foreignRes = await admin.post(`/v1/flows/${foreign.flowId}/fixture-runs`, { flowVersionId: foreign.versionId });
      expect(foreignRes.status).toBe(200); // the platform admin sees every tenant
      const outsider = await member('tenant_admin');
      const hidden = await outsider.post(`/v1/flows/${foreign.flowId}/fixture-runs`, { flowVersionId: foreign.versionId }).expect(404);
      const missing = await outsider.post(`/v1/flows/${randomUUID()}/fixture-runs`, { flowVersionId: foreign.versionId }).expect(404);
      expect(hidden.body.error.details).toEqual(missing.body.error.details);
      const viewer = await member('tenant_viewer');
      const denied = await viewer.post(path, { flowVersionId: setup.versionId }).expect(403);
      expect(denied.body.error.details.reason).toBe('missing_permission');
    });
  });

  describe('preview', () => {
    it('200 ExecutionResult with its trace; nothing stored, nothing audited', async () => {
      const setup = await newFlow();
      const before = await auditTotal();
      const res = await admin.post(`/v1/flows/${setup.flowId}/preview`, { flowVersionId: setup.versionId, input: input(setup.type, 'preview') }).expect(200);
      expect(res.body).toMatchObject({ status: 'succeeded', flowVersionId: setup.versionId, current: { level: 25.5 }, timeseries: { level: 25.5 }, actions: [], error: null });
      expect(typeof res.body.durationMs).toBe('number');
      expect(res.body.trace).toHaveLength(4);
      expect(res.body.trace[0]).toMatchObject({ nodeId: 'decode', kind: 'block', block: { type: 'builtin', key: 'decode-binary', version: 1 }, status: 'succeeded', port: 'out', outputTruncated: false, logs: [], error: null });
      expect(res.body.trace[0].output).toMatchObject({ payload: [0, 255], values: { level: 255 } });
      expect(res.body.trace[2]).toMatchObject({ nodeId: 'current', status: 'succeeded', output: { level: 25.5 } });
      expect(await auditTotal()).toBe(before);
      expect(Number((await t.dataSource.query(`SELECT count(*) AS n FROM device_current_values`))[0].n)).toBe(0);
    });

    it('filtered: a filter rejecting the message leaves the outputs unreached', async () => {
      const setup = await newFlow((type) =>
        bend(pipelineGraph(type, 'level'), (g) => {
          g.nodes.splice(2, 0, blockNode('gate', 'filter', { path: 'values.level', operator: 'gt', value: 100 }));
          g.edges.splice(1, 2, { fromNodeId: 'scale', toNodeId: 'gate' }, { fromNodeId: 'gate', fromPort: 'pass', toNodeId: 'current' }, { fromNodeId: 'gate', fromPort: 'pass', toNodeId: 'history' });
        }),
      );
      const res = await admin.post(`/v1/flows/${setup.flowId}/preview`, { flowVersionId: setup.versionId, input: input(setup.type, 'preview') }).expect(200);
      expect(res.body).toMatchObject({ status: 'filtered', current: {}, timeseries: {}, error: null });
      expect(res.body.trace.find((n: { nodeId: string }) => n.nodeId === 'gate')).toMatchObject({ status: 'succeeded', port: 'reject' });
      const passing = await admin
        .post(`/v1/flows/${setup.flowId}/preview`, { flowVersionId: setup.versionId, input: input(setup.type, 'preview', { rawPayload: { encoding: 'hex', data: '0FFF' } }) })
        .expect(200);
      expect(passing.body).toMatchObject({ status: 'succeeded', current: { level: 409.5 } });
    });

    it('is deterministic: the same preview twice is identical apart from durations and offsets', async () => {
      const setup = await newFlow();
      const body = { flowVersionId: setup.versionId, input: input(setup.type, 'preview') };
      const strip = (result: Record<string, unknown>) => ({
        ...result,
        durationMs: 0,
        trace: (result.trace as Record<string, unknown>[]).map((node) => ({ ...node, durationMs: 0, startedAtOffsetMs: 0 })),
      });
      const first = await admin.post(`/v1/flows/${setup.flowId}/preview`, body).expect(200);
      const second = await admin.post(`/v1/flows/${setup.flowId}/preview`, body).expect(200);
      expect(strip(second.body)).toEqual(strip(first.body));
    });

    it('compiles again after a field change: a field deprecated after the release is skipped with a warning', async () => {
      const setup = await newFlow();
      await admin.post(`/v1/flows/${setup.flowId}/versions/${setup.versionId}/release`).expect(200);
      const body = { flowVersionId: setup.versionId, input: input(setup.type, 'preview') };
      expect((await admin.post(`/v1/flows/${setup.flowId}/preview`, body).expect(200)).body.current).toEqual({ level: 25.5 });
      await t.dataSource.query(
        `UPDATE device_field_definitions SET status = 'deprecated', deprecated_at = clock_timestamp(), updated_at = clock_timestamp() WHERE device_type_id = $1 AND key = 'level'`,
        [setup.type.deviceTypeId],
      );
      const after = await admin.post(`/v1/flows/${setup.flowId}/preview`, body).expect(200);
      expect(after.body.current).toEqual({});
      expect(after.body.trace[2].logs.some((line: string) => line.startsWith('warning: '))).toBe(true);
    });

    it('runs a released custom block (a global one) through the sandbox; a sandbox outage is 503 sandbox', async () => {
      const sandbox = t.app.get(ScriptSandbox, { strict: false });
      const block = await admin.post('/v1/flow-blocks', { key: uniqueKey(), name: 'Multiply' }).expect(201);
      const version = await admin
        .post(`/v1/flow-blocks/${block.body.flowBlockId}/versions`, {
          sourceCode: 'function transform(msg, ctx) { return { values: { level: msg.values.level * ctx.configuration.factor } }; }',
          configurationSchema: { type: 'object', properties: { factor: { type: 'number' } }, required: ['factor'] },
          sampleInput: { payload: [0, 1], values: { level: 2 }, configuration: { factor: 3 } },
        })
        .expect(201);
      const blockVersionId: string = version.body.flowBlockVersionId;
      await admin.post(`/v1/flow-blocks/${block.body.flowBlockId}/versions/${blockVersionId}/release`).expect(200);
      const setup = await newFlow((type) =>
        bend(pipelineGraph(type, 'level'), (g) => {
          g.nodes[1] = blockNode('scale', 'custom', { factor: 4 }, { type: 'custom', flowBlockVersionId: blockVersionId });
        }),
      );
      const body = { flowVersionId: setup.versionId, input: input(setup.type, 'preview') };
      const ok = await admin.post(`/v1/flows/${setup.flowId}/preview`, body).expect(200);
      expect(ok.body).toMatchObject({ status: 'succeeded', current: { level: 1020 } });
      expect(ok.body.trace[1]).toMatchObject({ nodeId: 'scale', block: { type: 'custom', flowBlockVersionId: blockVersionId }, status: 'succeeded' });

      const outage = jest.spyOn(sandbox, 'invoke').mockRejectedValue(new SandboxUnavailableError());
      try {
        const down = await admin.post(`/v1/flows/${setup.flowId}/preview`, body).expect(503);
        expect(down.body.error).toMatchObject({ code: 'DEPENDENCY_FAILURE', details: { dependency: 'sandbox' } });
        await fixture(setup, {});
        const runDown = await admin.post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: setup.versionId }).expect(503);
        expect(runDown.body.error.details.dependency).toBe('sandbox');
      } finally {
        outage.mockRestore();
      }
    });

    it('a script value that is not a finite number is not stored, and the trace warns on that node with the field and the value', async () => {
      const block = await admin.post('/v1/flow-blocks', { key: uniqueKey(), name: 'Broken scale' }).expect(201);
      const version = await admin
        .post(`/v1/flow-blocks/${block.body.flowBlockId}/versions`, {
          sourceCode: 'function transform(msg, ctx) { return { values: { level: msg.values.level > 10 ? Infinity : NaN, label: "ok" } }; }',
          sampleInput: { payload: [0, 1], values: { level: 2 } },
        })
        .expect(201);
      await admin.post(`/v1/flow-blocks/${block.body.flowBlockId}/versions/${version.body.flowBlockVersionId}/release`).expect(200);
      const setup = await newFlow((type) =>
        bend(pipelineGraph(type, 'level'), (g) => {
          g.nodes[1] = blockNode('scale', 'custom', {}, { type: 'custom', flowBlockVersionId: version.body.flowBlockVersionId });
        }),
      );
      const res = await admin.post(`/v1/flows/${setup.flowId}/preview`, { flowVersionId: setup.versionId, input: input(setup.type, 'preview') }).expect(200);
      expect(res.body).toMatchObject({ status: 'succeeded', current: {}, timeseries: {} });
      const scale = res.body.trace.find((node: { nodeId: string }) => node.nodeId === 'scale');
      expect(scale).toMatchObject({ status: 'succeeded', output: { values: { level: null, label: 'ok' } } });
      expect(scale.logs).toEqual(['warning: values.level is Infinity, not a finite number; it is not stored']);
      for (const node of res.body.trace.filter((entry: { nodeId: string }) => entry.nodeId !== 'scale')) expect(node.logs).toEqual([]);
    });

    it('400: input rules (mode must be preview, missing fields, other tenant or device type), unknown version; 404 foreign flow; 403 viewer', async () => {
      const setup = await newFlow();
      const other = await newFlow();
      const path = `/v1/flows/${setup.flowId}/preview`;
      const cases: [object, { path: string; rule: string }][] = [
        [{ flowVersionId: setup.versionId }, { path: 'body.input', rule: 'required' }],
        [{ input: input(setup.type, 'preview') }, { path: 'body.flowVersionId', rule: 'required' }],
        [{ flowVersionId: setup.versionId, input: input(setup.type, 'fixture') }, { path: 'body.input.mode', rule: 'enum' }],
        [{ flowVersionId: setup.versionId, input: { ...input(setup.type, 'preview'), observedAt: undefined } }, { path: 'body.input.observedAt', rule: 'required' }],
        [{ flowVersionId: setup.versionId, input: input(setup.type, 'preview', { rawPayload: { encoding: 'hex', data: '0' } }) }, { path: 'body.input.rawPayload.data', rule: 'format' }],
        [{ flowVersionId: setup.versionId, input: input(setup.type, 'preview', { tenantId: randomUUID() }) }, { path: 'body.input.tenantId', rule: 'mismatch' }],
        [{ flowVersionId: setup.versionId, input: input(other.type, 'preview') }, { path: 'body.input.deviceTypeId', rule: 'mismatch' }],
        [{ flowVersionId: other.versionId, input: input(setup.type, 'preview') }, { path: 'body.flowVersionId', rule: 'reference_not_found' }],
        [{ flowVersionId: randomUUID(), input: input(setup.type, 'preview') }, { path: 'body.flowVersionId', rule: 'reference_not_found' }],
      ];
      for (const [body, expected] of cases) {
        const res = await admin.post(path, body).expect(400);
        expect(fieldsOf(res)).toContainEqual(expected);
      }
      const foreignTenant = await seedTenant(t);
      const foreign = await newFlow(undefined, foreignTenant);
      const outsider = await member('tenant_admin');
      const foreignBody = { flowVersionId: foreign.versionId, input: input(foreign.type, 'preview', {}, foreignTenant) };
      const hidden = await outsider.post(`/v1/flows/${foreign.flowId}/preview`, foreignBody).expect(404);
      const missing = await outsider.post(`/v1/flows/${randomUUID()}/preview`, foreignBody).expect(404);
      expect(hidden.body.error.details).toEqual(missing.body.error.details);
      const viewer = await member('tenant_viewer');
      await viewer.post(path, { flowVersionId: setup.versionId, input: input(setup.type, 'preview') }).expect(403);
      await (await member('tenant_admin')).post(path, { flowVersionId: setup.versionId, input: input(setup.type, 'preview') }).expect(200);
    });
  });
});
