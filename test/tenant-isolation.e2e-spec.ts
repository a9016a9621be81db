import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedChain, seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { withoutCorrelation } from './support/http';

/*
 * Tenant isolation (design §2 existence rule, §3 scopes): later modules add their endpoints to the tables
 * below. A foreign or out-of-scope id must be indistinguishable from a random one.
 */

type Method = 'get' | 'post' | 'patch';
interface Probe {
  name: string;
  method: Method;
  path: (target: string) => string;
  body?: Record<string, unknown>;
}

const RANDOM_TENANT_NUMBER = '2147483000';

/** Endpoints addressed by tenantNumber. */
const TENANT_PROBES: Probe[] = [
  { name: 'GET tenant', method: 'get', path: (n) => `/v1/tenants/${n}` },
  { name: 'PATCH tenant', method: 'patch', path: (n) => `/v1/tenants/${n}`, body: { name: 'Renamed' } },
  { name: 'GET units', method: 'get', path: (n) => `/v1/tenants/${n}/organization-units` },
  { name: 'POST unit', method: 'post', path: (n) => `/v1/tenants/${n}/organization-units`, body: { key: 'probe-unit', name: 'Probe' } },
  { name: 'GET memberships', method: 'get', path: (n) => `/v1/tenants/${n}/memberships` },
  { name: 'GET audit', method: 'get', path: (n) => `/v1/tenants/${n}/audit-logs` },
];

/** Endpoints addressed by a unit id. */
const UNIT_PROBES: Probe[] = [
  { name: 'GET unit', method: 'get', path: (id) => `/v1/organization-units/${id}` },
  { name: 'GET ancestors', method: 'get', path: (id) => `/v1/organization-units/${id}/ancestors` },
  { name: 'PATCH unit', method: 'patch', path: (id) => `/v1/organization-units/${id}`, body: { name: 'Renamed' } },
  { name: 'disable unit', method: 'post', path: (id) => `/v1/organization-units/${id}/disable` },
  { name: 'reactivate unit', method: 'post', path: (id) => `/v1/organization-units/${id}/reactivate` },
];

/** Endpoints addressed by a membership id. */
const MEMBERSHIP_PROBES: Probe[] = [
  { name: 'GET membership', method: 'get', path: (id) => `/v1/memberships/${id}` },
  { name: 'PATCH membership', method: 'patch', path: (id) => `/v1/memberships/${id}`, body: { role: 'tenant_viewer' } },
  { name: 'disable membership', method: 'post', path: (id) => `/v1/memberships/${id}/disable` },
  { name: 'reactivate membership', method: 'post', path: (id) => `/v1/memberships/${id}/reactivate` },
];

describe('tenant isolation', () => {
  let t: TestApp;
  let a: SeededTenant;
  let b: SeededTenant;
  let chain: SeededUnit[]; // a: root → l2 → l3 → l4 → l5
  let sibling: SeededUnit; // a: another root
  let foreignUnit: SeededUnit; // b
  let foreignMembership: string; // b
  let ownMembership: string; // a, the viewer's
  const tokens: Record<string, string> = {};

  const send = (who: string, probe: Probe, target: string) => {
    const req = t.http()[probe.method](probe.path(target)).set('Authorization', `Bearer ${tokens[who]}`);
    return probe.body ? req.send(probe.body) : req;
  };

  beforeAll(async () => {
    t = await startTestApp();
    a = await seedTenant(t);
    b = await seedTenant(t);
    chain = await seedChain(t, a, 5);
    sibling = await seedUnit(t, a);
    foreignUnit = await seedUnit(t, b);

    const people: [string, SeededTenant, 'tenant_admin' | 'tenant_operator' | 'tenant_viewer', SeededUnit | null, boolean][] = [
      ['adminA', a, 'tenant_admin', null, true],
      ['operatorA', a, 'tenant_operator', null, true],
      ['viewerA', a, 'tenant_viewer', null, true],
      ['scopedA', a, 'tenant_admin', chain[2]!, true],
      ['pointA', a, 'tenant_admin', chain[2]!, false],
      ['adminB', b, 'tenant_admin', null, true],
    ];
    for (const [name, tenant, role, unit, includeDescendants] of people) {
      const user = await seedUser(t);
      const membershipId = await seedGrant(t, user.userId, tenant, role, unit, { includeDescendants });
      if (name === 'viewerA') ownMembership = membershipId;
      if (name === 'adminB') foreignMembership = membershipId;
      tokens[name] = (await login(t, user.username, user.password)).accessToken;
    }
    tokens.platformAdmin = (await loginAdmin(t)).accessToken;
  });
  afterAll(() => t.close());

  describe.each(['adminA', 'operatorA', 'viewerA', 'scopedA', 'pointA'])('%s', (who) => {
    it.each(TENANT_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign tenant from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, String(b.tenantNumber));
        const missing = await send(who, probe, RANDOM_TENANT_NUMBER);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(UNIT_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign unit from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignUnit.organizationUnitId);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(MEMBERSHIP_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign membership from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignMembership);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it('lists only its own tenant', async () => {
      const res = await t.http().get('/v1/tenants').set('Authorization', `Bearer ${tokens[who]}`).expect(200);
      expect(res.body.items.map((item: { tenantId: string }) => item.tenantId)).toEqual([a.tenantId]);
      expect(res.body.totalCount).toBe(1);
    });
  });

  it.each(['scopedA', 'pointA'])('%s: an out-of-scope unit of its own tenant is a 404 like a missing one', async (who) => {
    for (const probe of UNIT_PROBES) {
      const outside = await send(who, probe, sibling.organizationUnitId);
      const missing = await send(who, probe, randomUUID());
      expect(outside.status).toBe(404);
      expect(withoutCorrelation(outside)).toEqual(withoutCorrelation(missing));
    }
  });

  it('never lists foreign or out-of-scope units', async () => {
    const all = await t.http().get(`/v1/tenants/${a.tenantNumber}/organization-units?q=`).set('Authorization', `Bearer ${tokens.adminA}`);
    const ids = (res: Response) => (res.body.items as { organizationUnitId: string }[]).map((item) => item.organizationUnitId);
    expect(all.status).toBe(200);
    expect(ids(all)).not.toContain(foreignUnit.organizationUnitId);

    const scoped = await t.http().get(`/v1/tenants/${a.tenantNumber}/organization-units?q=`).set('Authorization', `Bearer ${tokens.scopedA}`);
    expect(scoped.status).toBe(200);
    expect(ids(scoped)).not.toContain(sibling.organizationUnitId);
    expect(ids(scoped)).not.toContain(foreignUnit.organizationUnitId);
    expect(ids(scoped)).toEqual(expect.arrayContaining(chain.slice(2).map((unit) => unit.organizationUnitId)));
  });

  it('shows ancestors of a scoped grant for navigation only: readable, not writable', async () => {
    const ancestor = chain[1]!;
    const res = await t.http().get(`/v1/organization-units/${ancestor.organizationUnitId}`).set('Authorization', `Bearer ${tokens.scopedA}`).expect(200);
    expect(res.body.scopeRelation).toBe('ancestor');
    const patch = await t
      .http()
      .patch(`/v1/organization-units/${ancestor.organizationUnitId}`)
      .set('Authorization', `Bearer ${tokens.scopedA}`)
      .send({ name: 'Not mine' })
      .expect(403);
    expect(patch.body.error.details).toMatchObject({ reason: 'missing_permission' });
    const own = await t.http().get(`/v1/organization-units/${chain[4]!.organizationUnitId}`).set('Authorization', `Bearer ${tokens.scopedA}`).expect(200);
    expect(own.body.scopeRelation).toBe('accessible');
  });

  it('limits a grant without descendants to its own unit', async () => {
    await t.http().get(`/v1/organization-units/${chain[2]!.organizationUnitId}`).set('Authorization', `Bearer ${tokens.pointA}`).expect(200);
    await t.http().get(`/v1/organization-units/${chain[3]!.organizationUnitId}`).set('Authorization', `Bearer ${tokens.pointA}`).expect(404);
  });

  it("answers a viewer's writes with 403 missing_permission", async () => {
    const writes = [
      t.http().patch(`/v1/tenants/${a.tenantNumber}`).send({ name: 'Nope' }),
      t.http().post(`/v1/tenants/${a.tenantNumber}/organization-units`).send({ key: 'viewer-unit', name: 'Nope' }),
      t.http().patch(`/v1/organization-units/${chain[0]!.organizationUnitId}`).send({ name: 'Nope' }),
      t.http().post(`/v1/organization-units/${chain[0]!.organizationUnitId}/disable`),
      t.http().post(`/v1/tenants/${a.tenantNumber}/memberships`).send({ userId: randomUUID(), role: 'tenant_viewer' }),
    ];
    for (const write of writes) {
      const res = await write.set('Authorization', `Bearer ${tokens.viewerA}`);
      expect(res.status).toBe(403);
      expect(res.body.error.details.reason).toBe('missing_permission');
    }
    const denied = await t.dataSource.query(`SELECT count(*)::int AS n FROM audit_log WHERE event_type = 'access.denied' AND tenant_id = $1`, [
      a.tenantId,
    ]);
    expect(denied[0].n).toBeGreaterThanOrEqual(writes.length);
  });

  it('makes the tenant invisible on the next request once the only membership is disabled', async () => {
    const viewer = await seedUser(t);
    const membership = await seedGrant(t, viewer.userId, a, 'tenant_viewer');
    const token = (await login(t, viewer.username, viewer.password)).accessToken;
    await t.http().get(`/v1/tenants/${a.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(200);
    await t.http().post(`/v1/memberships/${membership}/disable`).set('Authorization', `Bearer ${tokens.adminA}`).expect(200);
    await t.http().get(`/v1/tenants/${a.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(404);
    const list = await t.http().get('/v1/tenants').set('Authorization', `Bearer ${token}`).expect(200);
    expect(list.body.items).toEqual([]);
    expect(ownMembership).toBeDefined();
  });

  it('makes a disabled tenant invisible to its members on the next request, not to platform admins', async () => {
    const c = await seedTenant(t);
    const member = await seedUser(t);
    await seedGrant(t, member.userId, c, 'tenant_admin');
    const token = (await login(t, member.username, member.password)).accessToken;
    await t.http().get(`/v1/tenants/${c.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(200);
    await t.http().post(`/v1/tenants/${c.tenantNumber}/disable`).set('Authorization', `Bearer ${tokens.platformAdmin}`).expect(200);
    await t.http().get(`/v1/tenants/${c.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(404);
    const admin = await t.http().get(`/v1/tenants/${c.tenantNumber}`).set('Authorization', `Bearer ${tokens.platformAdmin}`).expect(200);
    expect(admin.body.status).toBe('disabled');
  });
});
