import { randomUUID } from 'node:crypto';
import { auditRows } from './support/audit';
import { loginAdmin } from './support/auth';
import { seedDevice } from './support/devices';
import { seedExecution } from './support/executions';
import { bend, blockNode, pipelineGraph } from './support/flows';
import { as, fieldsOf } from './support/http';
import { member, Member } from './support/member';
import { LiveFlow, seedLiveFlow } from './support/processing';
import { seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;

/*
 * E-mail templates and their versions through HTTP: create, list, read and rename a template (If-Match), immutable
 * versions whose texts are checked at save, release, deprecate and activation with If-Match, previews, and the flow
 * validation that looks the templates up.
 */
let t: TestApp;
let admin: Api;
let tenant: SeededTenant;
let other: SeededTenant;
let tenantAdmin: Member;
let operator: Member;
let viewer: Member;
let outsider: Member;
let counter = 0;
const uniqueKey = () => `alert-${process.pid}-${++counter}`;

const body = { subject: 'Leak at {{device.name}}', bodyText: 'Level {{values.level}} at {{observedAt}}', bodyHtml: '<p>{{device.name}}: {{values.level}}</p>' };

async function createTemplate(api: Api = tenantAdmin.api, target = tenant) {
  const res = await api.post(`/v1/tenants/${target.tenantNumber}/email-templates`, { key: uniqueKey(), name: 'Leak alert' }).expect(201);
  return res.body as { emailTemplateId: string; lockVersion: number; key: string };
}

const versionsPath = (templateId: string) => `/v1/email-templates/${templateId}/versions`;

async function releasedVersion(templateId: string, texts: Record<string, unknown> = body): Promise<string> {
  const draft = await tenantAdmin.api.post(versionsPath(templateId), texts).expect(201);
  await tenantAdmin.api.post(`${versionsPath(templateId)}/${draft.body.emailTemplateVersionId}/release`).expect(200);
  return draft.body.emailTemplateVersionId;
}

async function etagOf(templateId: string): Promise<string> {
  return (await tenantAdmin.api.get(`/v1/email-templates/${templateId}`).expect(200)).headers.etag as string;
}

beforeAll(async () => {
  t = await startTestApp();
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t, { name: 'Acme Water' });
  other = await seedTenant(t);
  tenantAdmin = await member(t, tenant, 'tenant_admin');
  operator = await member(t, tenant, 'tenant_operator');
  viewer = await member(t, tenant, 'tenant_viewer');
  outsider = await member(t, other, 'tenant_admin');
});
afterAll(() => t.close());

describe('templates', () => {
  it('creates a template: 201, ETag "1", Location, no active version; audited', async () => {
    const key = uniqueKey();
    const res = await tenantAdmin.api
      .post(`/v1/tenants/${tenant.tenantNumber}/email-templates`, { key, name: 'Leak alert', description: 'Pipes' })
      .expect(201);
    expect(res.headers.etag).toBe('"1"');
    expect(res.headers.location).toBe(`/v1/email-templates/${res.body.emailTemplateId}`);
    expect(res.body).toEqual({
      emailTemplateId: expect.any(String),
      tenantId: tenant.tenantId,
      key,
      name: 'Leak alert',
      description: 'Pipes',
      activeVersionId: null,
      activeVersionNumber: null,
      lockVersion: 1,
      createdAt: expect.stringMatching(/\.\d{3}Z$/),
      updatedAt: expect.any(String),
    });
    const [audit] = await auditRows(t, 'email_template', res.body.emailTemplateId, 'email_template.created');
    expect(audit).toMatchObject({ tenant_id: tenant.tenantId, outcome: 'success', status_code: 201, metadata: { key, name: 'Leak alert' } });
  });

  it('refuses a duplicate key (409 duplicate_key), a bad key or a blank name (400)', async () => {
    const { key } = await createTemplate();
    const dup = await tenantAdmin.api.post(`/v1/tenants/${tenant.tenantNumber}/email-templates`, { key, name: 'Again' }).expect(409);
    expect(dup.body.error.details.reason).toBe('duplicate_key');
    // The same key in another tenant is fine.
    await outsider.api.post(`/v1/tenants/${other.tenantNumber}/email-templates`, { key, name: 'Theirs' }).expect(201);
    const bad = await tenantAdmin.api.post(`/v1/tenants/${tenant.tenantNumber}/email-templates`, { key: 'Not A Key', name: ' ', extra: 1 }).expect(400);
    expect(fieldsOf(bad)).toEqual(
      expect.arrayContaining([
        { path: 'body.key', rule: 'pattern' },
        { path: 'body.name', rule: 'blank' },
        { path: 'body.extra', rule: 'unknown_property' },
      ]),
    );
  });

  it('lists the tenant’s templates ascending with q, totalCount and a cursor', async () => {
    const fresh = await seedTenant(t);
    const freshAdmin = await member(t, fresh, 'tenant_admin');
    const created: string[] = [];
    for (const name of ['Leak alert', 'Freezer warm', 'Leak summary']) {
      const res = await freshAdmin.api.post(`/v1/tenants/${fresh.tenantNumber}/email-templates`, { key: uniqueKey(), name }).expect(201);
      created.push(res.body.emailTemplateId);
    }
    const all = await freshAdmin.api.get(`/v1/tenants/${fresh.tenantNumber}/email-templates`).expect(200);
    expect(all.body.items.map((item: { emailTemplateId: string }) => item.emailTemplateId)).toEqual(created);
    expect(all.body.totalCount).toBe(3);
    const leak = await freshAdmin.api.get(`/v1/tenants/${fresh.tenantNumber}/email-templates?q=LEAK`).expect(200);
    expect(leak.body.items.map((item: { name: string }) => item.name)).toEqual(['Leak alert', 'Leak summary']);
    expect(leak.body.totalCount).toBe(2);
    const bad = await freshAdmin.api.get(`/v1/tenants/${fresh.tenantNumber}/email-templates?limit=7`).expect(400);
    expect(fieldsOf(bad)).toEqual([{ path: 'query.limit', rule: 'enum' }]);
    await freshAdmin.api.get(`/v1/tenants/${fresh.tenantNumber}/email-templates?cursor=nope`).expect(400);
  });

  it('reads with an ETag; operators read, viewers are refused, other tenants get 404', async () => {
    const { emailTemplateId } = await createTemplate();
    const res = await operator.api.get(`/v1/email-templates/${emailTemplateId}`).expect(200);
    expect(res.headers.etag).toBe('"1"');
    const denied = await viewer.api.get(`/v1/email-templates/${emailTemplateId}`).expect(403);
    expect(denied.body.error.details).toMatchObject({ reason: 'missing_permission', permission: 'actions:read' });
    await viewer.api.get(`/v1/tenants/${tenant.tenantNumber}/email-templates`).expect(403);
    const foreign = await outsider.api.get(`/v1/email-templates/${emailTemplateId}`).expect(404);
    expect(foreign.body.error.details.resourceType).toBe('email_template');
    await tenantAdmin.api.get(`/v1/email-templates/${randomUUID()}`).expect(404);
    await tenantAdmin.api.get(`/v1/email-templates/not-a-uuid`).expect(400);
    await outsider.api.get(`/v1/tenants/${tenant.tenantNumber}/email-templates`).expect(404);
  });

  it('PATCH needs If-Match: missing 400, stale 409, fresh 200 with lockVersion + 1; key immutable; operators refused', async () => {
    const { emailTemplateId } = await createTemplate();
    const path = `/v1/email-templates/${emailTemplateId}`;
    expect(fieldsOf(await tenantAdmin.api.patch(path, { name: 'Renamed' }).expect(400))).toEqual([{ path: 'headers.if-match', rule: 'required' }]);
    await operator.api.patch(path, { name: 'Renamed' }).set('If-Match', '"1"').expect(403);
    const ok = await tenantAdmin.api.patch(path, { name: 'Renamed' }).set('If-Match', '"1"').expect(200);
    expect(ok.headers.etag).toBe('"2"');
    expect(ok.body).toMatchObject({ name: 'Renamed', lockVersion: 2 });
    const stale = await tenantAdmin.api.patch(path, { description: 'x' }).set('If-Match', '"1"').expect(409);
    expect(stale.body.error.details).toMatchObject({ reason: 'lock_version_mismatch', currentLockVersion: 2 });
    expect(fieldsOf(await tenantAdmin.api.patch(path, { key: 'other' }).set('If-Match', '"2"').expect(400))).toEqual([{ path: 'body.key', rule: 'unknown_property' }]);
    expect(fieldsOf(await tenantAdmin.api.patch(path, {}).set('If-Match', '"2"').expect(400))).toEqual([{ path: 'body', rule: 'min_properties' }]);
    await outsider.api.patch(path, { name: 'Mine' }).set('If-Match', '"2"').expect(404);
    const [audit] = await auditRows(t, 'email_template', emailTemplateId, 'email_template.updated');
    expect(audit!.metadata).toMatchObject({ changedFields: ['name'], name: { before: 'Leak alert', after: 'Renamed' }, lockVersion: { before: 1, after: 2 } });
  });
});

describe('versions', () => {
  it('creates immutable drafts numbered 1, 2, …; lists newest first without bodies; reads with bodies', async () => {
    const { emailTemplateId } = await createTemplate();
    const first = await tenantAdmin.api.post(versionsPath(emailTemplateId), body).expect(201);
    expect(first.headers.location).toBe(`${versionsPath(emailTemplateId)}/${first.body.emailTemplateVersionId}`);
    expect(first.body).toEqual({
      emailTemplateVersionId: expect.any(String),
      emailTemplateId,
      tenantId: tenant.tenantId,
      versionNumber: 1,
      status: 'draft',
      ...body,
      createdAt: expect.any(String),
      releasedAt: null,
      deprecatedAt: null,
    });
    const second = await tenantAdmin.api.post(versionsPath(emailTemplateId), { subject: 'Plain', bodyText: 'Text only' }).expect(201);
    expect(second.body).toMatchObject({ versionNumber: 2, bodyHtml: null });
    const list = await operator.api.get(versionsPath(emailTemplateId)).expect(200);
    expect(list.body.items.map((item: { versionNumber: number }) => item.versionNumber)).toEqual([2, 1]);
    expect(list.body.items[0]).not.toHaveProperty('bodyText');
    const paged = await operator.api.get(`${versionsPath(emailTemplateId)}?limit=1`).expect(200);
    expect(paged.body.items).toHaveLength(1);
    const next = await operator.api.get(`${versionsPath(emailTemplateId)}?limit=1&cursor=${paged.body.nextCursor}`).expect(200);
    expect(next.body.items[0].versionNumber).toBe(1);
    expect(next.body.nextCursor).toBeUndefined();
    const read = await operator.api.get(`${versionsPath(emailTemplateId)}/${first.body.emailTemplateVersionId}`).expect(200);
    expect(read.body.bodyHtml).toBe(body.bodyHtml);
    // A version of another template is that version's 404.
    const another = await createTemplate();
    const foreign = await operator.api.get(`${versionsPath(another.emailTemplateId)}/${first.body.emailTemplateVersionId}`).expect(404);
    expect(foreign.body.error.details.resourceType).toBe('email_template_version');
    await outsider.api.get(versionsPath(emailTemplateId)).expect(404);
    await operator.api.post(versionsPath(emailTemplateId), body).expect(403);
    const [audit] = await auditRows(t, 'email_template_version', first.body.emailTemplateVersionId, 'email_template_version.created');
    expect(JSON.stringify(audit!.metadata)).not.toContain('values.level');
  });

  it.each([
    ['a section', { subject: '{{#device.name}}x{{/device.name}}' }, 'body.subject', 'format'],
    ['an inverted section', { bodyText: '{{^values.level}}none{{/values.level}}' }, 'body.bodyText', 'format'],
    ['a partial', { bodyText: 'see {{> footer}}' }, 'body.bodyText', 'format'],
    ['triple braces', { bodyHtml: '<p>{{{device.name}}}</p>' }, 'body.bodyHtml', 'format'],
    ['an unescaped variable', { bodyHtml: '<p>{{&device.name}}</p>' }, 'body.bodyHtml', 'format'],
    ['a delimiter change', { bodyText: '{{=<% %>=}}<% device.name %>' }, 'body.bodyText', 'format'],
    ['an unclosed tag', { subject: 'Leak {{device.name' }, 'body.subject', 'format'],
    ['an unknown variable', { subject: 'Leak at {{device.secret}}' }, 'body.subject', 'unknown_variable'],
    ['a prefix without a key', { bodyText: '{{values.}}' }, 'body.bodyText', 'unknown_variable'],
    ['a too long subject', { subject: 'x'.repeat(201) }, 'body.subject', 'max_length'],
    ['an empty body', { bodyText: '' }, 'body.bodyText', 'min_length'],
    ['a missing body', { bodyText: undefined }, 'body.bodyText', 'required'],
    ['a too long HTML body', { bodyHtml: 'x'.repeat(100001) }, 'body.bodyHtml', 'max_length'],
  ])('refuses %s with 400 on the field', async (_name, change, path, rule) => {
    const { emailTemplateId } = await createTemplate();
    const res = await tenantAdmin.api.post(versionsPath(emailTemplateId), { ...body, ...change }).expect(400);
    expect(res.body.error.code).toBe('VALIDATION_FAILED');
    expect(fieldsOf(res)).toEqual([{ path, rule }]);
    if (rule === 'unknown_variable') expect(res.body.error.details.fields[0].message).toMatch(/tenant\.name/);
  });

  it('accepts every listed variable and a body of exactly 20000 characters', async () => {
    const { emailTemplateId } = await createTemplate();
    const all = '{{tenant.name}} {{device.name}} {{device.devEui}} {{device.metadata.floor}} {{organizationUnit.name}} {{organizationUnit.key}} {{values.a.b}} {{observedAt}} {{flow.name}} {{parameters.threshold}}';
    await tenantAdmin.api.post(versionsPath(emailTemplateId), { subject: 'All', bodyText: all, bodyHtml: all }).expect(201);
    await tenantAdmin.api.post(versionsPath(emailTemplateId), { subject: 'Long', bodyText: 'x'.repeat(20000), bodyHtml: null }).expect(201);
  });

  it('release, deprecate and activation follow the state rules; an active deprecated version stays active', async () => {
    const { emailTemplateId } = await createTemplate();
    const path = versionsPath(emailTemplateId);
    const draft = (await tenantAdmin.api.post(path, body).expect(201)).body.emailTemplateVersionId as string;
    const activate = (versionId: string, etag: string, api = tenantAdmin.api) =>
      api.post(`/v1/email-templates/${emailTemplateId}/activate`, { emailTemplateVersionId: versionId }).set('If-Match', etag);

    expect((await tenantAdmin.api.post(`${path}/${draft}/deprecate`).expect(409)).body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'draft' });
    expect((await activate(draft, '"1"').expect(409)).body.error.details).toMatchObject({ reason: 'version_not_released', currentStatus: 'draft' });
    await operator.api.post(`${path}/${draft}/release`).expect(403);
    const released = await tenantAdmin.api.post(`${path}/${draft}/release`).expect(200);
    expect(released.body).toMatchObject({ status: 'released', releasedAt: expect.any(String), deprecatedAt: null });
    expect((await tenantAdmin.api.post(`${path}/${draft}/release`).expect(409)).body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'released' });

    expect(fieldsOf(await tenantAdmin.api.post(`/v1/email-templates/${emailTemplateId}/activate`, { emailTemplateVersionId: draft }).expect(400))).toEqual([
      { path: 'headers.if-match', rule: 'required' },
    ]);
    await activate(draft, '"1"', operator.api).expect(403);
    const active = await activate(draft, '"1"').expect(200);
    expect(active.headers.etag).toBe('"2"');
    expect(active.body).toMatchObject({ activeVersionId: draft, activeVersionNumber: 1, lockVersion: 2 });
    expect((await activate(draft, '"1"').expect(409)).body.error.details).toMatchObject({ reason: 'lock_version_mismatch', currentLockVersion: 2 });
    expect((await activate(draft, '"2"').expect(409)).body.error.details).toMatchObject({ reason: 'already_active' });
    const foreignVersion = await releasedVersion((await createTemplate()).emailTemplateId);
    expect(fieldsOf(await activate(foreignVersion, '"2"').expect(400))).toEqual([{ path: 'body.emailTemplateVersionId', rule: 'reference_not_found' }]);

    const deprecated = await tenantAdmin.api.post(`${path}/${draft}/deprecate`).expect(200);
    expect(deprecated.body).toMatchObject({ status: 'deprecated', deprecatedAt: expect.any(String) });
    const stillActive = await tenantAdmin.api.get(`/v1/email-templates/${emailTemplateId}`).expect(200);
    expect(stillActive.body).toMatchObject({ activeVersionId: draft, lockVersion: 2 });
    expect((await tenantAdmin.api.post(`${path}/${draft}/deprecate`).expect(409)).body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'deprecated' });

    const v2 = await releasedVersion(emailTemplateId);
    await activate(v2, '"2"').expect(200);
    // A deprecated version can never be activated again.
    expect((await activate(draft, '"3"').expect(409)).body.error.details).toMatchObject({ reason: 'version_not_released', currentStatus: 'deprecated' });
    const stale = await activate(v2, await etagOf(emailTemplateId)).expect(409);
    expect(stale.body.error.details.reason).toBe('already_active');

    // Going back to a lower number is audited as an activation too, with the numbers before and after.
    const v3 = await releasedVersion(emailTemplateId);
    await activate(v3, '"3"').expect(200);
    const back = await activate(v2, '"4"').expect(200);
    expect(back.body).toMatchObject({ activeVersionNumber: 2, lockVersion: 5 });
    const rows = await auditRows(t, 'email_template', emailTemplateId);
    expect(rows.map((row) => row.event_type)).toEqual([
      'email_template.created',
      'email_template.activated',
      'email_template.activated',
      'email_template.activated',
      'email_template.activated',
    ]);
    expect(rows[4]!.metadata).toMatchObject({ versionNumber: { before: 3, after: 2 } });
    const versionEvents = (await auditRows(t, 'email_template_version', draft)).map((row) => row.event_type);
    expect(versionEvents).toEqual(['email_template_version.created', 'email_template_version.released', 'email_template_version.deprecated']);
  });

  it('flow validation sees the real templates: unknown_email_template, email_template_inactive, then no issue once active', async () => {
    const flow = await seedLiveFlow(t, admin, tenant);
    const issuesOf = async (emailTemplateId: string) => {
      const graph = bend(pipelineGraph(flow.type, 'level'), (g) => {
        g.nodes.push(blockNode('mail', 'email-action', { emailTemplateId }));
        g.edges.push({ fromNodeId: 'scale', toNodeId: 'mail' });
      });
      const draft = await admin.post(`/v1/flows/${flow.flowId}/versions`, { graph }).expect(201);
      const res = await admin.post(`/v1/flows/${flow.flowId}/versions/${draft.body.flowVersionId}/validate`).expect(200);
      return (res.body.issues as { code: string; severity: string; path: string }[]).filter((issue) => issue.path.startsWith('graph.nodes[4]')).map((issue) => [issue.severity, issue.code]);
    };
    const { emailTemplateId } = await createTemplate();
    expect(await issuesOf(emailTemplateId)).toEqual([['warning', 'email_template_inactive']]);
    const versionId = await releasedVersion(emailTemplateId);
    expect(await issuesOf(emailTemplateId)).toEqual([['warning', 'email_template_inactive']]);
    await tenantAdmin.api.post(`/v1/email-templates/${emailTemplateId}/activate`, { emailTemplateVersionId: versionId }).set('If-Match', '"1"').expect(200);
    expect(await issuesOf(emailTemplateId)).toEqual([]);
    const foreign = await createTemplate(outsider.api, other);
    expect(await issuesOf(foreign.emailTemplateId)).toEqual([['error', 'unknown_email_template']]);
  });
});

describe('render', () => {
  let flow: LiveFlow;
  let templateId: string;
  let versionId: string;
  const renderPath = () => `${versionsPath(templateId)}/${versionId}/render`;

  beforeAll(async () => {
    flow = await seedLiveFlow(t, admin, tenant);
    templateId = (await createTemplate()).emailTemplateId;
    versionId = (
      await tenantAdmin.api
        .post(versionsPath(templateId), {
          subject: 'Leak at {{device.name}} in {{organizationUnit.name}}',
          bodyText: '{{tenant.name}}: {{values.level}} (>{{parameters.threshold}}) at {{observedAt}}; floor {{device.metadata.floor}}; {{flow.name}}',
          bodyHtml: '<p>{{device.name}} {{values.note}}</p>',
        })
        .expect(201)
    ).body.emailTemplateVersionId;
  });

  it('renders a draft against a given context: HTML escaped, line breaks out of the subject, missing values empty; nothing sent', async () => {
    const res = await operator.api
      .post(renderPath(), {
        context: {
          device: { name: 'Pipe\r\n7 <b>', metadata: { floor: '2' } },
          values: { level: 3.5, note: '<script>alert(1)</script>' },
          parameters: { threshold: 2 },
        },
      })
      .expect(200);
    expect(res.body).toEqual({
      subject: 'Leak at Pipe 7 <b> in',
      bodyText: ': 3.5 (>2) at ; floor 2; ',
      bodyHtml: '<p>Pipe\r\n7 &lt;b&gt; &lt;script&gt;alert(1)&lt;&#x2F;script&gt;</p>',
    });
    const empty = await operator.api.post(renderPath(), {}).expect(200);
    expect(empty.body.subject).toBe('Leak at  in');
  });

  it('renders against an execution of the tenant', async () => {
    const unit = await seedUnit(t, tenant, null, { name: 'Boiler room' });
    const device = await seedDevice(t, tenant, flow.type, unit, { name: 'Pipe sensor 7' });
    await t.dataSource.query(`UPDATE flows SET name = 'Leak watch' WHERE flow_id = $1`, [flow.flowId]);
    const flowExecutionId = await seedExecution(t, {
      tenantId: tenant.tenantId,
      flowId: flow.flowId,
      flowVersionId: flow.versionId,
      versionNumber: 2,
      deviceId: device.deviceId,
      startedAt: new Date('2026-03-01T10:00:01.000Z'),
      parameters: { threshold: 5 },
      current: { level: 7.5 },
    });
    const res = await operator.api.post(renderPath(), { flowExecutionId }).expect(200);
    expect(res.body).toEqual({
      subject: 'Leak at Pipe sensor 7 in Boiler room',
      bodyText: 'Acme Water: 7.5 (>5) at 2026-03-01T10:00:00.000Z; floor ; Leak watch',
      bodyHtml: '<p>Pipe sensor 7 </p>',
    });
    // An execution of another tenant, or none: a body reference that names nothing.
    const theirs = await seedLiveFlow(t, admin, other);
    const theirDevice = await seedDevice(t, other, theirs.type);
    const foreign = await seedExecution(t, { tenantId: other.tenantId, flowId: theirs.flowId, flowVersionId: theirs.versionId, versionNumber: 2, deviceId: theirDevice.deviceId, startedAt: new Date() });
    expect(fieldsOf(await operator.api.post(renderPath(), { flowExecutionId: foreign }).expect(400))).toEqual([{ path: 'body.flowExecutionId', rule: 'reference_not_found' }]);
    expect(fieldsOf(await operator.api.post(renderPath(), { flowExecutionId: randomUUID() }).expect(400))).toEqual([{ path: 'body.flowExecutionId', rule: 'reference_not_found' }]);
    expect(fieldsOf(await operator.api.post(renderPath(), { flowExecutionId, context: {} }).expect(400))).toEqual([{ path: 'body.flowExecutionId', rule: 'mismatch' }]);
  });

  it('refuses a malformed context, a viewer and another tenant', async () => {
    const bad = await operator.api.post(renderPath(), { context: { device: { metadata: { floor: 2 } }, values: 'x', secret: 1 }, flowExecutionId: 'nope' }).expect(400);
    expect(fieldsOf(bad)).toEqual(
      expect.arrayContaining([
        { path: 'body.context.device.metadata', rule: 'type' },
        { path: 'body.context.values', rule: 'type' },
        { path: 'body.context.secret', rule: 'unknown_property' },
        { path: 'body.flowExecutionId', rule: 'format' },
      ]),
    );
    await viewer.api.post(renderPath(), {}).expect(403);
    await outsider.api.post(renderPath(), {}).expect(404);
    await operator.api.post(`${versionsPath(templateId)}/${randomUUID()}/render`, {}).expect(404);
  });
});
