import canonicalize from 'canonicalize';
import { createHash, randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { TemplateCatalogSeeder } from '../src/modules/flow-templates';
import { auditRows } from './support/audit';
import { loginAdmin } from './support/auth';
import { seedDevice, seedDeviceType, seedField, SeededDeviceType } from './support/devices';
import { seedRawMessage } from './support/executions';
import { blockNode, NUMBER_REF } from './support/flows';
import { as, fieldsOf, withoutCorrelation } from './support/http';
import { member } from './support/member';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

type Api = ReturnType<typeof as>;

/*
 * Flow templates: the global catalog (platform admins write, everyone reads), versions validated and released with
 * the flows' own rules, copies into a tenant's flow with their provenance, the upgrade walk to a newer template
 * version checked by a dry-run replay, and the starter catalog shipped in templates/ (seeded twice, each template
 * copied, validated, released and run against its fixtures).
 */

let counter = 0;
const uniqueKey = (prefix = 'tpl') => `${prefix}-${process.pid}-${++counter}`;
const CATALOG_DIR = join(__dirname, '..', 'templates');

/** decode a big-endian uint16 into `level`, scale it by `multiply`, both outputs; no device type. */
function templateGraph(multiply = 0.1, extraNodes: Record<string, unknown>[] = [], extraEdges: Record<string, unknown>[] = []) {
  const fields = () => [{ fieldKey: 'level', schemaRef: NUMBER_REF }];
  return {
    schemaVersion: 'flow-graph.v2',
    deviceTypeId: null,
    nodes: [
      blockNode('decode', 'decode-binary', { reads: [{ offset: 0, type: 'uint16be', fieldKey: 'level' }] }),
      blockNode('scale', 'scale', { fieldKey: 'level', multiply, add: 0 }),
      { kind: 'current-output', nodeId: 'current', block: null, name: 'Current', configuration: { fields: fields() }, position: { x: 400, y: 0 } },
      { kind: 'timeseries-output', nodeId: 'history', block: null, name: 'History', configuration: { fields: fields() }, position: { x: 400, y: 200 } },
      ...extraNodes,
    ],
    edges: [{ fromNodeId: 'decode', toNodeId: 'scale' }, { fromNodeId: 'scale', toNodeId: 'current' }, { fromNodeId: 'scale', toNodeId: 'history' }, ...extraEdges],
  };
}

describe('flow templates', () => {
  let t: TestApp;
  let admin: Api;
  let tenant: SeededTenant;
  let tenantAdmin: Api;
  let viewer: Api;

  const createTemplate = async (body: Record<string, unknown> = {}) =>
    (await admin.post('/v1/flow-templates', { key: uniqueKey(), name: 'Level sensor', ...body }).expect(201)).body as { flowTemplateId: string; key: string };
  const versionsPath = (templateId: string) => `/v1/flow-templates/${templateId}/versions`;

  /** A template with a released version of `graph` (default: scale by 0.1). */
  async function releasedTemplate(graph: unknown = templateGraph(), parameters: unknown[] = []) {
    const template = await createTemplate();
    const version = await admin.post(versionsPath(template.flowTemplateId), { graph, parameters }).expect(201);
    const released = await admin.post(`${versionsPath(template.flowTemplateId)}/${version.body.flowTemplateVersionId}/release`).expect(200);
    return { templateId: template.flowTemplateId, versionId: version.body.flowTemplateVersionId as string, released: released.body };
  }

  /** A device type of `tenant` with the given number fields (both targets unless said) and its flow. */
  async function flowOf(fields: { key: string; targets?: ('current' | 'timeseries')[]; kind?: 'number' | 'string' }[], target = tenant) {
    const type = await seedDeviceType(t, target);
    for (const field of fields) await seedField(t, target, type, { key: field.key, targets: field.targets, kind: field.kind });
    const flow = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey('flow'), name: 'Flow' }).expect(201);
    return { type, flowId: flow.body.flowId as string, etag: flow.headers.etag as string };
  }

  const copy = (api: Api, templateId: string, versionId: string, flowId: string) => api.post(`${versionsPath(templateId)}/${versionId}/copy`, { flowId });

  async function globalBlockVersion(status: 'released' | 'draft', tenantNumber?: number): Promise<string> {
    const base = tenantNumber === undefined ? '/v1/flow-blocks' : `/v1/tenants/${tenantNumber}/flow-blocks`;
    const block = await admin.post(base, { key: uniqueKey('block'), name: 'Double' }).expect(201);
    const version = await admin
      .post(`/v1/flow-blocks/${block.body.flowBlockId}/versions`, {
        sourceCode: 'function transform(msg) { return { values: { level: msg.values.level * 2 } }; }',
        sampleInput: { payload: [1], values: { level: 1 } },
      })
      .expect(201);
    if (status === 'released') await admin.post(`/v1/flow-blocks/${block.body.flowBlockId}/versions/${version.body.flowBlockVersionId}/release`).expect(200);
    return version.body.flowBlockVersionId;
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
    tenantAdmin = (await member(t, tenant, 'tenant_admin')).api;
    viewer = (await member(t, tenant, 'tenant_viewer')).api;
  });
  afterAll(() => t.close());

  describe('templates', () => {
    it('creates (201, Location, audit), reads, renames and lists with q and status; keys are unique and immutable', async () => {
      const key = uniqueKey();
      const res = await admin.post('/v1/flow-templates', { key, name: 'Tank sensor', description: 'Ultrasonic tank level' }).expect(201);
      expect(res.headers.location).toBe(`/v1/flow-templates/${res.body.flowTemplateId}`);
      expect(res.body).toEqual({
        flowTemplateId: expect.any(String),
        key,
        name: 'Tank sensor',
        description: 'Ultrasonic tank level',
        latestVersionNumber: null,
        latestReleasedVersionId: null,
        latestReleasedVersionNumber: null,
        requiredFields: null,
        createdAt: expect.stringMatching(/\.\d{3}Z$/),
        updatedAt: expect.any(String),
      });
      const id = res.body.flowTemplateId as string;
      expect(await auditRows(t, 'flow_template', id, 'flow_template.created')).toEqual([expect.objectContaining({ tenant_id: null, outcome: 'success', status_code: 201 })]);

      const dup = await admin.post('/v1/flow-templates', { key, name: 'Again' }).expect(409);
      expect(dup.body.error.details.reason).toBe('duplicate_key');
      const bad = await admin.post('/v1/flow-templates', { key: 'Bad Key', name: ' ', extra: 1 }).expect(400);
      expect(fieldsOf(bad).map((field) => field.path).sort()).toEqual(['body.extra', 'body.key', 'body.name']);

      // Every signed-in user reads templates; the key is immutable.
      expect((await viewer.get(`/v1/flow-templates/${id}`).expect(200)).body).toEqual(res.body);
      const renamed = await admin.patch(`/v1/flow-templates/${id}`, { name: 'Tank level sensor' }).expect(200);
      expect(renamed.body).toMatchObject({ name: 'Tank level sensor', description: 'Ultrasonic tank level' });
      expect(fieldsOf(await admin.patch(`/v1/flow-templates/${id}`, { key: 'other' }).expect(400))).toEqual([{ path: 'body.key', rule: 'unknown_property' }]);
      await admin.patch(`/v1/flow-templates/${id}`, {}).expect(400);
      const missing = await admin.get(`/v1/flow-templates/${randomUUID()}`).expect(404);
      expect(missing.body.error.details.resourceType).toBe('flow_template');
      await admin.get('/v1/flow-templates/not-a-uuid').expect(400);

      const found = await viewer.get(`/v1/flow-templates?q=${encodeURIComponent(key.toUpperCase())}`).expect(200);
      expect(found.body).toMatchObject({ totalCount: 1, items: [{ flowTemplateId: id }] });
      const released = await releasedTemplate();
      const catalog = await viewer.get('/v1/flow-templates?status=released&limit=100').expect(200);
      const ids = catalog.body.items.map((item: { flowTemplateId: string }) => item.flowTemplateId);
      expect(ids).toContain(released.templateId);
      expect(ids).not.toContain(id);
      expect(catalog.body.items.find((item: { flowTemplateId: string }) => item.flowTemplateId === released.templateId)).toMatchObject({
        latestVersionNumber: 1,
        latestReleasedVersionId: released.versionId,
        latestReleasedVersionNumber: 1,
        requiredFields: [{ key: 'level', schemaRef: NUMBER_REF, storageTargets: ['current', 'timeseries'] }],
      });
      const bad2 = await viewer.get('/v1/flow-templates?status=active').expect(400);
      expect(fieldsOf(bad2)).toEqual([{ path: 'query.status', rule: 'enum' }]);
    });

    it('pages ascending with an exact total and a cursor bound to the filters', async () => {
      const q = uniqueKey('paging');
      for (let i = 0; i < 3; i++) await createTemplate({ key: `${q}-${i}` });
      const first = await viewer.get(`/v1/flow-templates?q=${q}&limit=25`).expect(200);
      expect(first.body.totalCount).toBe(3);
      expect(first.body.nextCursor).toBeUndefined();
      const all = await admin.get('/v1/flow-templates?limit=25').expect(200);
      if (all.body.nextCursor) {
        const mismatch = await admin.get(`/v1/flow-templates?limit=25&q=x&cursor=${all.body.nextCursor}`).expect(400);
        expect(fieldsOf(mismatch)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      }
    });

    it('refuses every write to a tenant user with 403 platform_admin_required before validation or lookup', async () => {
      const { templateId, versionId } = await releasedTemplate();
      const writes = [
        tenantAdmin.post('/v1/flow-templates', { key: uniqueKey(), name: 'Nope' }),
        tenantAdmin.post('/v1/flow-templates', { bad: true }),
        tenantAdmin.patch(`/v1/flow-templates/${templateId}`, { name: 'Nope' }),
        tenantAdmin.post(versionsPath(templateId), { graph: templateGraph() }),
        tenantAdmin.post(`${versionsPath(templateId)}/${versionId}/release`),
        tenantAdmin.post(`${versionsPath(templateId)}/${versionId}/deprecate`),
        tenantAdmin.post(`${versionsPath(randomUUID())}/${randomUUID()}/deprecate`),
      ];
      for (const write of writes) {
        const res = await write;
        expect(res.status).toBe(403);
        expect(res.body.error.details.reason).toBe('platform_admin_required');
      }
      // Reads are open to every signed-in user.
      await viewer.get(versionsPath(templateId)).expect(200);
      await viewer.get(`${versionsPath(templateId)}/${versionId}`).expect(200);
      await viewer.post(`${versionsPath(templateId)}/${versionId}/validate`).expect(200);
      await t.http().get('/v1/flow-templates').expect(401);
    });
  });

  describe('versions', () => {
    it('saves drafts with the flows’ save rules and deviceTypeId null; lists newest first; reads', async () => {
      const { flowTemplateId } = await createTemplate();
      const withType = await admin.post(versionsPath(flowTemplateId), { graph: { ...templateGraph(), deviceTypeId: randomUUID() } }).expect(400);
      expect(fieldsOf(withType)).toEqual([{ path: 'body.graph.deviceTypeId', rule: 'type' }]);
      const noOutputs = templateGraph();
      noOutputs.nodes = noOutputs.nodes.filter((node) => node.kind !== 'timeseries-output');
      noOutputs.edges = noOutputs.edges.filter((edge) => edge.toNodeId !== 'history');
      expect(fieldsOf(await admin.post(versionsPath(flowTemplateId), { graph: noOutputs }).expect(400))).toEqual([{ path: 'body.graph.nodes', rule: 'system_node_count' }]);
      const badParam = await admin.post(versionsPath(flowTemplateId), { graph: templateGraph(), parameters: [{ key: '1x', type: 'number' }] }).expect(400);
      expect(fieldsOf(badParam)).toEqual([{ path: 'body.parameters[0].key', rule: 'pattern' }]);
      await admin.post(versionsPath(randomUUID()), { graph: templateGraph() }).expect(404);

      const v1 = await admin.post(versionsPath(flowTemplateId), { graph: templateGraph() }).expect(201);
      expect(v1.headers.location).toBe(`${versionsPath(flowTemplateId)}/${v1.body.flowTemplateVersionId}`);
      expect(v1.body).toEqual({
        flowTemplateVersionId: expect.any(String),
        flowTemplateId,
        versionNumber: 1,
        status: 'draft',
        graph: templateGraph(),
        parameters: [],
        requiredFields: null,
        checksum: null,
        createdAt: expect.any(String),
        releasedAt: null,
        deprecatedAt: null,
      });
      const v2 = await admin.post(versionsPath(flowTemplateId), { graph: templateGraph(0.2), parameters: [{ key: 'factor', type: 'number' }] }).expect(201);
      expect(v2.body).toMatchObject({ versionNumber: 2, parameters: [{ key: 'factor', type: 'number', defaultValue: null }] });
      const list = await viewer.get(versionsPath(flowTemplateId)).expect(200);
      expect(list.body.items.map((item: { versionNumber: number }) => item.versionNumber)).toEqual([2, 1]);
      const paged = await viewer.get(`${versionsPath(flowTemplateId)}?limit=1`).expect(200);
      expect(paged.body.items).toHaveLength(1);
      const next = await viewer.get(`${versionsPath(flowTemplateId)}?limit=1&cursor=${paged.body.nextCursor}`).expect(200);
      expect(next.body.items[0].versionNumber).toBe(1);
      expect((await viewer.get(`${versionsPath(flowTemplateId)}/${v1.body.flowTemplateVersionId}`).expect(200)).body).toEqual(v1.body);
      const other = await createTemplate();
      const wrongParent = await viewer.get(`${versionsPath(other.flowTemplateId)}/${v1.body.flowTemplateVersionId}`).expect(404);
      expect(wrongParent.body.error.details.resourceType).toBe('flow_template_version');
      expect(await auditRows(t, 'flow_template_version', v1.body.flowTemplateVersionId, 'flow_template_version.created')).toEqual([
        expect.objectContaining({ tenant_id: null, metadata: expect.objectContaining({ flowTemplateId, versionNumber: 1 }) }),
      ]);
    });

    it('validates with the flows’ rules: a tenant block is unknown_block, a draft global block not released, a literal e-mail template unknown', async () => {
      const { flowTemplateId } = await createTemplate();
      const tenantBlock = await globalBlockVersion('released', tenant.tenantNumber);
      const draftGlobal = await globalBlockVersion('draft');
      const releasedGlobal = await globalBlockVersion('released');
      const custom = (id: string) => blockNode('custom', '', {}, { type: 'custom', flowBlockVersionId: id });
      const withCustom = (id: string) => {
        const graph = templateGraph();
        graph.nodes.push(custom(id));
        graph.edges = [{ fromNodeId: 'decode', toNodeId: 'custom' }, { fromNodeId: 'custom', toNodeId: 'scale' }, ...graph.edges.slice(1)];
        return graph;
      };
      const report = async (graph: unknown, parameters: unknown[] = []) => {
        const version = await admin.post(versionsPath(flowTemplateId), { graph, parameters }).expect(201);
        const res = await viewer.post(`${versionsPath(flowTemplateId)}/${version.body.flowTemplateVersionId}/validate`).expect(200);
        return { versionId: version.body.flowTemplateVersionId as string, body: res.body };
      };

      const foreign = await report(withCustom(tenantBlock));
      expect(foreign.body).toMatchObject({ flowTemplateVersionId: foreign.versionId, valid: false });
      expect(foreign.body.issues).toEqual([expect.objectContaining({ severity: 'error', code: 'unknown_block', path: 'graph.nodes[4].block.flowBlockVersionId' })]);
      const refused = await admin.post(`${versionsPath(flowTemplateId)}/${foreign.versionId}/release`).expect(422);
      expect(refused.body.error.details).toMatchObject({ gate: 'compile', issues: [expect.objectContaining({ code: 'unknown_block' })] });
      expect(await auditRows(t, 'flow_template_version', foreign.versionId, 'flow_template_version.release_failed')).toEqual([
        expect.objectContaining({ outcome: 'failure', status_code: 422 }),
      ]);
      expect((await viewer.get(`${versionsPath(flowTemplateId)}/${foreign.versionId}`).expect(200)).body.status).toBe('draft');

      expect((await report(withCustom(draftGlobal))).body.issues.map((issue: { code: string }) => issue.code)).toEqual(['block_version_not_released']);
      const ok = await report(withCustom(releasedGlobal));
      expect(ok.body).toMatchObject({ valid: true, issues: [], requiredFields: [{ key: 'level', schemaRef: NUMBER_REF, storageTargets: ['current', 'timeseries'] }] });

      const alert = blockNode('alert', 'email-action', { emailTemplateId: randomUUID() });
      const literal = await report(templateGraph(0.1, [alert], [{ fromNodeId: 'scale', toNodeId: 'alert' }]));
      expect(literal.body.issues).toEqual([expect.objectContaining({ code: 'unknown_email_template', path: 'graph.nodes[4].configuration.emailTemplateId' })]);
      const viaParam = await report(
        templateGraph(0.1, [blockNode('alert', 'email-action', { emailTemplateId: { $param: 'alertTemplate' } })], [{ fromNodeId: 'scale', toNodeId: 'alert' }]),
        [{ key: 'alertTemplate', type: 'string', defaultValue: null }],
      );
      expect(viaParam.body).toMatchObject({ valid: true, issues: [] });

      // The outputs must agree on a field's schemaRef: that is what the template requires of a device type.
      const clash = templateGraph();
      (clash.nodes[3]!.configuration as { fields: { schemaRef: string }[] }).fields[0]!.schemaRef = 'platform://schemas/string/v1';
      expect((await report(clash)).body.issues).toEqual([expect.objectContaining({ code: 'schema_ref_mismatch', path: 'graph.nodes[3].configuration.fields[0].schemaRef' })]);
      await viewer.post(`${versionsPath(flowTemplateId)}/${randomUUID()}/validate`).expect(404);
    });

    it('releases with the checksum exactly as flows compute it and the required fields; deprecates; illegal moves are 409', async () => {
      const graph = templateGraph(0.5, [], []);
      (graph.nodes[3]!.configuration as { fields: unknown[] }).fields.push({ fieldKey: 'raw', schemaRef: NUMBER_REF });
      const parameters = [{ key: 'factor', type: 'number', defaultValue: 2 }];
      const { templateId, versionId, released } = await releasedTemplate(graph, parameters);
      const checksum = createHash('sha256').update(canonicalize({ graph, parameters })!, 'utf8').digest('hex');
      expect(released).toMatchObject({
        status: 'released',
        checksum,
        releasedAt: expect.stringMatching(/Z$/),
        requiredFields: [
          { key: 'level', schemaRef: NUMBER_REF, storageTargets: ['current', 'timeseries'] },
          { key: 'raw', schemaRef: NUMBER_REF, storageTargets: ['timeseries'] },
        ],
      });
      expect(await auditRows(t, 'flow_template_version', versionId, 'flow_template_version.released')).toEqual([
        expect.objectContaining({ tenant_id: null, metadata: expect.objectContaining({ checksum, versionNumber: 1 }) }),
      ]);
      const again = await admin.post(`${versionsPath(templateId)}/${versionId}/release`).expect(409);
      expect(again.body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'released' });
      const deprecated = await admin.post(`${versionsPath(templateId)}/${versionId}/deprecate`).expect(200);
      expect(deprecated.body).toMatchObject({ status: 'deprecated', deprecatedAt: expect.any(String), checksum });
      expect((await admin.post(`${versionsPath(templateId)}/${versionId}/deprecate`).expect(409)).body.error.details.currentStatus).toBe('deprecated');
      const draft = await admin.post(versionsPath(templateId), { graph }).expect(201);
      expect((await admin.post(`${versionsPath(templateId)}/${draft.body.flowTemplateVersionId}/deprecate`).expect(409)).body.error.details.currentStatus).toBe('draft');
      // Versions are immutable in the database too.
      await expect(t.dataSource.query(`UPDATE flow_template_versions SET graph = '{}'::jsonb WHERE flow_template_version_id = $1`, [versionId])).rejects.toThrow(/immutable/);
    });
  });

  describe('copy into a flow', () => {
    it('copies a released version as a draft with the flow’s device type and its provenance; validate names the missing fields', async () => {
      const graph = templateGraph(0.1);
      (graph.nodes[2]!.configuration as { fields: unknown[] }).fields.push({ fieldKey: 'battery', schemaRef: NUMBER_REF });
      const { templateId, versionId } = await releasedTemplate(graph, [{ key: 'factor', type: 'number', defaultValue: 1 }]);
      // `level` only as a current value, `battery` a string, `missing` not at all.
      const { type, flowId } = await flowOf([{ key: 'level', targets: ['current'] }, { key: 'battery', kind: 'string' }]);

      const res = await copy(tenantAdmin, templateId, versionId, flowId).expect(201);
      expect(res.headers.location).toBe(`/v1/flows/${flowId}/versions/${res.body.flowVersionId}`);
      expect(res.body).toMatchObject({
        flowId,
        tenantId: tenant.tenantId,
        versionNumber: 2,
        status: 'draft',
        graph: { ...graph, deviceTypeId: type.deviceTypeId },
        parameters: [{ key: 'factor', type: 'number', defaultValue: 1 }],
        sourceTemplate: { flowTemplateId: templateId, flowTemplateVersionId: versionId, versionNumber: 1 },
      });
      const read = await viewer.get(`/v1/flows/${flowId}/versions/${res.body.flowVersionId}`).expect(200);
      expect(read.body.sourceTemplate).toEqual({ flowTemplateId: templateId, flowTemplateVersionId: versionId, versionNumber: 1 });
      const versions = await viewer.get(`/v1/flows/${flowId}/versions`).expect(200);
      expect(versions.body.items.map((item: { sourceTemplate: unknown }) => item.sourceTemplate)).toEqual([read.body.sourceTemplate, null]);

      const report = await viewer.post(`/v1/flows/${flowId}/versions/${res.body.flowVersionId}/validate`).expect(200);
      expect(report.body.valid).toBe(false);
      expect(report.body.issues.map((issue: { code: string; path: string }) => [issue.code, issue.path])).toEqual([
        ['schema_ref_mismatch', 'graph.nodes[2].configuration.fields[1].schemaRef'],
        ['field_target_mismatch', 'graph.nodes[3].configuration.fields[0].fieldKey'],
      ]);
      await tenantAdmin.post(`/v1/flows/${flowId}/versions/${res.body.flowVersionId}/release`).expect(422);

      const audit = await auditRows(t, 'flow_template_version', versionId, 'flow_template_version.copied');
      expect(audit).toEqual([
        expect.objectContaining({
          tenant_id: tenant.tenantId,
          actor_type: 'user',
          outcome: 'success',
          status_code: 201,
          metadata: expect.objectContaining({ flowTemplateId: templateId, flowTemplateVersionId: versionId, flowId, flowVersionId: res.body.flowVersionId }),
        }),
      ]);
      expect(await auditRows(t, 'flow_version', res.body.flowVersionId, 'flow_version.created')).toHaveLength(1);

      // With the fields the template requires, a copy validates and releases.
      const ready = await flowOf([{ key: 'level' }, { key: 'battery', targets: ['current'] }]);
      const good = await copy(tenantAdmin, templateId, versionId, ready.flowId).expect(201);
      expect((await viewer.post(`/v1/flows/${ready.flowId}/versions/${good.body.flowVersionId}/validate`).expect(200)).body).toMatchObject({ valid: true, issues: [] });
      await tenantAdmin.post(`/v1/flows/${ready.flowId}/versions/${good.body.flowVersionId}/release`).expect(200);
    });

    it('a field the device type lacks is unknown_field in the copy’s report', async () => {
      const { templateId, versionId } = await releasedTemplate();
      const { flowId } = await flowOf([]);
      const res = await copy(admin, templateId, versionId, flowId).expect(201);
      const report = await admin.post(`/v1/flows/${flowId}/versions/${res.body.flowVersionId}/validate`).expect(200);
      expect(report.body.issues.map((issue: { code: string; message: string }) => issue.code)).toEqual(['unknown_field', 'unknown_field']);
      expect(report.body.issues[0].message).toContain('"level"');
    });

    it('409 version_not_released for a draft and a deprecated version; 404 for a missing one; nothing copied', async () => {
      const { templateId, versionId } = await releasedTemplate();
      const draft = await admin.post(versionsPath(templateId), { graph: templateGraph(0.3) }).expect(201);
      const { flowId } = await flowOf([{ key: 'level' }]);
      const ofDraft = await copy(tenantAdmin, templateId, draft.body.flowTemplateVersionId, flowId).expect(409);
      expect(ofDraft.body.error.details).toMatchObject({ reason: 'version_not_released', currentStatus: 'draft' });
      await admin.post(`${versionsPath(templateId)}/${versionId}/deprecate`).expect(200);
      const ofDeprecated = await copy(tenantAdmin, templateId, versionId, flowId).expect(409);
      expect(ofDeprecated.body.error.details).toMatchObject({ reason: 'version_not_released', currentStatus: 'deprecated' });
      const missing = await copy(tenantAdmin, templateId, randomUUID(), flowId).expect(404);
      expect(missing.body.error.details.resourceType).toBe('flow_template_version');
      await copy(tenantAdmin, randomUUID(), versionId, flowId).expect(404);
      expect((await viewer.get(`/v1/flows/${flowId}/versions`).expect(200)).body.items).toHaveLength(1);
    });

    it('a viewer cannot copy (403); another tenant’s flow is the same 400 as a missing one; bad bodies are 400', async () => {
      const { templateId, versionId } = await releasedTemplate();
      const { flowId } = await flowOf([{ key: 'level' }]);
      const denied = await copy(viewer, templateId, versionId, flowId).expect(403);
      expect(denied.body.error.details).toMatchObject({ reason: 'missing_permission', permission: 'flows:write' });

      const other = await seedTenant(t);
      const foreignFlow = await flowOf([{ key: 'level' }], other);
      const foreign = await copy(tenantAdmin, templateId, versionId, foreignFlow.flowId).expect(400);
      const random = await copy(tenantAdmin, templateId, versionId, randomUUID()).expect(400);
      expect(fieldsOf(foreign)).toEqual([{ path: 'body.flowId', rule: 'reference_not_found' }]);
      expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(random));
      expect((await admin.get(`/v1/flows/${foreignFlow.flowId}/versions`).expect(200)).body.items).toHaveLength(1);

      expect(fieldsOf(await tenantAdmin.post(`${versionsPath(templateId)}/${versionId}/copy`, {}).expect(400))).toEqual([{ path: 'body.flowId', rule: 'required' }]);
      expect(fieldsOf(await tenantAdmin.post(`${versionsPath(templateId)}/${versionId}/copy`, { flowId: 'x' }).expect(400))).toEqual([{ path: 'body.flowId', rule: 'format' }]);
    });
  });

  describe('upgrade path', () => {
    it('shows templateUpdate after a newer release; copy, validate, dry-run replay with a diff, release, activate', async () => {
      const { templateId, versionId: v1 } = await releasedTemplate(templateGraph(0.1));
      const { type, flowId, etag } = await flowOf([{ key: 'level' }]);
      const first = await copy(tenantAdmin, templateId, v1, flowId).expect(201);
      await tenantAdmin.post(`/v1/flows/${flowId}/versions/${first.body.flowVersionId}/release`).expect(200);
      const activated = await tenantAdmin.post(`/v1/flows/${flowId}/activate`, { flowVersionId: first.body.flowVersionId }).set('If-Match', etag).expect(200);
      expect(activated.body.templateUpdate).toBeNull();

      // Stored uplinks of the last days (value 100 -> 10.0 with the active version).
      const device = await seedDevice(t, tenant, type);
      const now = Date.now();
      for (let day = 3; day >= 1; day--) {
        await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: device.deviceId, devEui: device.devEui, observedAt: new Date(now - day * 86_400_000), value: 100 + day });
      }

      // A newer draft is not an update; a newer release is, and the list shows it too.
      const v2 = await admin.post(versionsPath(templateId), { graph: templateGraph(0.2) }).expect(201);
      expect((await viewer.get(`/v1/flows/${flowId}`).expect(200)).body.templateUpdate).toBeNull();
      await admin.post(`${versionsPath(templateId)}/${v2.body.flowTemplateVersionId}/release`).expect(200);
      const flow = await viewer.get(`/v1/flows/${flowId}`).expect(200);
      expect(flow.body.templateUpdate).toEqual({ flowTemplateVersionId: v2.body.flowTemplateVersionId, versionNumber: 2 });
      const listed = await viewer.get(`/v1/tenants/${tenant.tenantNumber}/flows?deviceTypeId=${type.deviceTypeId}`).expect(200);
      expect(listed.body.items[0].templateUpdate).toEqual(flow.body.templateUpdate);

      // The upgrade walk.
      const candidate = await copy(tenantAdmin, templateId, v2.body.flowTemplateVersionId, flowId).expect(201);
      expect(candidate.body.sourceTemplate).toMatchObject({ versionNumber: 2 });
      expect((await viewer.post(`/v1/flows/${flowId}/versions/${candidate.body.flowVersionId}/validate`).expect(200)).body.valid).toBe(true);
      await tenantAdmin.post(`/v1/flows/${flowId}/versions/${candidate.body.flowVersionId}/release`).expect(200);
      const replay = await tenantAdmin
        .post(`/v1/flows/${flowId}/replays`, {
          from: new Date(now - 7 * 86_400_000).toISOString(),
          to: new Date(now).toISOString(),
          flowVersionId: candidate.body.flowVersionId,
          dryRun: true,
        })
        .expect(202);
      let done: Record<string, unknown> = {};
      await waitUntil(async () => {
        done = (await viewer.get(`/v1/flows/${flowId}/replays/${replay.body.replayId}`).expect(200)).body;
        return done.status === 'succeeded' || done.status === 'failed';
      }, 30_000, 'the dry-run replay');
      expect(done).toMatchObject({ status: 'succeeded', dryRun: true, processedMessages: 3, succeeded: 3 });
      expect(done.diff).toMatchObject({ comparedWith: first.body.flowVersionId, messagesCompared: 3, identical: 0, changed: 3, fields: { level: { changed: 3, maxAbsDelta: 10.3 } } });

      const before = await viewer.get(`/v1/flows/${flowId}`).expect(200);
      const upgraded = await tenantAdmin.post(`/v1/flows/${flowId}/activate`, { flowVersionId: candidate.body.flowVersionId }).set('If-Match', before.headers.etag as string).expect(200);
      expect(upgraded.body).toMatchObject({ activeVersionId: candidate.body.flowVersionId, activeVersionNumber: 3, templateUpdate: null });

      // A deprecated newer version is never offered.
      const v3 = await admin.post(versionsPath(templateId), { graph: templateGraph(0.3) }).expect(201);
      await admin.post(`${versionsPath(templateId)}/${v3.body.flowTemplateVersionId}/release`).expect(200);
      expect((await viewer.get(`/v1/flows/${flowId}`).expect(200)).body.templateUpdate).toEqual({ flowTemplateVersionId: v3.body.flowTemplateVersionId, versionNumber: 3 });
      await admin.post(`${versionsPath(templateId)}/${v3.body.flowTemplateVersionId}/deprecate`).expect(200);
      expect((await viewer.get(`/v1/flows/${flowId}`).expect(200)).body.templateUpdate).toBeNull();
    }, 60_000);
  });

  describe('the starter catalog (templates/*.json)', () => {
    interface CatalogFixture {
      name: string;
      input: { rawPayload: unknown; connectionData?: Record<string, unknown>; parameters?: Record<string, unknown> };
      assertions: unknown[];
    }
    const shipped = ['generic-temperature-humidity', 'temperature-threshold-alert', 'uplink-room-sensor'];

    it('seeds idempotently: a second run changes nothing, a changed file becomes a new released version', async () => {
      const seeder = t.app.get(TemplateCatalogSeeder);
      const first = await seeder.seed(CATALOG_DIR);
      expect(first.templates.map((entry) => [entry.key, entry.action, entry.versionNumber]).sort()).toEqual(shipped.map((key) => [key, 'created', 1]));
      expect(first.blocks).toEqual([{ key: 'uplink-room-sensor-codec', action: 'created', versionNumber: 1 }]);
      const counts = async () =>
        (
          await t.dataSource.query<{ templates: number; versions: number; blocks: number; block_versions: number; audit: number }[]>(
            `SELECT (SELECT count(*)::int FROM flow_templates) AS templates, (SELECT count(*)::int FROM flow_template_versions) AS versions,
                    (SELECT count(*)::int FROM flow_blocks) AS blocks, (SELECT count(*)::int FROM flow_block_versions) AS block_versions,
                    (SELECT count(*)::int FROM audit_log) AS audit`,
          )
        )[0];
      const afterFirst = await counts();
      const second = await seeder.seed(CATALOG_DIR);
      expect(second.templates.every((entry) => entry.action === 'unchanged' && entry.versionNumber === 1)).toBe(true);
      expect(second.blocks).toEqual([{ key: 'uplink-room-sensor-codec', action: 'unchanged', versionNumber: 1 }]);
      expect(await counts()).toEqual(afterFirst);
      const [seededAudit] = await t.dataSource.query<{ actor_type: string }[]>(`SELECT actor_type FROM audit_log WHERE event_type = 'flow_template.created' ORDER BY occurred_at DESC LIMIT 1`);
      expect(seededAudit!.actor_type).toBe('system');

      const dir = mkdtempSync(join(tmpdir(), 'templates-'));
      try {
        cpSync(CATALOG_DIR, dir, { recursive: true });
        const file = join(dir, 'generic-temperature-humidity.json');
        const changed = JSON.parse(readFileSync(file, 'utf8'));
        changed.parameters[0].defaultValue = 0.25;
        writeFileSync(file, JSON.stringify(changed));
        const codec = join(dir, 'codecs', 'uplink-room-sensor.js');
        writeFileSync(codec, `${readFileSync(codec, 'utf8')}\n// firmware 2 comment\n`);
        const third = await seeder.seed(dir);
        expect(third.templates.map((entry) => [entry.key, entry.action, entry.versionNumber]).sort()).toEqual([
          ['generic-temperature-humidity', 'new_version', 2],
          ['temperature-threshold-alert', 'unchanged', 1],
          // The template's graph names the codec's new version, so the template changes too.
          ['uplink-room-sensor', 'new_version', 2],
        ]);
        expect(third.blocks).toEqual([{ key: 'uplink-room-sensor-codec', action: 'new_version', versionNumber: 2 }]);
        expect((await seeder.seed(dir)).templates.every((entry) => entry.action === 'unchanged')).toBe(true);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }, 60_000);

    it.each(shipped)('%s: copied into a flow of a type with its required fields, valid, released, and its fixtures pass', async (key) => {
      const seeder = t.app.get(TemplateCatalogSeeder);
      await seeder.seed(CATALOG_DIR);
      const catalog = await viewer.get(`/v1/flow-templates?status=released&q=${key}`).expect(200);
      const template = catalog.body.items.find((item: { key: string }) => item.key === key);
      expect(template.requiredFields.length).toBeGreaterThan(0);

      const type: SeededDeviceType = await seedDeviceType(t, tenant);
      for (const field of template.requiredFields as { key: string; schemaRef: string; storageTargets: ('current' | 'timeseries')[] }[]) {
        await seedField(t, tenant, type, { key: field.key, targets: field.storageTargets, kind: /schemas\/(\w+)\//.exec(field.schemaRef)![1] as 'number' });
      }
      const flow = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey('flow'), name: template.name }).expect(201);
      const flowId = flow.body.flowId as string;
      const copied = await copy(tenantAdmin, template.flowTemplateId, template.latestReleasedVersionId, flowId).expect(201);
      const report = await viewer.post(`/v1/flows/${flowId}/versions/${copied.body.flowVersionId}/validate`).expect(200);
      expect(report.body.issues.filter((issue: { severity: string }) => issue.severity === 'error')).toEqual([]);
      await tenantAdmin.post(`/v1/flows/${flowId}/versions/${copied.body.flowVersionId}/release`).expect(200);

      const file = JSON.parse(readFileSync(join(CATALOG_DIR, `${key === 'temperature-threshold-alert' ? 'threshold-alert' : key}.json`), 'utf8')) as { fixtures: CatalogFixture[] };
      expect(file.fixtures.length).toBeGreaterThanOrEqual(2);
      for (const [index, fixture] of file.fixtures.entries()) {
        await tenantAdmin
          .post(`/v1/flows/${flowId}/fixtures`, {
            name: fixture.name,
            input: {
              mode: 'fixture',
              rawPayload: fixture.input.rawPayload,
              observedAt: '2026-03-01T10:00:00.000Z',
              rawReceivedAt: '2026-03-01T10:00:01.000Z',
              tenantId: tenant.tenantId,
              deviceId: randomUUID(),
              deviceTypeId: type.deviceTypeId,
              correlationId: `catalog-${index}`,
              connectionData: fixture.input.connectionData ?? {},
              parameters: fixture.input.parameters ?? {},
            },
            assertions: fixture.assertions,
          })
          .expect(201);
      }
      const run = await tenantAdmin.post(`/v1/flows/${flowId}/fixture-runs`, { flowVersionId: copied.body.flowVersionId }).expect(200);
      expect({ key, failed: run.body.results.filter((result: { passed: boolean }) => !result.passed) }).toEqual({ key, failed: [] });
      expect(run.body).toMatchObject({ total: file.fixtures.length, passed: file.fixtures.length, failed: 0 });
    }, 60_000);
  });
});
