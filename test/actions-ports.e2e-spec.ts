import { randomUUID } from 'node:crypto';
import { RECIPIENT_RESOLVER, RENDER_CONTEXT_SOURCE, type RecipientResolver, type RenderContextSource } from '../src/modules/actions';
import { loginAdmin, seedUser } from './support/auth';
import { seedDevice, seedDeviceType, SeededDevice, SeededDeviceType } from './support/devices';
import { seedExecution } from './support/executions';
import { as } from './support/http';
import { LiveFlow, seedLiveFlow } from './support/processing';
import { seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

/*
 * The two ports delivery uses, against the real database: who an action request of a device goes to (binding
 * matching by device type and unit, user scope, deduplication, the cap of 50), and what a template renders for an
 * execution. Bindings are seeded with SQL here; their API has its own suite.
 */
let t: TestApp;
let resolver: RecipientResolver;
let contexts: RenderContextSource;
let tenant: SeededTenant;
let other: SeededTenant;
let type: SeededDeviceType;
let otherType: SeededDeviceType;
let root: SeededUnit;
let site: SeededUnit;
let room: SeededUnit;
let sibling: SeededUnit;
let device: SeededDevice;
let unassigned: SeededDevice;
let counter = 0;

async function seedTemplate(owner: SeededTenant = tenant): Promise<string> {
  const [row] = await t.dataSource.query<{ email_template_id: string }[]>(
    `INSERT INTO email_templates (tenant_id, key, name) VALUES ($1, $2, 'Alert') RETURNING email_template_id`,
    [owner.tenantId, `ports-${process.pid}-${++counter}`],
  );
  return row!.email_template_id;
}

interface BindingSeed {
  userId?: string;
  email?: string;
  deviceTypeId?: string | null;
  unit?: SeededUnit | null;
  includeDescendants?: boolean;
  status?: 'active' | 'disabled';
}

/** Bindings seeded so far: each one's createdAt is a millisecond later than the one before. */
let bound = 0;

/**
 * Binding order is (createdAt, id) and createdAt has millisecond precision, so two bindings inserted within one
 * millisecond would be ordered by their random ids: each seeded binding is dated at least a millisecond after the
 * previous one, so the tests' order of `bind` calls is the binding order.
 */
async function bind(templateId: string, seed: BindingSeed): Promise<string> {
  bound += 1;
  const [row] = await t.dataSource.query<{ recipient_binding_id: string }[]>(
    `INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, user_id, email, device_type_id, organization_unit_id, include_descendants, status, created_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, clock_timestamp() + $10 * interval '1 millisecond') RETURNING recipient_binding_id`,
    [
      tenant.tenantId,
      templateId,
      seed.userId ? 'user' : 'email',
      seed.userId ?? null,
      seed.userId ? null : seed.email,
      seed.deviceTypeId ?? null,
      seed.unit?.organizationUnitId ?? null,
      seed.includeDescendants ?? true,
      seed.status ?? 'active',
      bound,
    ],
  );
  return row!.recipient_binding_id;
}

const resolve = (emailTemplateId: string, deviceId = device.deviceId, tenantId = tenant.tenantId) =>
  t.dataSource.transaction((manager) => resolver.resolve(manager, { tenantId, emailTemplateId, deviceId }));
const emailsOf = (recipients: { email: string }[]) => recipients.map((recipient) => recipient.email);

beforeAll(async () => {
  t = await startTestApp();
  resolver = t.app.get(RECIPIENT_RESOLVER);
  contexts = t.app.get(RENDER_CONTEXT_SOURCE);
  tenant = await seedTenant(t, { name: 'Acme Water' });
  other = await seedTenant(t);
  type = await seedDeviceType(t, tenant);
  otherType = await seedDeviceType(t, tenant);
  root = await seedUnit(t, tenant, null, { name: 'Acme', key: `acme-${process.pid}` });
  site = await seedUnit(t, tenant, root, { name: 'North site', key: `north-${process.pid}` });
  room = await seedUnit(t, tenant, site, { name: 'Boiler room', key: `boiler-${process.pid}` });
  sibling = await seedUnit(t, tenant, root);
  device = await seedDevice(t, tenant, type, room, { name: 'Pipe sensor 7' });
  unassigned = await seedDevice(t, tenant, type);
});
afterAll(() => t.close());

describe('RecipientResolver', () => {
  it('matches bindings by device type and by the current unit (itself, or an ancestor with descendants)', async () => {
    const id = await seedTemplate();
    await bind(id, { email: 'any@x.test' });
    await bind(id, { email: 'type@x.test', deviceTypeId: type.deviceTypeId });
    await bind(id, { email: 'other-type@x.test', deviceTypeId: otherType.deviceTypeId });
    await bind(id, { email: 'room@x.test', unit: room, includeDescendants: false });
    await bind(id, { email: 'site-tree@x.test', unit: site });
    await bind(id, { email: 'site-only@x.test', unit: site, includeDescendants: false });
    await bind(id, { email: 'sibling@x.test', unit: sibling });
    await bind(id, { email: 'both@x.test', unit: root, deviceTypeId: type.deviceTypeId });
    await bind(id, { email: 'disabled@x.test', status: 'disabled' });
    const recipients = await resolve(id);
    expect(emailsOf(recipients)).toEqual(['any@x.test', 'type@x.test', 'room@x.test', 'site-tree@x.test', 'both@x.test']);
    expect(recipients.every((r) => r.suppressedReason === null && r.userId === null)).toBe(true);
  });

  it('an unassigned device matches only bindings without a unit', async () => {
    const id = await seedTemplate();
    await bind(id, { email: 'any@x.test' });
    await bind(id, { email: 'tree@x.test', unit: root });
    expect(emailsOf(await resolve(id, unassigned.deviceId))).toEqual(['any@x.test']);
  });

  it('a user needs an effective grant covering the device, else recipient_out_of_scope; disabled users are skipped', async () => {
    const id = await seedTemplate();
    const covering = await seedUser(t);
    await seedGrant(t, covering.userId, tenant, 'tenant_viewer', site);
    const elsewhere = await seedUser(t);
    await seedGrant(t, elsewhere.userId, tenant, 'tenant_admin', sibling);
    const notBelow = await seedUser(t);
    await seedGrant(t, notBelow.userId, tenant, 'tenant_operator', site, { includeDescendants: false });
    const revoked = await seedUser(t);
    await seedGrant(t, revoked.userId, tenant, 'tenant_admin', null, { status: 'disabled' });
    const foreignMember = await seedUser(t);
    await seedGrant(t, foreignMember.userId, other, 'tenant_admin');
    const disabled = await seedUser(t, { status: 'disabled' });
    await seedGrant(t, disabled.userId, tenant, 'tenant_admin');
    const platformAdmin = await seedUser(t, { platformAdmin: true });
    for (const user of [covering, elsewhere, notBelow, revoked, foreignMember, disabled, platformAdmin]) await bind(id, { userId: user.userId });

    const recipients = await resolve(id);
    expect(recipients.map((r) => [r.email, r.userId, r.suppressedReason])).toEqual([
      [covering.email.toLowerCase(), covering.userId, null],
      [elsewhere.email.toLowerCase(), elsewhere.userId, 'recipient_out_of_scope'],
      [notBelow.email.toLowerCase(), notBelow.userId, 'recipient_out_of_scope'],
      [revoked.email.toLowerCase(), revoked.userId, 'recipient_out_of_scope'],
      [foreignMember.email.toLowerCase(), foreignMember.userId, 'recipient_out_of_scope'],
      [platformAdmin.email.toLowerCase(), platformAdmin.userId, null],
    ]);
  });

  it('an unassigned device is covered only by a tenant-level grant', async () => {
    const id = await seedTemplate();
    const tenantLevel = await seedUser(t);
    await seedGrant(t, tenantLevel.userId, tenant, 'tenant_viewer', null, { includeDescendants: false });
    const unitLevel = await seedUser(t);
    await seedGrant(t, unitLevel.userId, tenant, 'tenant_admin', root);
    await bind(id, { userId: tenantLevel.userId });
    await bind(id, { userId: unitLevel.userId });
    expect((await resolve(id, unassigned.deviceId)).map((r) => r.suppressedReason)).toEqual([null, 'recipient_out_of_scope']);
    // The same tenant-level grant without descendants does not reach an assigned device.
    expect((await resolve(id)).map((r) => r.suppressedReason)).toEqual(['recipient_out_of_scope', null]);
  });

  it('deduplicates by lower-cased address, an in-scope occurrence winning, in binding order', async () => {
    const id = await seedTemplate();
    const user = await seedUser(t, { email: `Mixed.Case-${process.pid}@X.test` });
    await seedGrant(t, user.userId, tenant, 'tenant_viewer', sibling);
    const inScope = await seedUser(t, { email: `Shared-${process.pid}@X.test` });
    await seedGrant(t, inScope.userId, tenant, 'tenant_viewer');
    await bind(id, { email: 'Ops@Example.TEST' });
    await bind(id, { userId: user.userId });
    await bind(id, { email: 'ops@example.test', deviceTypeId: type.deviceTypeId });
    await bind(id, { email: `mixed.case-${process.pid}@x.test` });
    await bind(id, { userId: inScope.userId });
    await bind(id, { email: `shared-${process.pid}@x.test`, unit: root });
    const recipients = await resolve(id);
    expect(recipients.map((r) => [r.email, r.suppressedReason])).toEqual([
      ['ops@example.test', null],
      [`mixed.case-${process.pid}@x.test`, null],
      [`shared-${process.pid}@x.test`, null],
    ]);
    expect(recipients[1]!.userId).toBeNull();
    expect(recipients[2]!.userId).toBe(inScope.userId);
  });

  it('caps the recipients at 50', async () => {
    const id = await seedTemplate();
    for (let i = 0; i < 60; i++) await bind(id, { email: `r${String(i).padStart(2, '0')}@x.test` });
    const recipients = await resolve(id);
    expect(recipients).toHaveLength(50);
    expect(recipients[0]!.email).toBe('r00@x.test');
    expect(recipients[49]!.email).toBe('r49@x.test');
  });

  it('resolves nothing for another tenant, an unknown device or a template without bindings', async () => {
    const id = await seedTemplate();
    await bind(id, { email: 'any@x.test' });
    expect(await resolve(id, device.deviceId, other.tenantId)).toEqual([]);
    expect(await resolve(id, randomUUID())).toEqual([]);
    expect(await resolve(await seedTemplate())).toEqual([]);
  });

  it('the table keeps its rules: one active binding per recipient, type and unit; recipient shape; tenant-bound references', async () => {
    const id = await seedTemplate();
    await bind(id, { email: 'dup@x.test', unit: root });
    await expect(bind(id, { email: 'DUP@x.test', unit: root, includeDescendants: false })).rejects.toThrow(/recipient_bindings_active_key/);
    await bind(id, { email: 'dup@x.test', unit: root, status: 'disabled' });
    await bind(id, { email: 'dup@x.test', unit: site });
    await expect(
      t.dataSource.query(`INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email) VALUES ($1, $2, 'user', 'a@x.test')`, [tenant.tenantId, id]),
    ).rejects.toThrow(/recipient_bindings_recipient_check/);
    await expect(
      t.dataSource.query(`INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email) VALUES ($1, $2, 'email', 'a@x.test')`, [other.tenantId, id]),
    ).rejects.toThrow(/foreign key/);
    await expect(
      t.dataSource.query(`INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email, status) VALUES ($1, $2, 'email', 'a@x.test', 'gone')`, [tenant.tenantId, id]),
    ).rejects.toThrow(/check constraint/);
  });
});

describe('RenderContextSource', () => {
  let flow: LiveFlow;

  beforeAll(async () => {
    const admin = as(t, (await loginAdmin(t)).accessToken);
    flow = await seedLiveFlow(t, admin, tenant);
    await t.dataSource.query(`UPDATE flows SET name = 'Leak watch' WHERE flow_id = $1`, [flow.flowId]);
    await t.dataSource.query(`UPDATE devices SET metadata = '{"floor": "2"}' WHERE device_id = $1`, [device.deviceId]);
  });

  const execution = (deviceId: string) =>
    seedExecution(t, {
      tenantId: tenant.tenantId,
      flowId: flow.flowId,
      flowVersionId: flow.versionId,
      versionNumber: 2,
      deviceId,
      startedAt: new Date('2026-03-01T10:00:01.000Z'),
      parameters: { threshold: 5 },
      current: { level: 1.5, both: 'current' },
      timeseries: { temperature: 21, both: 'series' },
    });

  it("renders from the execution's values, time and parameters and the names as they are now", async () => {
    const id = await execution(device.deviceId);
    const context = await t.dataSource.transaction((manager) => contexts.forExecution(manager, tenant.tenantId, id));
    expect(context).toEqual({
      tenant: { name: 'Acme Water' },
      device: { name: 'Pipe sensor 7', devEui: device.devEui, metadata: { floor: '2' } },
      organizationUnit: { name: 'Boiler room', key: `boiler-${process.pid}` },
      values: { level: 1.5, temperature: 21, both: 'series' },
      observedAt: '2026-03-01T10:00:00.000Z',
      flow: { name: 'Leak watch' },
      parameters: { threshold: 5 },
    });
  });

  it('an unassigned device has no unit', async () => {
    const id = await execution(unassigned.deviceId);
    const context = await contexts.forExecution(t.dataSource.manager, tenant.tenantId, id);
    expect(context?.organizationUnit).toBeNull();
  });

  it("null for another tenant's execution or an unknown one", async () => {
    const id = await execution(device.deviceId);
    expect(await contexts.forExecution(t.dataSource.manager, other.tenantId, id)).toBeNull();
    expect(await contexts.forExecution(t.dataSource.manager, tenant.tenantId, randomUUID())).toBeNull();
  });
});
