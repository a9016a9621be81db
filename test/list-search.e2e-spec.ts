import { loginAdmin, seedUser } from './support/auth';
import { seedDevice, seedDeviceType } from './support/devices';
import { as, fieldsOf } from './support/http';
import { seedGrant, seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

/** A tenant number no tenant holds: a list in it is a 404 unless its request is invalid first. */
const MISSING_NUMBER = 2147483647;

/**
 * Every list reads an empty `q` as no filter: the same items, total and cursor binding as leaving `q` out. And
 * every tenant list checks its cursor before it looks the tenant up (400 before 404).
 */
describe('lists: empty q and check order', () => {
  let t: TestApp;
  let admin: ReturnType<typeof as>;
  let tenant: SeededTenant;

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
    await seedTenant(t);
    const type = await seedDeviceType(t, tenant);
    await seedDeviceType(t, tenant);
    const root = await seedUnit(t, tenant);
    await seedUnit(t, tenant, root);
    await seedUnit(t, tenant);
    // More than one page (25) of roots, device types and devices, so the lists hand out cursors.
    for (let i = 0; i < 26; i++) {
      await seedUnit(t, tenant);
      await seedDeviceType(t, tenant);
      await seedDevice(t, tenant, type, i % 2 ? root : null);
    }
    for (let i = 0; i < 2; i++) {
      const user = await seedUser(t);
      await seedGrant(t, user.userId, tenant, 'tenant_viewer');
    }
  });
  afterAll(() => t.close());

  const pathOf: Record<string, () => string> = {
    users: () => '/v1/users',
    tenants: () => '/v1/tenants',
    'organization units': () => `/v1/tenants/${tenant.tenantNumber}/organization-units`,
    memberships: () => `/v1/tenants/${tenant.tenantNumber}/memberships`,
    'device types': () => `/v1/tenants/${tenant.tenantNumber}/device-types`,
    devices: () => `/v1/tenants/${tenant.tenantNumber}/devices`,
  };

  it.each(Object.keys(pathOf))('%s: an empty q answers exactly what no q answers', async (list) => {
    const path = pathOf[list]!();
    const none = await admin.get(path).expect(200);
    const empty = await admin.get(`${path}?q=`).expect(200);
    expect(none.body.totalCount).toBeGreaterThan(1);
    expect(empty.body).toEqual(none.body);
  });

  it.each(['organization units', 'device types', 'devices'])('%s: a cursor of the list without q continues it with an empty q', async (list) => {
    const path = pathOf[list]!();
    const first = await admin.get(path).expect(200);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const viaEmpty = await admin.get(`${path}?q=&cursor=${first.body.nextCursor}`).expect(200);
    const viaNone = await admin.get(`${path}?cursor=${first.body.nextCursor}`).expect(200);
    expect(viaEmpty.body).toEqual(viaNone.body);
    expect(viaNone.body.items.length).toBeGreaterThan(0);
  });

  it.each(['organization-units', 'device-types', 'devices', 'memberships'])(
    '%s: a tampered cursor is 400 cursor_invalid even when the tenant does not exist',
    async (list) => {
      const res = await admin.get(`/v1/tenants/${MISSING_NUMBER}/${list}?cursor=AAAA`).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'query.cursor', rule: 'cursor_invalid' }]);
    },
  );
});
