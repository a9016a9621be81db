import type { Response, Test } from 'supertest';
import { login, loginAdmin, seedUser } from './support/auth';
import { randomDevEui, seedDevice, seedDeviceType, seedField } from './support/devices';
import { seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { SecondConnectionError } from './support/connection-guard';
import { startTestApp, TestApp } from './support/test-app';

/*
 * Pool starvation: a command that holds its transaction open must never wait for a second pool connection.
 * Fifty identical writes at once against a pool of five: if a handler took a second connection inside its
 * transaction, five of them would hold every connection and wait for a sixth (503 after the connect timeout);
 * the connection guard of the test app turns any such checkout into a 500 right away. Every write family that
 * locks a row is fired here; exactly one state change wins, the others get the documented 409 (or an
 * idempotent 200 that changes nothing).
 */
const PARALLEL = 50;

type Tally = Record<number, number>;

function tally(responses: Response[]): Tally {
  const counts: Tally = {};
  for (const res of responses) counts[res.status] = (counts[res.status] ?? 0) + 1;
  return counts;
}

function reasonsOf(responses: Response[], status: number): string[] {
  return [...new Set(responses.filter((res) => res.status === status).map((res) => res.body.error?.details?.reason as string))].sort();
}

describe('parallel writes on a pool of five', () => {
  let t: TestApp;
  let tenant: SeededTenant;
  let unit: SeededUnit;
  let other: SeededUnit;
  let adminToken: string;
  let platformToken: string;

  const burst = (request: () => Test): Promise<Response[]> => Promise.all(Array.from({ length: PARALLEL }, () => request().then((res) => res)));
  const as = (token: string) => ({
    post: (path: string, body?: object) => t.http().post(path).set('Authorization', `Bearer ${token}`).send(body),
    patch: (path: string, body?: object) => t.http().patch(path).set('Authorization', `Bearer ${token}`).send(body),
  });
  const auditCount = async (eventType: string, entityId: string) =>
    Number(
      (await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM audit_log WHERE event_type = $1 AND entity_id = $2`, [eventType, entityId]))[0]!.n,
    );

  beforeAll(async () => {
    // A long connect timeout: queueing for one of five connections is not a failure; only a deadlock is.
    // Fifty requests queue for five connections: on a loaded machine the last wait for many seconds. The guard, not
    // the connect timeout, catches a nested checkout, so the timeout is long enough that queueing is not a 503.
    t = await startTestApp({ env: { DB_POOL_MAX: '5', DB_CONNECT_TIMEOUT_MS: '30000' } });
    tenant = await seedTenant(t);
    unit = await seedUnit(t, tenant);
    other = await seedUnit(t, tenant);
    const admin = await seedUser(t);
    // A tenant admin (not a platform admin), so every request also loads grants through the access layer.
    await seedGrant(t, admin.userId, tenant, 'tenant_admin');
    adminToken = (await login(t, admin.username, admin.password)).accessToken;
    platformToken = (await loginAdmin(t)).accessToken;
  });
  afterEach(() => expect(t.connectionGuard.violations).toEqual([]));
  afterAll(() => t.close());

  it('the guard refuses a second pool connection inside a transaction and allows the transaction\'s own manager', async () => {
    await expect(t.dataSource.transaction((manager) => manager.query('SELECT 1'))).resolves.toEqual([{ '?column?': 1 }]);
    await expect(t.dataSource.transaction(() => t.dataSource.query('SELECT 1'))).rejects.toBeInstanceOf(SecondConnectionError);
    expect(t.connectionGuard.violations).toHaveLength(1);
    t.connectionGuard.violations.length = 0;
  });

  it('memberships: one grant per target, one update, one disable, one reactivate', async () => {
    const user = await seedUser(t);
    const created = await burst(() =>
      as(adminToken).post(`/v1/tenants/${tenant.tenantNumber}/memberships`, { userId: user.userId, role: 'tenant_viewer', organizationUnitId: unit.organizationUnitId }),
    );
    expect(tally(created)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(created, 409)).toEqual(['duplicate_membership']);
    const id = created.find((res) => res.status === 201)!.body.membershipId as string;

    const updated = await burst(() => as(adminToken).patch(`/v1/memberships/${id}`, { role: 'tenant_operator' }));
    expect(tally(updated)).toEqual({ 200: PARALLEL });
    expect(await auditCount('membership.updated', id)).toBe(1);

    const disabled = await burst(() => as(adminToken).post(`/v1/memberships/${id}/disable`));
    expect(tally(disabled)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(disabled, 409)).toEqual(['invalid_state']);
    const reactivated = await burst(() => as(adminToken).post(`/v1/memberships/${id}/reactivate`));
    expect(tally(reactivated)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(await auditCount('membership.disabled', id)).toBe(1);
    expect(await auditCount('membership.reactivated', id)).toBe(1);
  });

  it('organization units: one unit per key, one rename, one disable, one reactivate', async () => {
    const created = await burst(() =>
      as(adminToken).post(`/v1/tenants/${tenant.tenantNumber}/organization-units`, { key: `burst-${process.pid}`, name: 'Burst' }),
    );
    expect(tally(created)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    const id = created.find((res) => res.status === 201)!.body.organizationUnitId as string;

    const renamed = await burst(() => as(adminToken).patch(`/v1/organization-units/${id}`, { name: 'Renamed' }));
    expect(tally(renamed)).toEqual({ 200: PARALLEL });
    expect(await auditCount('organization_unit.updated', id)).toBe(1);

    const disabled = await burst(() => as(adminToken).post(`/v1/organization-units/${id}/disable`));
    expect(tally(disabled)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(disabled, 409)).toEqual(['invalid_state']);
    const reactivated = await burst(() => as(adminToken).post(`/v1/organization-units/${id}/reactivate`));
    expect(tally(reactivated)).toEqual({ 200: 1, 409: PARALLEL - 1 });
  });

  it('tenants: one tenant per key, one rename, one disable, one reactivate', async () => {
    const created = await burst(() => as(platformToken).post('/v1/tenants', { key: `burst-${process.pid}`, name: 'Burst' }));
    expect(tally(created)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    const { tenantNumber, tenantId } = created.find((res) => res.status === 201)!.body as { tenantNumber: number; tenantId: string };

    const renamed = await burst(() => as(platformToken).patch(`/v1/tenants/${tenantNumber}`, { name: 'Renamed' }));
    expect(tally(renamed)).toEqual({ 200: PARALLEL });
    expect(await auditCount('tenant.updated', tenantId)).toBe(1);

    const disabled = await burst(() => as(platformToken).post(`/v1/tenants/${tenantNumber}/disable`));
    expect(tally(disabled)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(disabled, 409)).toEqual(['invalid_state']);
    const reactivated = await burst(() => as(platformToken).post(`/v1/tenants/${tenantNumber}/reactivate`));
    expect(tally(reactivated)).toEqual({ 200: 1, 409: PARALLEL - 1 });
  });

  it('devices: one device per devEui, one rename, one open assignment, one disable', async () => {
    const type = await seedDeviceType(t, tenant);
    const devEui = randomDevEui();
    const created = await burst(() =>
      as(adminToken).post(`/v1/tenants/${tenant.tenantNumber}/devices`, { devEui, name: 'Burst', deviceTypeId: type.deviceTypeId }),
    );
    expect(tally(created)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    const id = created.find((res) => res.status === 201)!.body.deviceId as string;

    const renamed = await burst(() => as(adminToken).patch(`/v1/devices/${id}`, { name: 'Renamed' }));
    expect(tally(renamed)).toEqual({ 200: PARALLEL });
    expect(await auditCount('device.updated', id)).toBe(1);

    // Moves between two units at once: whatever order they run in, the device ends with one open period.
    let n = 0;
    const moved = await burst(() => as(adminToken).post(`/v1/devices/${id}/assignments`, { organizationUnitId: (n++ % 2 ? unit : other).organizationUnitId }));
    expect(moved.filter((res) => res.status >= 500)).toEqual([]);
    expect(moved.some((res) => res.status === 201)).toBe(true);
    const open = await t.dataSource.query(`SELECT 1 FROM device_assignments WHERE device_id = $1 AND valid_to IS NULL`, [id]);
    expect(open).toHaveLength(1);

    const disabled = await burst(() => as(adminToken).post(`/v1/devices/${id}/disable`));
    expect(tally(disabled)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(disabled, 409)).toEqual(['invalid_state']);

    const seeded = await seedDevice(t, tenant, type, unit);
    const [assignment] = await t.dataSource.query<{ device_assignment_id: string }[]>(
      `SELECT device_assignment_id FROM device_assignments WHERE device_id = $1`,
      [seeded.deviceId],
    );
    const ended = await burst(() => as(adminToken).post(`/v1/devices/${seeded.deviceId}/assignments/${assignment!.device_assignment_id}/end`));
    expect(ended.filter((res) => res.status >= 500)).toEqual([]);
    expect(ended.filter((res) => res.status === 200)).toHaveLength(1);
  });

  it('device types and fields: one type per key, one change per lock version', async () => {
    const created = await burst(() =>
      as(adminToken).post(`/v1/tenants/${tenant.tenantNumber}/device-types`, { key: `burst-${process.pid}`, name: 'Burst' }),
    );
    expect(tally(created)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    const id = created.find((res) => res.status === 201)!.body.deviceTypeId as string;

    const renamed = await burst(() => as(adminToken).patch(`/v1/device-types/${id}`, { name: 'Renamed' }).set('If-Match', '"1"'));
    expect(tally(renamed)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(renamed, 409)).toEqual(['lock_version_mismatch']);

    const field = await seedField(t, tenant, { deviceTypeId: id, key: `burst-${process.pid}` });
    const deprecated = await burst(() => as(adminToken).post(`/v1/device-types/${id}/fields/${field.key}/deprecate`).set('If-Match', '"1"'));
    expect(tally(deprecated)).toEqual({ 200: 1, 409: PARALLEL - 1 });

    const [{ lock_version: version }] = await t.dataSource.query(`SELECT lock_version FROM device_types WHERE device_type_id = $1`, [id]);
    const disabled = await burst(() => as(adminToken).post(`/v1/device-types/${id}/disable`).set('If-Match', `"${version}"`));
    expect(tally(disabled)).toEqual({ 200: 1, 409: PARALLEL - 1 });
  });

  it('users: one user per username, one disable', async () => {
    const username = `burst-${process.pid}`;
    const created = await burst(() =>
      as(platformToken).post('/v1/users', { username, email: `${username}@uplink.test`, displayName: 'Burst', temporaryPassword: 'temporary-password-1' }),
    );
    expect(tally(created)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    const id = created.find((res) => res.status === 201)!.body.userId as string;

    const disabled = await burst(() => as(platformToken).patch(`/v1/users/${id}`, { status: 'disabled' }));
    expect(tally(disabled)).toEqual({ 200: PARALLEL });
    expect(await auditCount('user.disabled', id)).toBe(1);
  });
  it('e-mail templates and bindings: one template per key, one version per number, one activation, one binding per recipient, 500 per template', async () => {
    const created = await burst(() => as(adminToken).post(`/v1/tenants/${tenant.tenantNumber}/email-templates`, { key: `burst-${process.pid}`, name: 'Burst' }));
    expect(tally(created)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(created, 409)).toEqual(['duplicate_key']);
    const id = created.find((res) => res.status === 201)!.body.emailTemplateId as string;

    const drafts = await burst(() => as(adminToken).post(`/v1/email-templates/${id}/versions`, { subject: 'S {{device.name}}', bodyText: 'B' }));
    expect(tally(drafts)).toEqual({ 201: PARALLEL });
    expect(new Set(drafts.map((res) => res.body.versionNumber)).size).toBe(PARALLEL);
    const versionId = drafts[0]!.body.emailTemplateVersionId as string;
    const released = await burst(() => as(adminToken).post(`/v1/email-templates/${id}/versions/${versionId}/release`));
    expect(tally(released)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    const activated = await burst(() => as(adminToken).post(`/v1/email-templates/${id}/activate`, { emailTemplateVersionId: versionId }).set('If-Match', '"1"'));
    expect(tally(activated)).toEqual({ 200: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(activated, 409)).toEqual(['lock_version_mismatch']);

    const path = `/v1/tenants/${tenant.tenantNumber}/recipient-bindings`;
    const bound = await burst(() => as(adminToken).post(path, { emailTemplateId: id, recipientType: 'email', email: 'burst@example.test' }));
    expect(tally(bound)).toEqual({ 201: 1, 409: PARALLEL - 1 });
    expect(reasonsOf(bound, 409)).toEqual(['duplicate_binding']);
    await t.dataSource.query(
      `INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email) SELECT $1, $2, 'email', 'fill' || i || '@x.test' FROM generate_series(1, 490) AS i`,
      [tenant.tenantId, id],
    );
    let n = 0;
    const filled = await burst(() => as(adminToken).post(path, { emailTemplateId: id, recipientType: 'email', email: `last-${++n}@example.test` }));
    expect(tally(filled)).toEqual({ 201: 9, 409: PARALLEL - 9 });
    expect(reasonsOf(filled, 409)).toEqual(['max_bindings']);
  });
});
