import canonicalize from 'canonicalize';
import { createHash, randomUUID } from 'node:crypto';
import type { TenantRole } from '../src/shared/access/permissions';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedDeviceType, seedField, SeededDeviceType } from './support/devices';
import { bend, blockNode, NUMBER_REF, pipelineGraph } from './support/flows';
import { as, fieldsOf } from './support/http';
import { seedGrant, seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;

let counter = 0;
const uniqueKey = (prefix = 'flow') => `${prefix}-${process.pid}-${++counter}`;

describe('flows API: flows, versions, validation, release, activation', () => {
  let t: TestApp;
  let admin: Api;
  let tenant: SeededTenant;

  async function member(target: SeededTenant, role: TenantRole, onUnit = false): Promise<Api> {
    const user = await seedUser(t);
    await seedGrant(t, user.userId, target, role, onUnit ? await seedUnit(t, target) : null);
    return as(t, (await login(t, user.username, user.password)).accessToken);
  }

  /** A device type with one number field `level` on both targets, and its flow. */
  async function flowFixture(target = tenant) {
    const type = await seedDeviceType(t, target);
    await seedField(t, target, type, { key: 'level' });
    const res = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'Level flow' }).expect(201);
    return { type, flow: res.body as Record<string, unknown> & { flowId: string } };
  }

  const versionsPath = (flowId: string) => `/v1/flows/${flowId}/versions`;
  const saveDraft = (flowId: string, graph: unknown, parameters?: unknown) => admin.post(versionsPath(flowId), parameters === undefined ? { graph } : { graph, parameters });

  async function releasedVersion(flowId: string, type: SeededDeviceType): Promise<string> {
    const draft = await saveDraft(flowId, pipelineGraph(type, 'level')).expect(201);
    await admin.post(`${versionsPath(flowId)}/${draft.body.flowVersionId}/release`).expect(200);
    return draft.body.flowVersionId;
  }

  async function auditRows(entityId: string, eventType: string) {
    return t.dataSource.query<{ outcome: string; metadata: Record<string, unknown>; status_code: number }[]>(
      `SELECT outcome, metadata, status_code FROM audit_log WHERE entity_id = $1 AND event_type = $2 ORDER BY occurred_at`,
      [entityId, eventType],
    );
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
  });
  afterAll(() => t.close());

  describe('POST/GET /v1/device-types/{deviceTypeId}/flow', () => {
    it('creates the flow and its first draft with the two outputs atomically; 201, ETag "1", Location; audit', async () => {
      const type = await seedDeviceType(t, tenant);
      const key = uniqueKey();
      const res = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key, name: 'Meter flow' }).expect(201);
      expect(res.headers.etag).toBe('"1"');
      expect(res.headers.location).toBe(`/v1/flows/${res.body.flowId}`);
      expect(res.body).toEqual({
        flowId: expect.any(String),
        tenantId: tenant.tenantId,
        deviceTypeId: type.deviceTypeId,
        deviceTypeName: `Type ${type.key}`,
        key,
        name: 'Meter flow',
        description: '',
        activeVersionId: null,
        activeVersionNumber: null,
        templateUpdate: null,
        createdAt: expect.stringMatching(/\.\d{3}Z$/),
        updatedAt: expect.any(String),
      });
      const versions = await admin.get(versionsPath(res.body.flowId)).expect(200);
      expect(versions.body.items).toHaveLength(1);
      const [draft] = versions.body.items;
      expect(draft).toMatchObject({ versionNumber: 1, status: 'draft', parameters: [], checksum: null, releasedAt: null, tenantId: tenant.tenantId });
      expect(draft.graph.schemaVersion).toBe('flow-graph.v2');
      expect(draft.graph.deviceTypeId).toBe(type.deviceTypeId);
      expect(draft.graph.nodes.map((node: { kind: string }) => node.kind).sort()).toEqual(['current-output', 'timeseries-output']);
      expect(draft.graph.edges).toEqual([]);
      expect(await auditRows(res.body.flowId, 'flow.created')).toEqual([expect.objectContaining({ outcome: 'success', status_code: 201 })]);
      expect(await auditRows(draft.flowVersionId, 'flow_version.created')).toHaveLength(1);

      const got = await admin.get(`/v1/device-types/${type.deviceTypeId}/flow`).expect(200);
      expect(got.body).toEqual(res.body);
      expect(got.headers.etag).toBe('"1"');
    });

    it('409 flow_exists for a second flow of the type, 409 duplicate_key for a key in use; nothing written', async () => {
      const { type, flow } = await flowFixture();
      const again = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'Again' }).expect(409);
      expect(again.body.error.details.reason).toBe('flow_exists');
      const other = await seedDeviceType(t, tenant);
      const dup = await admin.post(`/v1/device-types/${other.deviceTypeId}/flow`, { key: flow.key, name: 'Dup' }).expect(409);
      expect(dup.body.error.details.reason).toBe('duplicate_key');
      await admin.get(`/v1/device-types/${other.deviceTypeId}/flow`).expect(404);
    });

    it('parallel creates for one type: one 201, the other 409 flow_exists', async () => {
      const type = await seedDeviceType(t, tenant);
      const results = await Promise.all([0, 1].map(() => admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'Race' })));
      expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
      expect(results.find((res) => res.status === 409)!.body.error.details.reason).toBe('flow_exists');
    });

    it('400 body rules; 404 for a missing type and for a type without a flow; 403 for a viewer', async () => {
      const type = await seedDeviceType(t, tenant);
      const bad = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: 'Bad Key', name: ' ', extra: 1 }).expect(400);
      expect(fieldsOf(bad).map((field) => field.path).sort()).toEqual(['body.extra', 'body.key', 'body.name']);
      await admin.post(`/v1/device-types/not-a-uuid/flow`, { key: uniqueKey(), name: 'x' }).expect(400);
      const missing = await admin.post(`/v1/device-types/${randomUUID()}/flow`, { key: uniqueKey(), name: 'x' }).expect(404);
      expect(missing.body.error.details.resourceType).toBe('device_type');
      const none = await admin.get(`/v1/device-types/${type.deviceTypeId}/flow`).expect(404);
      expect(none.body.error.details.resourceType).toBe('flow');
      const viewer = await member(tenant, 'tenant_viewer');
      const denied = await viewer.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'x' }).expect(403);
      expect(denied.body.error.details).toMatchObject({ reason: 'missing_permission', permission: 'flows:write' });
      const unitOperator = await member(tenant, 'tenant_operator', true);
      await unitOperator.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'x' }).expect(403);
    });
  });

  describe('GET /v1/tenants/{tenantNumber}/flows', () => {
    it('lists ascending with totalCount, filters by deviceTypeId and q, pages with a bound cursor', async () => {
      const own = await seedTenant(t);
      const created = [];
      for (const name of ['Alpha flow', 'Beta flow', 'Gamma thing']) {
        const type = await seedDeviceType(t, own);
        created.push((await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name }).expect(201)).body);
      }
      const all = await admin.get(`/v1/tenants/${own.tenantNumber}/flows`).expect(200);
      expect(all.body.totalCount).toBe(3);
      expect(all.body.items.map((flow: { flowId: string }) => flow.flowId)).toEqual(created.map((flow) => flow.flowId));
      const q = await admin.get(`/v1/tenants/${own.tenantNumber}/flows?q=THING`).expect(200);
      expect(q.body.items.map((flow: { flowId: string }) => flow.flowId)).toEqual([created[2].flowId]);
      expect(q.body.totalCount).toBe(1);
      const byType = await admin.get(`/v1/tenants/${own.tenantNumber}/flows?deviceTypeId=${created[2].deviceTypeId}`).expect(200);
      expect(byType.body.items.map((flow: { flowId: string }) => flow.flowId)).toEqual([created[2].flowId]);
      const bad = await admin.get(`/v1/tenants/${own.tenantNumber}/flows?limit=7&deviceTypeId=x`).expect(400);
      expect(fieldsOf(bad).map((field) => field.path).sort()).toEqual(['query.deviceTypeId', 'query.limit']);
      const tampered = await admin.get(`/v1/tenants/${own.tenantNumber}/flows?cursor=abc`).expect(400);
      expect(fieldsOf(tampered)[0].rule).toBe('cursor_invalid');
      await admin.get(`/v1/tenants/2147483647/flows`).expect(404);
    });
  });

  describe('GET/PATCH /v1/flows/{flowId}', () => {
    it('reads with ETag; PATCH needs If-Match, bumps the ETag, audits; stale 409 with currentLockVersion', async () => {
      const { flow } = await flowFixture();
      const got = await admin.get(`/v1/flows/${flow.flowId}`).expect(200);
      expect(got.headers.etag).toBe('"1"');
      const noMatch = await admin.patch(`/v1/flows/${flow.flowId}`, { name: 'Renamed' }).expect(400);
      expect(fieldsOf(noMatch)[0].path).toBe('headers.if-match');
      const patched = await admin.patch(`/v1/flows/${flow.flowId}`, { name: 'Renamed' }).set('If-Match', '"1"').expect(200);
      expect(patched.headers.etag).toBe('"2"');
      expect(patched.body.name).toBe('Renamed');
      const stale = await admin.patch(`/v1/flows/${flow.flowId}`, { description: 'x' }).set('If-Match', '"1"').expect(409);
      expect(stale.body.error.details).toMatchObject({ reason: 'lock_version_mismatch', currentLockVersion: 2 });
      const empty = await admin.patch(`/v1/flows/${flow.flowId}`, {}).set('If-Match', '"2"').expect(400);
      expect(fieldsOf(empty)[0].rule).toBe('min_properties');
      const immutable = await admin.patch(`/v1/flows/${flow.flowId}`, { key: 'other' }).set('If-Match', '"2"').expect(400);
      expect(fieldsOf(immutable)[0]).toEqual({ path: 'body.key', rule: 'unknown_property' });
      const audit = await auditRows(flow.flowId, 'flow.updated');
      expect(audit).toHaveLength(1);
      expect(audit[0].metadata).toMatchObject({ changedFields: ['name'], lockVersion: { before: 1, after: 2 } });
      await admin.get(`/v1/flows/${randomUUID()}`).expect(404);
    });

    it('creating and releasing versions leave the flow ETag unchanged', async () => {
      const { type, flow } = await flowFixture();
      await releasedVersion(flow.flowId, type);
      expect((await admin.get(`/v1/flows/${flow.flowId}`).expect(200)).headers.etag).toBe('"1"');
    });
  });

  describe('versions', () => {
    it('creates drafts numbered max + 1 with Location; reads; lists newest first with status filter and cursor', async () => {
      const { type, flow } = await flowFixture();
      const graph = pipelineGraph(type, 'level');
      const parameters = [{ key: 'factor', type: 'number', defaultValue: 2 }, { key: 'label', type: 'string' }];
      const res = await saveDraft(flow.flowId, graph, parameters).expect(201);
      expect(res.headers.location).toBe(`/v1/flows/${flow.flowId}/versions/${res.body.flowVersionId}`);
      expect(res.body).toMatchObject({ versionNumber: 2, status: 'draft', graph, parameters: [parameters[0], { key: 'label', type: 'string', defaultValue: null }] });
      await saveDraft(flow.flowId, graph).expect(201);
      const read = await admin.get(`${versionsPath(flow.flowId)}/${res.body.flowVersionId}`).expect(200);
      expect(read.body).toEqual(res.body);

      const first = await admin.get(`${versionsPath(flow.flowId)}?limit=2`).expect(200);
      expect(first.body.items.map((version: { versionNumber: number }) => version.versionNumber)).toEqual([3, 2]);
      expect(first.body.totalCount).toBeUndefined();
      const next = await admin.get(`${versionsPath(flow.flowId)}?limit=2&cursor=${first.body.nextCursor}`).expect(200);
      expect(next.body.items.map((version: { versionNumber: number }) => version.versionNumber)).toEqual([1]);
      expect(next.body.nextCursor).toBeUndefined();
      const mismatch = await admin.get(`${versionsPath(flow.flowId)}?limit=3&cursor=${first.body.nextCursor}`).expect(400);
      expect(fieldsOf(mismatch)[0].rule).toBe('cursor_mismatch');

      await admin.post(`${versionsPath(flow.flowId)}/${res.body.flowVersionId}/release`).expect(200);
      const released = await admin.get(`${versionsPath(flow.flowId)}?status=released`).expect(200);
      expect(released.body.items.map((version: { flowVersionId: string }) => version.flowVersionId)).toEqual([res.body.flowVersionId]);
      const badQuery = await admin.get(`${versionsPath(flow.flowId)}?limit=0&status=gone`).expect(400);
      expect(fieldsOf(badQuery).map((field) => field.path).sort()).toEqual(['query.limit', 'query.status']);
      await admin.get(`${versionsPath(flow.flowId)}?limit=101`).expect(400);
      await admin.get(`${versionsPath(flow.flowId)}?cursor=${'a'.repeat(513)}`).expect(400);
    });

    it('another flow\'s version is a 404; versions are immutable in the database', async () => {
      const a = await flowFixture();
      const b = await flowFixture();
      const [bVersion] = (await admin.get(versionsPath(b.flow.flowId)).expect(200)).body.items;
      const res = await admin.get(`${versionsPath(a.flow.flowId)}/${bVersion.flowVersionId}`).expect(404);
      expect(res.body.error.details.resourceType).toBe('flow_version');
      await expect(t.dataSource.query(`UPDATE flow_versions SET graph = '{}'::jsonb WHERE flow_version_id = $1`, [bVersion.flowVersionId])).rejects.toThrow(/immutable/);
    });

    it('parallel draft saves never collide: numbers 2..9, all distinct', async () => {
      const { type, flow } = await flowFixture();
      const results = await Promise.all(Array.from({ length: 8 }, () => saveDraft(flow.flowId, pipelineGraph(type, 'level'))));
      expect(results.map((res) => res.status)).toEqual(Array(8).fill(201));
      expect(results.map((res) => res.body.versionNumber).sort((x, y) => x - y)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
    });

    describe('save rules: 400 with paths under body.graph / body.parameters', () => {
      let type: SeededDeviceType;
      let flowId: string;
      beforeAll(async () => {
        const created = await flowFixture();
        type = created.type;
        flowId = created.flow.flowId;
      });
      const violations = async (graph: unknown, parameters?: unknown) => fieldsOf(await saveDraft(flowId, graph, parameters).expect(400));
      const valid = () => pipelineGraph(type, 'level');

      it.each([
        ['schemaVersion', (g: Record<string, unknown>) => (g.schemaVersion = 'flow-graph.v1'), { path: 'body.graph.schemaVersion', rule: 'enum' }],
        ['deviceTypeId of another type', (g: Record<string, unknown>) => (g.deviceTypeId = randomUUID()), { path: 'body.graph.deviceTypeId', rule: 'mismatch' }],
        ['nodes below 2', (g: { nodes: unknown[] }) => (g.nodes = g.nodes.slice(2, 3)), { path: 'body.graph.nodes', rule: 'min_items' }],
        ['nodes above 102', (g: { nodes: unknown[] }) => g.nodes.push(...Array.from({ length: 99 }, (_, i) => blockNode(`n${i}`, 'scale', { fieldKey: 'level' }))), { path: 'body.graph.nodes', rule: 'max_items' }],
        ['two current outputs', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[3].kind = 'current-output'), { path: 'body.graph.nodes', rule: 'system_node_count' }],
        ['duplicate nodeId', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[1].nodeId = 'decode'), { path: 'body.graph.nodes[1].nodeId', rule: 'unique' }],
        ['nodeId too long', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[0].nodeId = 'x'.repeat(121)), { path: 'body.graph.nodes[0].nodeId', rule: 'max_length' }],
        ['block on an output', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[2].block = { type: 'builtin', key: 'scale', version: 1 }), { path: 'body.graph.nodes[2].block', rule: 'type' }],
        ['block missing on a block node', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[0].block = null), { path: 'body.graph.nodes[0].block', rule: 'required' }],
        ['unknown kind', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[0].kind = 'input'), { path: 'body.graph.nodes[0].kind', rule: 'enum' }],
        ['position not finite', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[0].position = { x: 'a', y: 0 }), { path: 'body.graph.nodes[0].position.x', rule: 'type' }],
        ['blank name', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[0].name = '  '), { path: 'body.graph.nodes[0].name', rule: 'blank' }],
        ['configuration over 32 KiB', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[0].configuration = { blob: 'x'.repeat(33 * 1024) }), { path: 'body.graph.nodes[0].configuration', rule: 'max_length' }],
        ['edge to a missing node', (g: { edges: Record<string, unknown>[] }) => (g.edges[0].toNodeId = 'ghost'), { path: 'body.graph.edges[0].toNodeId', rule: 'reference_not_found' }],
        ['self-loop', (g: { edges: Record<string, unknown>[] }) => (g.edges[0].toNodeId = 'decode'), { path: 'body.graph.edges[0].toNodeId', rule: 'mismatch' }],
        ['duplicate edge', (g: { edges: Record<string, unknown>[] }) => g.edges.push({ fromNodeId: 'decode', fromPort: 'out', toNodeId: 'scale' }), { path: 'body.graph.edges[3]', rule: 'unique' }],
        ['unknown graph property', (g: Record<string, unknown>) => (g.extra = true), { path: 'body.graph.extra', rule: 'unknown_property' }],
      ])('%s', async (_name, edit, expected) => {
        const graph = bend(valid(), edit as never);
        expect(await violations(graph)).toContainEqual(expected);
      });

      it.each([
        ['more than 50', Array.from({ length: 51 }, (_, i) => ({ key: `p${i}`, type: 'number', defaultValue: 1 })), { path: 'body.parameters', rule: 'max_items' }],
        ['duplicate key', [{ key: 'a', type: 'number' }, { key: 'a', type: 'string' }], { path: 'body.parameters[1].key', rule: 'unique' }],
        ['bad key', [{ key: '1a', type: 'number' }], { path: 'body.parameters[0].key', rule: 'pattern' }],
        ['unknown type', [{ key: 'a', type: 'date' }], { path: 'body.parameters[0].type', rule: 'enum' }],
        ['wrong-typed default', [{ key: 'a', type: 'number', defaultValue: '3' }], { path: 'body.parameters[0].defaultValue', rule: 'type' }],
      ])('parameters: %s', async (_name, parameters, expected) => {
        expect(await violations(valid(), parameters)).toContainEqual(expected);
      });

      it('graph required and an object; nothing is stored on a 400', async () => {
        const before = (await admin.get(versionsPath(flowId)).expect(200)).body.items.length;
        expect(fieldsOf(await admin.post(versionsPath(flowId), {}).expect(400))).toContainEqual({ path: 'body.graph', rule: 'required' });
        expect(fieldsOf(await admin.post(versionsPath(flowId), { graph: [] }).expect(400))[0].path).toBe('body.graph');
        expect((await admin.get(versionsPath(flowId)).expect(200)).body.items.length).toBe(before);
      });
    });
  });

  describe('POST …/validate: one case per compile rule and severity', () => {
    let type: SeededDeviceType;
    let flowId: string;
    beforeAll(async () => {
      type = await seedDeviceType(t, tenant);
      await seedField(t, tenant, type, { key: 'level' });
      await seedField(t, tenant, type, { key: 'label', kind: 'string' });
      await seedField(t, tenant, type, { key: 'only.current', targets: ['current'] });
      await seedField(t, tenant, type, { key: 'old', status: 'deprecated' });
      flowId = (await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'Matrix' }).expect(201)).body.flowId;
    });

    async function issuesOf(graph: unknown, parameters: unknown[] = []) {
      const draft = await saveDraft(flowId, graph, parameters).expect(201);
      const res = await admin.post(`${versionsPath(flowId)}/${draft.body.flowVersionId}/validate`).expect(200);
      return res.body as { valid: boolean; checksum: string; issues: { severity: string; code: string; path: string }[] };
    }
    const valid = () => pipelineGraph(type, 'level');

    it('a valid graph: valid, no issues, the checksum a release records', async () => {
      const report = await issuesOf(valid());
      expect(report).toMatchObject({ valid: true, issues: [] });
      expect(report.checksum).toMatch(/^[0-9a-f]{64}$/);
    });

    it.each([
      ['cycle_detected', (g: { edges: Record<string, unknown>[] }) => g.edges.push({ fromNodeId: 'scale', toNodeId: 'decode' }), 'error', 'graph.nodes[0]'],
      [
        'multiple_inputs',
        (g: { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] }) => {
          g.nodes.push(blockNode('extra', 'scale', { fieldKey: 'level' }));
          g.edges.push({ fromNodeId: 'extra', toNodeId: 'scale' });
        },
        'error',
        'graph.nodes[1]',
      ],
      ['invalid_port (no such port)', (g: { edges: Record<string, unknown>[] }) => (g.edges[0].fromPort = 'pass'), 'error', 'graph.edges[0].fromPort'],
      ['invalid_port (edge leaving an output)', (g: { edges: Record<string, unknown>[] }) => g.edges.push({ fromNodeId: 'current', toNodeId: 'history' }), 'error', 'graph.edges[3]'],
      ['unknown_block (built-in)', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[1].block = { type: 'builtin', key: 'scale', version: 9 }), 'error', 'graph.nodes[1].block'],
      ['unknown_block (custom)', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[1].block = { type: 'custom', flowBlockVersionId: randomUUID() }), 'error', 'graph.nodes[1].block.flowBlockVersionId'],
      ['invalid_configuration', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[0].configuration = { reads: [{ offset: 300, type: 'uint16be', fieldKey: 'level' }] }), 'error', 'graph.nodes[0].configuration.reads[0].offset'],
      ['invalid_configuration (output)', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[2].configuration = { fields: [{ fieldKey: 'level' }] }), 'error', 'graph.nodes[2].configuration.fields[0]'],
      ['unknown_field', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[2].configuration = { fields: [{ fieldKey: 'nope', schemaRef: NUMBER_REF }] }), 'error', 'graph.nodes[2].configuration.fields[0].fieldKey'],
      ['unknown_field (deprecated)', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[2].configuration = { fields: [{ fieldKey: 'old', schemaRef: NUMBER_REF }] }), 'error', 'graph.nodes[2].configuration.fields[0].fieldKey'],
      ['field_target_mismatch', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[3].configuration = { fields: [{ fieldKey: 'only.current', schemaRef: NUMBER_REF }] }), 'error', 'graph.nodes[3].configuration.fields[0].fieldKey'],
      ['schema_ref_mismatch', (g: { nodes: Record<string, unknown>[] }) => (g.nodes[2].configuration = { fields: [{ fieldKey: 'label', schemaRef: NUMBER_REF }] }), 'error', 'graph.nodes[2].configuration.fields[0].schemaRef'],
      ['undeclared_parameter', (g: { nodes: Record<string, unknown>[] }) => ((g.nodes[1].configuration as Record<string, unknown>).multiply = { $param: 'nope' }), 'error', 'graph.nodes[1].configuration.multiply'],
      [
        'unknown_email_template',
        (g: { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] }) => {
          g.nodes.push(blockNode('mail', 'email-action', { emailTemplateId: randomUUID() }));
          g.edges.push({ fromNodeId: 'scale', toNodeId: 'mail' });
        },
        'error',
        'graph.nodes[4].configuration.emailTemplateId',
      ],
      ['unreachable_output', (g: { edges: Record<string, unknown>[] }) => g.edges.splice(2, 1), 'warning', 'graph.nodes[3]'],
      [
        'dead_end_node',
        (g: { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] }) => {
          g.nodes.push(blockNode('dangling', 'scale', { fieldKey: 'level' }));
          g.edges.push({ fromNodeId: 'decode', toNodeId: 'dangling' });
        },
        'warning',
        'graph.nodes[4]',
      ],
    ])('%s', async (name, edit, severity, path) => {
      const code = name.split(' ')[0];
      const report = await issuesOf(bend(valid(), edit as never));
      expect(report.issues).toContainEqual(expect.objectContaining({ code, severity, path }));
      expect(report.valid).toBe(severity !== 'error');
    });

    it('custom blocks: released versions of this tenant and global ones pass; drafts, deprecated, foreign and bad configurations do not', async () => {
      const source = 'function transform(msg, ctx) { return { values: { level: ctx.configuration.factor } }; }';
      const schema = { type: 'object', additionalProperties: false, required: ['factor'], properties: { factor: { type: 'number' } } };
      const sampleInput = { payload: [1, 2], values: {}, configuration: { factor: 2 } };
      async function blockVersion(path: string, release: 'draft' | 'released' | 'deprecated'): Promise<string> {
        const block = await admin.post(path, { key: uniqueKey('block'), name: 'Custom' }).expect(201);
        const version = await admin.post(`/v1/flow-blocks/${block.body.flowBlockId}/versions`, { sourceCode: source, configurationSchema: schema, sampleInput }).expect(201);
        const versionPath = `/v1/flow-blocks/${block.body.flowBlockId}/versions/${version.body.flowBlockVersionId}`;
        if (release !== 'draft') await admin.post(`${versionPath}/release`).expect(200);
        if (release === 'deprecated') await admin.post(`${versionPath}/deprecate`).expect(200);
        return version.body.flowBlockVersionId as string;
      }
      const customAt = (flowBlockVersionId: string, configuration: unknown = { factor: 3 }) =>
        bend(valid(), (g) => {
          g.nodes[1].block = { type: 'custom', flowBlockVersionId };
          g.nodes[1].configuration = configuration;
        });
      const own = await blockVersion(`/v1/tenants/${tenant.tenantNumber}/flow-blocks`, 'released');
      const global = await blockVersion('/v1/flow-blocks', 'released');
      const draft = await blockVersion(`/v1/tenants/${tenant.tenantNumber}/flow-blocks`, 'draft');
      const deprecated = await blockVersion(`/v1/tenants/${tenant.tenantNumber}/flow-blocks`, 'deprecated');
      const foreign = await blockVersion(`/v1/tenants/${(await seedTenant(t)).tenantNumber}/flow-blocks`, 'released');

      expect(await issuesOf(customAt(own))).toMatchObject({ valid: true, issues: [] });
      expect(await issuesOf(customAt(global))).toMatchObject({ valid: true, issues: [] });
      const codes = async (id: string, configuration?: unknown) => (await issuesOf(customAt(id, configuration))).issues.map((issue) => [issue.code, issue.severity]);
      expect(await codes(draft)).toContainEqual(['block_version_not_released', 'error']);
      expect(await codes(deprecated)).toContainEqual(['block_version_deprecated', 'error']);
      expect(await codes(foreign)).toContainEqual(['unknown_block', 'error']);
      expect(await codes(own, { factor: 'three' })).toContainEqual(['invalid_configuration', 'error']);
    });

    it('parameter_type_mismatch: a string parameter where scale wants a number; a number parameter fits', async () => {
      const graph = bend(valid(), (g) => ((g.nodes[1].configuration as Record<string, unknown>).multiply = { $param: 'factor' }));
      const wrong = await issuesOf(graph, [{ key: 'factor', type: 'string', defaultValue: null }]);
      expect(wrong.issues).toContainEqual(expect.objectContaining({ code: 'parameter_type_mismatch', severity: 'error', path: 'graph.nodes[1].configuration.multiply' }));
      const right = await issuesOf(graph, [{ key: 'factor', type: 'number', defaultValue: null }]);
      expect(right).toMatchObject({ valid: true, issues: [] });
    });

    it('validates a version of any status; 404 for another flow\'s version; a viewer may validate', async () => {
      const released = await releasedVersion(flowId, type);
      const viewer = await member(tenant, 'tenant_viewer');
      const res = await viewer.post(`${versionsPath(flowId)}/${released}/validate`).expect(200);
      expect(res.body).toMatchObject({ flowVersionId: released, valid: true });
      const other = await flowFixture();
      await admin.post(`${versionsPath(other.flow.flowId)}/${released}/validate`).expect(404);
    });
  });

  describe('release and deprecate', () => {
    it('releases a valid draft: checksum = SHA-256 of the canonical JSON, releasedAt; audit; a second release is 409 invalid_state', async () => {
      const { type, flow } = await flowFixture();
      const draft = await saveDraft(flow.flowId, pipelineGraph(type, 'level'), [{ key: 'b', type: 'json', defaultValue: { z: 1, a: [1, 'é'] } }]).expect(201);
      const validated = await admin.post(`${versionsPath(flow.flowId)}/${draft.body.flowVersionId}/validate`).expect(200);
      const res = await admin.post(`${versionsPath(flow.flowId)}/${draft.body.flowVersionId}/release`).expect(200);
      expect(res.body).toMatchObject({ status: 'released', checksum: validated.body.checksum, releasedAt: expect.stringMatching(/Z$/) });
      // RFC 8785 of {graph, parameters}, computed independently.
      expect(res.body.checksum).toBe(createHash('sha256').update(canonicalize({ graph: draft.body.graph, parameters: draft.body.parameters })!).digest('hex'));
      expect(await auditRows(draft.body.flowVersionId, 'flow_version.released')).toEqual([expect.objectContaining({ outcome: 'success', status_code: 200 })]);
      const again = await admin.post(`${versionsPath(flow.flowId)}/${draft.body.flowVersionId}/release`).expect(409);
      expect(again.body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'released' });
    });

    it('refuses a draft with an error: 422 FLOW_FAILURE gate compile with the issues; audited as a failure; still a draft', async () => {
      const { type, flow } = await flowFixture();
      const graph = bend(pipelineGraph(type, 'level'), (g) => g.edges.push({ fromNodeId: 'scale', toNodeId: 'decode' }));
      const draft = await saveDraft(flow.flowId, graph).expect(201);
      const res = await admin.post(`${versionsPath(flow.flowId)}/${draft.body.flowVersionId}/release`).expect(422);
      expect(res.body.error).toMatchObject({ code: 'FLOW_FAILURE', category: 'flow_failure', details: { gate: 'compile' } });
      expect(res.body.error.details.issues).toContainEqual(expect.objectContaining({ code: 'cycle_detected', severity: 'error' }));
      expect(await auditRows(draft.body.flowVersionId, 'flow_version.release_failed')).toEqual([expect.objectContaining({ outcome: 'failure', status_code: 422 })]);
      expect((await admin.get(`${versionsPath(flow.flowId)}/${draft.body.flowVersionId}`).expect(200)).body.status).toBe('draft');
    });

    it('deprecates a released version (audit); a draft is 409 invalid_state; an operator is 403', async () => {
      const { type, flow } = await flowFixture();
      const released = await releasedVersion(flow.flowId, type);
      const operator = await member(tenant, 'tenant_operator');
      await operator.post(`${versionsPath(flow.flowId)}/${released}/deprecate`).expect(403);
      await operator.post(`${versionsPath(flow.flowId)}/${released}/release`).expect(403);
      const res = await admin.post(`${versionsPath(flow.flowId)}/${released}/deprecate`).expect(200);
      expect(res.body.status).toBe('deprecated');
      expect(await auditRows(released, 'flow_version.deprecated')).toHaveLength(1);
      const [draft] = (await admin.get(`${versionsPath(flow.flowId)}?status=draft`).expect(200)).body.items;
      const refused = await admin.post(`${versionsPath(flow.flowId)}/${draft.flowVersionId}/deprecate`).expect(409);
      expect(refused.body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'draft' });
      await admin.post(`${versionsPath(flow.flowId)}/${randomUUID()}/release`).expect(404);
    });
  });

  describe('POST /v1/flows/{flowId}/activate', () => {
    it('activates, rolls back (audited by version order), refuses drafts, deprecated and already-active versions', async () => {
      const { type, flow } = await flowFixture();
      const v2 = await releasedVersion(flow.flowId, type);
      const v3 = await releasedVersion(flow.flowId, type);
      const noHeader = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v3 }).expect(400);
      expect(fieldsOf(noHeader)[0].path).toBe('headers.if-match');
      const first = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v3 }).set('If-Match', '"1"').expect(200);
      expect(first.headers.etag).toBe('"2"');
      expect(first.body).toMatchObject({ activeVersionId: v3, activeVersionNumber: 3 });
      const already = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v3 }).set('If-Match', '"2"').expect(409);
      expect(already.body.error.details.reason).toBe('already_active');
      const back = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v2 }).set('If-Match', '"2"').expect(200);
      expect(back.body.activeVersionNumber).toBe(2);
      expect(await auditRows(flow.flowId, 'flow.activated')).toHaveLength(1);
      const rolledBack = await auditRows(flow.flowId, 'flow.rolled_back');
      expect(rolledBack).toEqual([expect.objectContaining({ outcome: 'success', status_code: 200 })]);
      expect(rolledBack[0].metadata).toMatchObject({ versionNumber: { before: 3, after: 2 } });

      const [draft] = (await admin.get(`${versionsPath(flow.flowId)}?status=draft`).expect(200)).body.items;
      const notReleased = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: draft.flowVersionId }).set('If-Match', '"3"').expect(409);
      expect(notReleased.body.error.details).toMatchObject({ reason: 'version_not_released', currentStatus: 'draft' });
      await admin.post(`${versionsPath(flow.flowId)}/${v3}/deprecate`).expect(200);
      const deprecated = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v3 }).set('If-Match', '"3"').expect(409);
      expect(deprecated.body.error.details).toMatchObject({ reason: 'version_not_released', currentStatus: 'deprecated' });
      const stale = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v3 }).set('If-Match', '"1"').expect(409);
      expect(stale.body.error.details).toMatchObject({ reason: 'lock_version_mismatch', currentLockVersion: 3 });
      const foreign = await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: randomUUID() }).set('If-Match', '"3"').expect(400);
      expect(fieldsOf(foreign)[0]).toEqual({ path: 'body.flowVersionId', rule: 'reference_not_found' });
      const operator = await member(tenant, 'tenant_operator');
      await operator.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v2 }).set('If-Match', '"3"').expect(403);
    });

    it('an active version that gets deprecated stays active', async () => {
      const { type, flow } = await flowFixture();
      const v2 = await releasedVersion(flow.flowId, type);
      await admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId: v2 }).set('If-Match', '"1"').expect(200);
      await admin.post(`${versionsPath(flow.flowId)}/${v2}/deprecate`).expect(200);
      expect((await admin.get(`/v1/flows/${flow.flowId}`).expect(200)).body.activeVersionId).toBe(v2);
    });

    it('two parallel activations with one ETag: one wins, the other 409 lock_version_mismatch', async () => {
      const { type, flow } = await flowFixture();
      const v2 = await releasedVersion(flow.flowId, type);
      const v3 = await releasedVersion(flow.flowId, type);
      const results = await Promise.all([v2, v3].map((flowVersionId) => admin.post(`/v1/flows/${flow.flowId}/activate`, { flowVersionId }).set('If-Match', '"1"')));
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
      const loser = results.find((res) => res.status === 409)!;
      expect(loser.body.error.details).toMatchObject({ reason: 'lock_version_mismatch', currentLockVersion: 2 });
      const winner = results.find((res) => res.status === 200)!;
      expect((await admin.get(`/v1/flows/${flow.flowId}`).expect(200)).body.activeVersionId).toBe(winner.body.activeVersionId);
    });
  });
});
