import { randomUUID } from 'node:crypto';
import { auditRows } from './support/audit';
import { seedUser } from './support/auth';
import { seedDeviceType, SeededDeviceType } from './support/devices';
import { as, fieldsOf } from './support/http';
import { member, Member } from './support/member';
import { seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;

/*
 * Recipient bindings through HTTP: who a template's e-mail goes to (a member of the tenant or a plain address,
 * narrowed to a device type and a unit), the references they name, the duplicate rule and the limit per template,
 * and disable/reactivate.
 */
let t: TestApp;
let tenant: SeededTenant;
let other: SeededTenant;
let tenantAdmin: Member;
let operator: Member;
let viewer: Member;
let outsider: Member;
let type: SeededDeviceType;
let foreignType: SeededDeviceType;
let unit: SeededUnit;
let foreignUnit: SeededUnit;
let counter = 0;

const bindingsPath = () => `/v1/tenants/${tenant.tenantNumber}/recipient-bindings`;

async function createTemplate(api: Api = tenantAdmin.api, target = tenant): Promise<string> {
  const res = await api.post(`/v1/tenants/${target.tenantNumber}/email-templates`, { key: `bind-${process.pid}-${++counter}`, name: 'Alert' }).expect(201);
  return res.body.emailTemplateId;
}

beforeAll(async () => {
  t = await startTestApp();
  tenant = await seedTenant(t);
  other = await seedTenant(t);
  tenantAdmin = await member(t, tenant, 'tenant_admin');
  operator = await member(t, tenant, 'tenant_operator');
  viewer = await member(t, tenant, 'tenant_viewer');
  outsider = await member(t, other, 'tenant_admin');
  type = await seedDeviceType(t, tenant);
  foreignType = await seedDeviceType(t, other);
  unit = await seedUnit(t, tenant);
  foreignUnit = await seedUnit(t, other);
});
afterAll(() => t.close());

describe('create', () => {
  it('binds an address and a member: 201 with Location; a user binding shows the user’s current address; audited without it', async () => {
    const emailTemplateId = await createTemplate();
    const byAddress = await tenantAdmin.api
      .post(bindingsPath(), { emailTemplateId, recipientType: 'email', email: 'Night.Shift@Example.test', deviceTypeId: type.deviceTypeId })
      .expect(201);
    expect(byAddress.headers.location).toBe(`/v1/recipient-bindings/${byAddress.body.recipientBindingId}`);
    expect(byAddress.body).toEqual({
      recipientBindingId: expect.any(String),
      tenantId: tenant.tenantId,
      emailTemplateId,
      recipientType: 'email',
      userId: null,
      email: 'Night.Shift@Example.test',
      deviceTypeId: type.deviceTypeId,
      organizationUnitId: null,
      includeDescendants: true,
      status: 'active',
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const byUser = await tenantAdmin.api
      .post(bindingsPath(), { emailTemplateId, recipientType: 'user', userId: viewer.userId, organizationUnitId: unit.organizationUnitId, includeDescendants: false })
      .expect(201);
    expect(byUser.body).toMatchObject({ recipientType: 'user', userId: viewer.userId, email: viewer.user.email, organizationUnitId: unit.organizationUnitId, includeDescendants: false });
    await t.dataSource.query(`UPDATE users SET email = $2 WHERE user_id = $1`, [viewer.userId, `moved-${process.pid}@example.test`]);
    const read = await operator.api.get(`/v1/recipient-bindings/${byUser.body.recipientBindingId}`).expect(200);
    expect(read.body.email).toBe(`moved-${process.pid}@example.test`);

    const [audit] = await auditRows(t, 'recipient_binding', byAddress.body.recipientBindingId, 'recipient_binding.created');
    expect(audit).toMatchObject({ tenant_id: tenant.tenantId, outcome: 'success', status_code: 201, metadata: { emailTemplateId, recipientType: 'email' } });
    expect(JSON.stringify(audit!.metadata)).not.toMatch(/night\.shift/i);
  });

  it('refuses malformed bodies: the recipient field of the other type, a missing or invalid one, bad ids', async () => {
    const emailTemplateId = await createTemplate();
    const cases: [Record<string, unknown>, { path: string; rule: string }[]][] = [
      [{ emailTemplateId, recipientType: 'email' }, [{ path: 'body.email', rule: 'required' }]],
      [{ emailTemplateId, recipientType: 'user' }, [{ path: 'body.userId', rule: 'required' }]],
      [{ emailTemplateId, recipientType: 'email', email: 'a@x.test', userId: operator.userId }, [{ path: 'body.userId', rule: 'mismatch' }]],
      [{ emailTemplateId, recipientType: 'user', userId: operator.userId, email: 'a@x.test' }, [{ path: 'body.email', rule: 'mismatch' }]],
      [{ emailTemplateId, recipientType: 'email', email: 'not an address' }, [{ path: 'body.email', rule: 'format' }]],
      [{ emailTemplateId, recipientType: 'group', email: 'a@x.test' }, [{ path: 'body.recipientType', rule: 'enum' }]],
      [{ emailTemplateId: 'x', recipientType: 'email', email: 'a@x.test', deviceTypeId: 'y' }, [{ path: 'body.emailTemplateId', rule: 'format' }, { path: 'body.deviceTypeId', rule: 'format' }]],
      [{ emailTemplateId, recipientType: 'email', email: 'a@x.test', includeDescendants: 'yes' }, [{ path: 'body.includeDescendants', rule: 'type' }]],
      [{ emailTemplateId, recipientType: 'email', email: 'a@x.test', status: 'active' }, [{ path: 'body.status', rule: 'unknown_property' }]],
    ];
    for (const [payload, expected] of cases) {
      const res = await tenantAdmin.api.post(bindingsPath(), payload);
      expect([res.status, fieldsOf(res)]).toEqual([400, expected]);
    }
  });

  it('ids naming nothing in the tenant are 400 reference_not_found: template, device type, unit, and a user who is no member', async () => {
    const emailTemplateId = await createTemplate();
    const foreignTemplate = await createTemplate(outsider.api, other);
    const stranger = await seedUser(t);
    const formerMember = await seedUser(t);
    await seedGrant(t, formerMember.userId, tenant, 'tenant_admin', null, { status: 'disabled' });
    const res = await tenantAdmin.api
      .post(bindingsPath(), { emailTemplateId: foreignTemplate, recipientType: 'email', email: 'a@x.test', deviceTypeId: foreignType.deviceTypeId, organizationUnitId: foreignUnit.organizationUnitId })
      .expect(400);
    expect(fieldsOf(res)).toEqual([
      { path: 'body.emailTemplateId', rule: 'reference_not_found' },
      { path: 'body.deviceTypeId', rule: 'reference_not_found' },
      { path: 'body.organizationUnitId', rule: 'reference_not_found' },
    ]);
    for (const userId of [stranger.userId, formerMember.userId, outsider.userId, randomUUID()]) {
      const refused = await tenantAdmin.api.post(bindingsPath(), { emailTemplateId, recipientType: 'user', userId }).expect(400);
      expect(fieldsOf(refused)).toEqual([{ path: 'body.userId', rule: 'reference_not_found' }]);
    }
  });

  it('409 duplicate_binding for the same recipient (address in any case), device type and unit; another unit or type is fine', async () => {
    const emailTemplateId = await createTemplate();
    const base = { emailTemplateId, recipientType: 'email', email: 'ops@example.test', organizationUnitId: unit.organizationUnitId };
    await tenantAdmin.api.post(bindingsPath(), base).expect(201);
    const dup = await tenantAdmin.api.post(bindingsPath(), { ...base, email: 'OPS@Example.TEST', includeDescendants: false }).expect(409);
    expect(dup.body.error.details.reason).toBe('duplicate_binding');
    await tenantAdmin.api.post(bindingsPath(), { ...base, organizationUnitId: null }).expect(201);
    await tenantAdmin.api.post(bindingsPath(), { ...base, deviceTypeId: type.deviceTypeId }).expect(201);
    await tenantAdmin.api.post(bindingsPath(), { emailTemplateId, recipientType: 'user', userId: operator.userId }).expect(201);
    expect((await tenantAdmin.api.post(bindingsPath(), { emailTemplateId, recipientType: 'user', userId: operator.userId }).expect(409)).body.error.details.reason).toBe('duplicate_binding');
  });

  it('409 max_bindings past 500 active bindings of a template; disabled ones do not count', async () => {
    const emailTemplateId = await createTemplate();
    await t.dataSource.query(
      `INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email, status)
       SELECT $1, $2, 'email', 'r' || i || '@x.test', CASE WHEN i > 499 THEN 'disabled' ELSE 'active' END FROM generate_series(1, 510) AS i`,
      [tenant.tenantId, emailTemplateId],
    );
    const last = await tenantAdmin.api.post(bindingsPath(), { emailTemplateId, recipientType: 'email', email: 'last@x.test' }).expect(201);
    const over = await tenantAdmin.api.post(bindingsPath(), { emailTemplateId, recipientType: 'email', email: 'over@x.test' }).expect(409);
    expect(over.body.error.details.reason).toBe('max_bindings');
    await tenantAdmin.api.post(`/v1/recipient-bindings/${last.body.recipientBindingId}/disable`).expect(200);
    const [disabled] = await t.dataSource.query<{ recipient_binding_id: string }[]>(
      `SELECT recipient_binding_id FROM recipient_bindings WHERE email_template_id = $1 AND status = 'disabled' AND email <> 'last@x.test' LIMIT 1`,
      [emailTemplateId],
    );
    await tenantAdmin.api.post(`/v1/recipient-bindings/${disabled!.recipient_binding_id}/reactivate`).expect(200);
    const full = await tenantAdmin.api.post(`/v1/recipient-bindings/${last.body.recipientBindingId}/reactivate`).expect(409);
    expect(full.body.error.details.reason).toBe('max_bindings');
  });

  it('access: operators and viewers cannot bind, viewers cannot list, other tenants get 404', async () => {
    const emailTemplateId = await createTemplate();
    const payload = { emailTemplateId, recipientType: 'email', email: 'a@x.test' };
    expect((await operator.api.post(bindingsPath(), payload).expect(403)).body.error.details.permission).toBe('actions:write');
    await viewer.api.post(bindingsPath(), payload).expect(403);
    await viewer.api.get(bindingsPath()).expect(403);
    await outsider.api.post(bindingsPath(), payload).expect(404);
    await outsider.api.get(bindingsPath()).expect(404);
  });
});

describe('list, read, change', () => {
  let fresh: SeededTenant;
  let freshAdmin: Member;
  let templates: string[];
  let ids: string[];

  beforeAll(async () => {
    fresh = await seedTenant(t);
    freshAdmin = await member(t, fresh, 'tenant_admin');
    const freshType = await seedDeviceType(t, fresh);
    const freshUnit = await seedUnit(t, fresh);
    templates = [await createTemplate(freshAdmin.api, fresh), await createTemplate(freshAdmin.api, fresh)];
    const path = `/v1/tenants/${fresh.tenantNumber}/recipient-bindings`;
    ids = [];
    for (const payload of [
      { emailTemplateId: templates[0], recipientType: 'email', email: 'a@x.test' },
      { emailTemplateId: templates[0], recipientType: 'email', email: 'b@x.test', deviceTypeId: freshType.deviceTypeId },
      { emailTemplateId: templates[1], recipientType: 'email', email: 'c@x.test', organizationUnitId: freshUnit.organizationUnitId },
    ]) {
      ids.push((await freshAdmin.api.post(path, payload).expect(201)).body.recipientBindingId);
    }
    await freshAdmin.api.post(`/v1/recipient-bindings/${ids[1]}/disable`).expect(200);
  });

  const list = (query = '') => freshAdmin.api.get(`/v1/tenants/${fresh.tenantNumber}/recipient-bindings${query ? `?${query}` : ''}`);
  const idsOf = (res: { body: { items: { recipientBindingId: string }[] } }) => res.body.items.map((item) => item.recipientBindingId);

  it('lists ascending with exact filters and totalCount; disabled bindings stay listed', async () => {
    const all = await list().expect(200);
    expect(idsOf(all)).toEqual(ids);
    expect(all.body.totalCount).toBe(3);
    expect(idsOf(await list('status=disabled').expect(200))).toEqual([ids[1]]);
    expect(idsOf(await list('status=active').expect(200))).toEqual([ids[0], ids[2]]);
    expect(idsOf(await list(`emailTemplateId=${templates[0]}`).expect(200))).toEqual([ids[0], ids[1]]);
    const [{ device_type_id: typeId, organization_unit_id: unitId }] = await t.dataSource.query<{ device_type_id: string; organization_unit_id: string }[]>(
      `SELECT (SELECT device_type_id FROM recipient_bindings WHERE recipient_binding_id = $1) AS device_type_id,
              (SELECT organization_unit_id FROM recipient_bindings WHERE recipient_binding_id = $2) AS organization_unit_id`,
      [ids[1], ids[2]],
    );
    expect(idsOf(await list(`deviceTypeId=${typeId}`).expect(200))).toEqual([ids[1]]);
    expect(idsOf(await list(`organizationUnitId=${unitId}`).expect(200))).toEqual([ids[2]]);
    const first = await list('limit=25').expect(200);
    expect(first.body.nextCursor).toBeUndefined();
  });

  it('refuses bad filters: 400 format, enum, and reference_not_found for another tenant’s ids', async () => {
    expect(fieldsOf(await list('status=gone').expect(400))).toEqual([{ path: 'query.status', rule: 'enum' }]);
    expect(fieldsOf(await list('emailTemplateId=nope').expect(400))).toEqual([{ path: 'query.emailTemplateId', rule: 'format' }]);
    const theirs = await createTemplate(outsider.api, other);
    expect(fieldsOf(await list(`emailTemplateId=${theirs}&deviceTypeId=${type.deviceTypeId}`).expect(400))).toEqual([
      { path: 'query.emailTemplateId', rule: 'reference_not_found' },
      { path: 'query.deviceTypeId', rule: 'reference_not_found' },
    ]);
  });

  it('reads one; other tenants and unknown ids get 404', async () => {
    const res = await freshAdmin.api.get(`/v1/recipient-bindings/${ids[0]}`).expect(200);
    expect(res.body).toMatchObject({ recipientBindingId: ids[0], email: 'a@x.test', status: 'active' });
    expect((await tenantAdmin.api.get(`/v1/recipient-bindings/${ids[0]}`).expect(404)).body.error.details.resourceType).toBe('recipient_binding');
    await freshAdmin.api.get(`/v1/recipient-bindings/${randomUUID()}`).expect(404);
    await freshAdmin.api.get(`/v1/recipient-bindings/nope`).expect(400);
  });

  it('PATCH narrows or widens; the template and recipient are immutable; at least one property', async () => {
    const freshUnit = await seedUnit(t, fresh);
    const patched = await freshAdmin.api.patch(`/v1/recipient-bindings/${ids[0]}`, { organizationUnitId: freshUnit.organizationUnitId, includeDescendants: false }).expect(200);
    expect(patched.body).toMatchObject({ organizationUnitId: freshUnit.organizationUnitId, includeDescendants: false });
    const widened = await freshAdmin.api.patch(`/v1/recipient-bindings/${ids[0]}`, { organizationUnitId: null }).expect(200);
    expect(widened.body.organizationUnitId).toBeNull();
    expect(fieldsOf(await freshAdmin.api.patch(`/v1/recipient-bindings/${ids[0]}`, {}).expect(400))).toEqual([{ path: 'body', rule: 'min_properties' }]);
    expect(fieldsOf(await freshAdmin.api.patch(`/v1/recipient-bindings/${ids[0]}`, { email: 'z@x.test' }).expect(400))).toEqual([{ path: 'body.email', rule: 'unknown_property' }]);
    expect(fieldsOf(await freshAdmin.api.patch(`/v1/recipient-bindings/${ids[0]}`, { deviceTypeId: type.deviceTypeId }).expect(400))).toEqual([{ path: 'body.deviceTypeId', rule: 'reference_not_found' }]);
    await tenantAdmin.api.patch(`/v1/recipient-bindings/${ids[0]}`, { organizationUnitId: null }).expect(404);
    const [audit] = await auditRows(t, 'recipient_binding', ids[0]!, 'recipient_binding.updated');
    expect(audit!.metadata).toMatchObject({ changedFields: ['organizationUnitId', 'includeDescendants'], includeDescendants: { before: true, after: false } });
  });

  it('disable and reactivate are state moves (409 invalid_state); reactivating next to an equal active binding is duplicate_binding', async () => {
    const again = await freshAdmin.api.post(`/v1/recipient-bindings/${ids[1]}/disable`).expect(409);
    expect(again.body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'disabled' });
    await freshAdmin.api
      .post(`/v1/tenants/${fresh.tenantNumber}/recipient-bindings`, { emailTemplateId: templates[0], recipientType: 'email', email: 'B@x.test', deviceTypeId: (await freshAdmin.api.get(`/v1/recipient-bindings/${ids[1]}`)).body.deviceTypeId })
      .expect(201);
    expect((await freshAdmin.api.post(`/v1/recipient-bindings/${ids[1]}/reactivate`).expect(409)).body.error.details.reason).toBe('duplicate_binding');
    const active = await freshAdmin.api.post(`/v1/recipient-bindings/${ids[2]}/reactivate`).expect(409);
    expect(active.body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'active' });
    const disabled = await freshAdmin.api.post(`/v1/recipient-bindings/${ids[2]}/disable`).expect(200);
    expect(disabled.body.status).toBe('disabled');
    expect((await freshAdmin.api.post(`/v1/recipient-bindings/${ids[2]}/reactivate`).expect(200)).body.status).toBe('active');
    const events = (await auditRows(t, 'recipient_binding', ids[2]!)).map((row) => row.event_type);
    expect(events).toEqual(['recipient_binding.created', 'recipient_binding.disabled', 'recipient_binding.reactivated']);
    await tenantAdmin.api.post(`/v1/recipient-bindings/${ids[2]}/disable`).expect(404);
  });
});
