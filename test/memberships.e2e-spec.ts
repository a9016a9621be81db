import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedChain, seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { fieldsOf, withoutCorrelation } from './support/http';
import { auditRows } from './support/audit';
import { member } from './support/member';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const RANDOM_TENANT_NUMBER = 2147483000;

type Role = 'tenant_admin' | 'tenant_operator' | 'tenant_viewer';
type User = Awaited<ReturnType<typeof seedUser>>;

function idsOf(res: Response): string[] {
  return (res.body.items as { membershipId: string }[]).map((item) => item.membershipId);
}

describe('memberships', () => {
  let t: TestApp;
  let a: SeededTenant;
  let b: SeededTenant;
  let root: SeededUnit;
  let region: SeededUnit;
  let site: SeededUnit;
  let sibling: SeededUnit;
  let foreignUnit: SeededUnit;
  const tokens: Record<string, string> = {};
  const people: Record<string, User> = {};
  const grants: Record<string, string> = {};

  const as = (who: string) => {
    const auth = <R extends { set: (name: string, value: string) => R }>(req: R) => req.set('Authorization', `Bearer ${tokens[who]}`);
    return {
      get: (path: string) => auth(t.http().get(path)),
      post: (path: string, body?: object) => auth(t.http().post(path)).send(body),
      patch: (path: string, body?: object) => auth(t.http().patch(path)).send(body),
    };
  };
  const tenantPath = (tenant: SeededTenant | number) => `/v1/tenants/${typeof tenant === 'number' ? tenant : tenant.tenantNumber}/memberships`;

  /** A user with one grant, signed in under `name`. */
  async function memberNamed(name: string, tenant: SeededTenant, role: Role, unit: SeededUnit | null = null, includeDescendants = true) {
    const signedIn = await member(t, tenant, role, unit, includeDescendants);
    people[name] = signedIn.user;
    grants[name] = signedIn.membershipId;
    tokens[name] = signedIn.token;
    return signedIn.user;
  }

  const auditOf = (membershipId: string) => auditRows(t, 'membership', membershipId);

  beforeAll(async () => {
    t = await startTestApp();
    a = await seedTenant(t);
    b = await seedTenant(t);
    [root, region, site] = (await seedChain(t, a, 3)) as [SeededUnit, SeededUnit, SeededUnit];
    sibling = await seedUnit(t, a);
    foreignUnit = await seedUnit(t, b);
    await memberNamed('adminA', a, 'tenant_admin');
    await memberNamed('operatorA', a, 'tenant_operator');
    await memberNamed('viewerA', a, 'tenant_viewer');
    await memberNamed('scopedA', a, 'tenant_admin', region);
    await memberNamed('pointA', a, 'tenant_admin', region, false);
    await memberNamed('siblingViewer', a, 'tenant_viewer', sibling);
    await memberNamed('rootViewer', a, 'tenant_viewer', root);
    await memberNamed('adminB', b, 'tenant_admin');
    tokens.platformAdmin = (await loginAdmin(t)).accessToken;
  });
  afterAll(() => t.close());

  describe('POST /v1/tenants/{tenantNumber}/memberships', () => {
    it('grants a tenant-level role by userId: 201, Location, the record and an audit event', async () => {
      const user = await seedUser(t);
      const res = await as('adminA').post(tenantPath(a), { userId: user.userId, role: 'tenant_operator' }).expect(201);
      expect(res.headers.location).toBe(`/v1/memberships/${res.body.membershipId}`);
      expect(res.body).toEqual({
        membershipId: expect.stringMatching(UUID),
        tenantId: a.tenantId,
        userId: user.userId,
        role: 'tenant_operator',
        organizationUnitId: null,
        includeDescendants: true,
        status: 'active',
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        userDisplayName: `Display ${user.username}`,
        userEmail: user.email,
      });
      expect(res.headers['cache-control']).toBe('no-store');
      const read = await as('adminA').get(res.headers.location!).expect(200);
      expect(read.body).toEqual(res.body);
      expect(await auditOf(res.body.membershipId)).toEqual([
        expect.objectContaining({
          event_type: 'membership.created',
          action: 'create',
          tenant_id: a.tenantId,
          actor_id: people.adminA!.userId,
          metadata: { userId: user.userId, organizationUnitId: null, role: 'tenant_operator', includeDescendants: true },
        }),
      ]);
    });

    it('finds the user by e-mail case-insensitively and targets a unit, descendants by default', async () => {
      const user = await seedUser(t);
      const res = await as('adminA')
        .post(tenantPath(a), { userEmail: user.email.toUpperCase(), role: 'tenant_viewer', organizationUnitId: site.organizationUnitId.toUpperCase() })
        .expect(201);
      expect(res.body).toMatchObject({ userId: user.userId, organizationUnitId: site.organizationUnitId, includeDescendants: true });
      const flat = await as('adminA')
        .post(tenantPath(a), { userId: user.userId, role: 'tenant_viewer', organizationUnitId: region.organizationUnitId, includeDescendants: false })
        .expect(201);
      expect(flat.body.includeDescendants).toBe(false);
      const explicitNull = await as('adminA').post(tenantPath(a), { userId: user.userId, role: 'tenant_viewer', organizationUnitId: null }).expect(201);
      expect(explicitNull.body.organizationUnitId).toBeNull();
    });

    it('validates the body and the path', async () => {
      const userId = people.viewerA!.userId;
      const cases: [object, { path: string; rule: string }[]][] = [
        [{ role: 'tenant_viewer' }, [{ path: 'body.userId', rule: 'required' }]],
        [{ userId, userEmail: 'x@uplink.test', role: 'tenant_viewer' }, [{ path: 'body.userEmail', rule: 'mismatch' }]],
        [{ userId }, [{ path: 'body.role', rule: 'required' }]],
        [{ userId, role: 'owner' }, [{ path: 'body.role', rule: 'enum' }]],
        [{ userId: 'nope', role: 'tenant_viewer' }, [{ path: 'body.userId', rule: 'format' }]],
        [{ userEmail: 'not-an-email', role: 'tenant_viewer' }, [{ path: 'body.userEmail', rule: 'format' }]],
        [{ userId, role: 'tenant_viewer', organizationUnitId: 'unit-1' }, [{ path: 'body.organizationUnitId', rule: 'format' }]],
        [{ userId, role: 'tenant_viewer', includeDescendants: 'yes' }, [{ path: 'body.includeDescendants', rule: 'type' }]],
        [{ userId, role: 'tenant_viewer', status: 'active' }, [{ path: 'body.status', rule: 'unknown_property' }]],
      ];
      for (const [body, expected] of cases) {
        const res = await as('adminA').post(tenantPath(a), body);
        expect([body, res.status, fieldsOf(res)]).toEqual([body, 400, expected]);
      }
      for (const [number, rule] of [['abc', 'type'], ['0', 'minimum'], ['2147483648', 'maximum']] as const) {
        const res = await as('adminA').post(`/v1/tenants/${number}/memberships`, { userId, role: 'tenant_viewer' }).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'params.tenantNumber', rule }]);
      }
    });

    it('answers 400 reference_not_found for an unknown user or a unit outside the tenant or the caller\'s view', async () => {
      const userId = people.viewerA!.userId;
      const unknownUser = await as('adminA').post(tenantPath(a), { userId: randomUUID(), role: 'tenant_viewer' }).expect(400);
      expect(fieldsOf(unknownUser)).toEqual([{ path: 'body.userId', rule: 'reference_not_found' }]);
      const unknownEmail = await as('adminA').post(tenantPath(a), { userEmail: 'nobody@uplink.test', role: 'tenant_viewer' }).expect(400);
      expect(fieldsOf(unknownEmail)).toEqual([{ path: 'body.userEmail', rule: 'reference_not_found' }]);
      for (const unitId of [foreignUnit.organizationUnitId, randomUUID()]) {
        const res = await as('adminA').post(tenantPath(a), { userId, role: 'tenant_viewer', organizationUnitId: unitId }).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'body.organizationUnitId', rule: 'reference_not_found' }]);
      }
      // Out of the scoped admin's view: exactly as unknown.
      const outside = await as('scopedA').post(tenantPath(a), { userId, role: 'tenant_viewer', organizationUnitId: sibling.organizationUnitId }).expect(400);
      expect(fieldsOf(outside)).toEqual([{ path: 'body.organizationUnitId', rule: 'reference_not_found' }]);
      const both = await as('adminA')
        .post(tenantPath(a), { userId: randomUUID(), role: 'tenant_viewer', organizationUnitId: randomUUID() })
        .expect(400);
      expect(fieldsOf(both)).toEqual([
        { path: 'body.userId', rule: 'reference_not_found' },
        { path: 'body.organizationUnitId', rule: 'reference_not_found' },
      ]);
    });

    it('lets a unit-scoped admin grant only inside its subtree', async () => {
      const user = await seedUser(t);
      const grant = (who: string, body: object) => as(who).post(tenantPath(a), { userId: user.userId, role: 'tenant_viewer', ...body });
      await grant('scopedA', { organizationUnitId: site.organizationUnitId }).expect(201);
      await grant('scopedA', { organizationUnitId: region.organizationUnitId }).expect(201);
      for (const body of [{}, { organizationUnitId: null, includeDescendants: false }, { organizationUnitId: root.organizationUnitId }]) {
        const res = await grant('scopedA', body).expect(403);
        expect(res.body.error.details).toEqual({ reason: 'missing_permission', permission: 'memberships:write' });
      }
      // Without descendants the admin holds only its own unit: no subtree grants, and nothing below is visible.
      const other = await seedUser(t);
      await as('pointA').post(tenantPath(a), { userId: other.userId, role: 'tenant_viewer', organizationUnitId: region.organizationUnitId, includeDescendants: false }).expect(201);
      await as('pointA').post(tenantPath(a), { userId: other.userId, role: 'tenant_admin', organizationUnitId: region.organizationUnitId }).expect(403);
      const below = await as('pointA').post(tenantPath(a), { userId: other.userId, role: 'tenant_viewer', organizationUnitId: site.organizationUnitId }).expect(400);
      expect(fieldsOf(below)).toEqual([{ path: 'body.organizationUnitId', rule: 'reference_not_found' }]);
    });

    it('answers 403 missing_permission to viewers and operators (audited) and 404 for a foreign or unknown tenant', async () => {
      const before = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM audit_log WHERE event_type = 'access.denied' AND tenant_id = $1`,
        [a.tenantId],
      );
      for (const who of ['viewerA', 'operatorA', 'siblingViewer']) {
        const res = await as(who).post(tenantPath(a), { userId: randomUUID(), role: 'tenant_viewer' }).expect(403);
        expect(res.body.error.details).toEqual({ reason: 'missing_permission', permission: 'memberships:write' });
      }
      const after = await t.dataSource.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM audit_log WHERE event_type = 'access.denied' AND tenant_id = $1`,
        [a.tenantId],
      );
      expect(after[0]!.n - before[0]!.n).toBe(3);
      const body = { userId: people.adminB!.userId, role: 'tenant_viewer' };
      const foreign = await as('adminA').post(tenantPath(b), body).expect(404);
      const missing = await as('adminA').post(tenantPath(RANDOM_TENANT_NUMBER), body).expect(404);
      expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      expect(foreign.body.error.details).toEqual({ resourceType: 'tenant' });
    });

    it('refuses a second active grant on the same target with 409 duplicate_membership, also under a race', async () => {
      const user = await seedUser(t);
      const body = { userId: user.userId, role: 'tenant_viewer', organizationUnitId: region.organizationUnitId };
      await as('adminA').post(tenantPath(a), body).expect(201);
      const again = await as('adminA').post(tenantPath(a), { ...body, role: 'tenant_admin', includeDescendants: false }).expect(409);
      expect(again.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'duplicate_membership' } });
      // Another target for the same user is fine.
      await as('adminA').post(tenantPath(a), { ...body, organizationUnitId: site.organizationUnitId }).expect(201);

      const racer = await seedUser(t);
      const results = await Promise.all(
        Array.from({ length: 6 }, () => as('adminA').post(tenantPath(a), { userId: racer.userId, role: 'tenant_viewer' })),
      );
      expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) expect(res.body.error.details.reason).toBe('duplicate_membership');
    });

    it('grants through the platform admin without any membership', async () => {
      const user = await seedUser(t);
      await as('platformAdmin').post(tenantPath(b), { userId: user.userId, role: 'tenant_admin' }).expect(201);
    });
  });

  describe('GET /v1/tenants/{tenantNumber}/memberships', () => {
    it('lists every grant to a whole-tenant admin, oldest first, with totalCount', async () => {
      const res = await as('adminA').get(`${tenantPath(a)}?limit=100`).expect(200);
      const rows = await t.dataSource.query<{ membership_id: string }[]>(
        `SELECT membership_id FROM memberships WHERE tenant_id = $1 ORDER BY created_at, membership_id`,
        [a.tenantId],
      );
      expect(idsOf(res)).toEqual(rows.map((row) => row.membership_id));
      expect(res.body.totalCount).toBe(rows.length);
      expect(res.body.nextCursor).toBeUndefined();
      expect(res.body.items[0]).toEqual(expect.objectContaining({ userDisplayName: expect.any(String), userEmail: expect.any(String) }));
    });

    it('shows a unit-scoped admin only the grants it covers, never tenant-level or sibling grants', async () => {
      const scoped = await as('scopedA').get(`${tenantPath(a)}?limit=100`).expect(200);
      const expected = await t.dataSource.query<{ membership_id: string }[]>(
        `SELECT membership_id FROM memberships WHERE tenant_id = $1 AND organization_unit_id = ANY($2::uuid[]) ORDER BY created_at, membership_id`,
        [a.tenantId, [region.organizationUnitId, site.organizationUnitId]],
      );
      expect(idsOf(scoped)).toEqual(expected.map((row) => row.membership_id));
      expect(scoped.body.totalCount).toBe(expected.length);
      expect(idsOf(scoped)).not.toContain(grants.adminA);
      expect(idsOf(scoped)).not.toContain(grants.siblingViewer);

      const point = await as('pointA').get(`${tenantPath(a)}?limit=100`).expect(200);
      expect(point.body.items.every((item: { organizationUnitId: string }) => item.organizationUnitId === region.organizationUnitId)).toBe(true);
      expect(idsOf(point)).toContain(grants.pointA);
      expect(idsOf(point)).not.toContain(grants.adminA);
    });

    it('filters by status, role, userId, unit (null = tenant-level) and q', async () => {
      const user = await seedUser(t, { username: `Zeta-${process.pid}`, email: `zeta-${process.pid}@filters.test` });
      const tenantLevel = (await as('adminA').post(tenantPath(a), { userId: user.userId, role: 'tenant_operator' }).expect(201)).body.membershipId;
      const onSite = (
        await as('adminA').post(tenantPath(a), { userId: user.userId, role: 'tenant_viewer', organizationUnitId: site.organizationUnitId }).expect(201)
      ).body.membershipId;
      await as('adminA').post(`/v1/memberships/${onSite}/disable`).expect(200);

      const list = async (query: string) => idsOf(await as('adminA').get(`${tenantPath(a)}?limit=100&${query}`).expect(200));
      expect(await list(`userId=${user.userId}`)).toEqual([tenantLevel, onSite]);
      expect(await list(`userId=${user.userId}&status=disabled`)).toEqual([onSite]);
      expect(await list(`userId=${user.userId}&status=active`)).toEqual([tenantLevel]);
      expect(await list(`userId=${user.userId}&role=tenant_operator`)).toEqual([tenantLevel]);
      expect(await list(`userId=${user.userId}&organizationUnitId=null`)).toEqual([tenantLevel]);
      expect(await list(`userId=${user.userId}&organizationUnitId=${site.organizationUnitId}`)).toEqual([onSite]);
      expect(await list(`q=ZETA-${process.pid}`)).toEqual([tenantLevel, onSite]);
      expect(await list(`q=${encodeURIComponent(`zeta-${process.pid}@filters`)}`)).toEqual([tenantLevel, onSite]);
      expect(await list('q=%25_')).toEqual([]);
      const onlyNull = await as('adminA').get(`${tenantPath(a)}?limit=100&organizationUnitId=null`).expect(200);
      expect(onlyNull.body.items.every((item: { organizationUnitId: string | null }) => item.organizationUnitId === null)).toBe(true);
    });

    it('validates the query: values, references and cursors', async () => {
      const cases: [string, string, string][] = [
        ['status=gone', 'query.status', 'enum'],
        ['role=owner', 'query.role', 'enum'],
        ['userId=nope', 'query.userId', 'format'],
        ['organizationUnitId=nope', 'query.organizationUnitId', 'format'],
        [`q=${'x'.repeat(101)}`, 'query.q', 'max_length'],
        ['limit=10', 'query.limit', 'enum'],
        ['cursor=garbage', 'query.cursor', 'cursor_invalid'],
        ['tenantId=x', 'query.tenantId', 'unknown_property'],
        [`userId=${randomUUID()}`, 'query.userId', 'reference_not_found'],
        [`organizationUnitId=${foreignUnit.organizationUnitId}`, 'query.organizationUnitId', 'reference_not_found'],
      ];
      for (const [query, path, rule] of cases) {
        const res = await as('adminA').get(`${tenantPath(a)}?${query}`);
        expect([query, res.status, fieldsOf(res)]).toEqual([query, 400, [{ path, rule }]]);
      }
      // A sibling, an ancestor the caller only navigates to, and a random id are the same unknown reference.
      const unknown = await as('scopedA').get(`${tenantPath(a)}?organizationUnitId=${randomUUID()}`).expect(400);
      for (const unit of [sibling, root]) {
        const outside = await as('scopedA').get(`${tenantPath(a)}?organizationUnitId=${unit.organizationUnitId}`).expect(400);
        expect(fieldsOf(outside)).toEqual([{ path: 'query.organizationUnitId', rule: 'reference_not_found' }]);
        expect(withoutCorrelation(outside)).toEqual(withoutCorrelation(unknown));
      }
      // A bad cursor is a 400 before the tenant's 404.
      await as('adminA').get(`${tenantPath(RANDOM_TENANT_NUMBER)}?cursor=garbage`).expect(400);
    });

    it('pages with signed cursors bound to the filters, limit and caller', async () => {
      const c = await seedTenant(t);
      const admin = await seedUser(t);
      await seedGrant(t, admin.userId, c, 'tenant_admin');
      tokens.adminC = (await login(t, admin.username, admin.password)).accessToken;
      for (let i = 0; i < 29; i++) await seedGrant(t, (await seedUser(t)).userId, c, 'tenant_viewer');

      const first = await as('adminC').get(tenantPath(c)).expect(200);
      expect(first.body.items).toHaveLength(25);
      expect(first.body.totalCount).toBe(30);
      const second = await as('adminC').get(`${tenantPath(c)}?cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.items).toHaveLength(5);
      expect(second.body.nextCursor).toBeUndefined();
      const all = [...idsOf(first), ...idsOf(second)];
      const rows = await t.dataSource.query<{ membership_id: string }[]>(
        `SELECT membership_id FROM memberships WHERE tenant_id = $1 ORDER BY created_at, membership_id`,
        [c.tenantId],
      );
      expect(all).toEqual(rows.map((row) => row.membership_id));

      for (const query of ['limit=50', 'status=active', 'role=tenant_viewer', 'q=user']) {
        const res = await as('adminC').get(`${tenantPath(c)}?${query}&cursor=${first.body.nextCursor}`).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      }
      const otherCaller = await as('platformAdmin').get(`${tenantPath(c)}?cursor=${first.body.nextCursor}`).expect(400);
      expect(fieldsOf(otherCaller)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    });

    it('answers 403 to callers without memberships:read and 404 for a foreign tenant exactly like a missing one', async () => {
      for (const who of ['viewerA', 'operatorA']) {
        const res = await as(who).get(tenantPath(a)).expect(403);
        expect(res.body.error.details).toEqual({ reason: 'missing_permission', permission: 'memberships:read' });
      }
      for (const who of ['adminA', 'scopedA', 'viewerA']) {
        const foreign = await as(who).get(tenantPath(b)).expect(404);
        const missing = await as(who).get(tenantPath(RANDOM_TENANT_NUMBER)).expect(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      }
    });
  });

  describe('/v1/memberships/{membershipId}', () => {
    it('cannot tell a foreign or out-of-scope grant from a missing one', async () => {
      const probes = [
        (id: string, who: string) => as(who).get(`/v1/memberships/${id}`),
        (id: string, who: string) => as(who).patch(`/v1/memberships/${id}`, { role: 'tenant_viewer' }),
        (id: string, who: string) => as(who).post(`/v1/memberships/${id}/disable`),
        (id: string, who: string) => as(who).post(`/v1/memberships/${id}/reactivate`),
      ];
      const cases: [string, string][] = [
        ['adminA', grants.adminB!],
        ['viewerA', grants.adminB!],
        ['scopedA', grants.siblingViewer!],
        ['pointA', grants.siblingViewer!],
        ['siblingViewer', grants.scopedA!],
        // Memberships are org-scoped: a grant on an ancestor the caller only navigates to, or a tenant-level
        // grant seen from a unit-level grant, is not covered, so it does not exist for the caller.
        ['scopedA', grants.rootViewer!],
        ['pointA', grants.rootViewer!],
        ['scopedA', grants.adminA!],
        ['pointA', grants.viewerA!],
      ];
      for (const [who, target] of cases) {
        for (const probe of probes) {
          const hidden = await probe(target, who);
          const missing = await probe(randomUUID(), who);
          expect([who, hidden.status]).toEqual([who, 404]);
          expect(withoutCorrelation(hidden)).toEqual(withoutCorrelation(missing));
          expect(hidden.body.error.details).toEqual({ resourceType: 'membership' });
        }
      }
      const malformed = await as('adminA').get('/v1/memberships/nope').expect(400);
      expect(fieldsOf(malformed)).toEqual([{ path: 'params.membershipId', rule: 'format' }]);
    });

    it('reads a grant with memberships:read covering its target, else 403 on a visible one', async () => {
      await as('scopedA').get(`/v1/memberships/${grants.pointA}`).expect(200);
      const viewer = await as('viewerA').get(`/v1/memberships/${grants.viewerA}`).expect(403);
      expect(viewer.body.error.details).toEqual({ reason: 'missing_permission', permission: 'memberships:read' });
      // The root viewer covers the region (with descendants) but may not read grants there.
      await as('rootViewer').get(`/v1/memberships/${grants.scopedA}`).expect(403);
      await as('platformAdmin').get(`/v1/memberships/${grants.adminB}`).expect(200);
    });

    it('updates role and includeDescendants, audits before/after, and treats equal values as no change', async () => {
      const user = await seedUser(t);
      const created = await as('adminA').post(tenantPath(a), { userId: user.userId, role: 'tenant_viewer', organizationUnitId: site.organizationUnitId }).expect(201);
      const id = created.body.membershipId as string;
      const res = await as('adminA').patch(`/v1/memberships/${id}`, { role: 'tenant_operator', includeDescendants: false }).expect(200);
      expect(res.body).toMatchObject({ membershipId: id, role: 'tenant_operator', includeDescendants: false, status: 'active' });
      expect(res.body.updatedAt > created.body.updatedAt).toBe(true);
      const same = await as('adminA').patch(`/v1/memberships/${id}`, { role: 'tenant_operator' }).expect(200);
      expect(same.body).toEqual(res.body);
      const events = await auditOf(id);
      expect(events.map((event) => event.event_type)).toEqual(['membership.created', 'membership.updated']);
      expect(events[1]).toMatchObject({
        tenant_id: a.tenantId,
        metadata: {
          changedFields: ['role', 'includeDescendants'],
          role: { before: 'tenant_viewer', after: 'tenant_operator' },
          includeDescendants: { before: true, after: false },
        },
      });

      const empty = await as('adminA').patch(`/v1/memberships/${id}`, {}).expect(400);
      expect(fieldsOf(empty)).toEqual([{ path: 'body', rule: 'min_properties' }]);
      const bad = await as('adminA').patch(`/v1/memberships/${id}`, { role: 'owner', includeDescendants: 1 }).expect(400);
      expect(fieldsOf(bad)).toEqual([
        { path: 'body.role', rule: 'enum' },
        { path: 'body.includeDescendants', rule: 'type' },
      ]);
      const immutable = await as('adminA').patch(`/v1/memberships/${id}`, { organizationUnitId: null }).expect(400);
      expect(fieldsOf(immutable)).toEqual([{ path: 'body.organizationUnitId', rule: 'unknown_property' }]);
    });

    it('refuses changes beyond the caller\'s scope and writes by viewers and operators with 403', async () => {
      // pointA administers only the region itself: it may not widen a region grant to the subtree.
      const user = await seedUser(t);
      const flat = await as('pointA')
        .post(tenantPath(a), { userId: user.userId, role: 'tenant_viewer', organizationUnitId: region.organizationUnitId, includeDescendants: false })
        .expect(201);
      const widen = await as('pointA').patch(`/v1/memberships/${flat.body.membershipId}`, { includeDescendants: true }).expect(403);
      expect(widen.body.error.details).toEqual({ reason: 'missing_permission', permission: 'memberships:write' });
      await as('pointA').patch(`/v1/memberships/${flat.body.membershipId}`, { role: 'tenant_operator' }).expect(200);
      // scopedA's own grant covers region with descendants; it cannot touch the tenant-level grants.
      await as('scopedA').patch(`/v1/memberships/${flat.body.membershipId}`, { includeDescendants: true }).expect(200);
      await as('scopedA').post(`/v1/memberships/${grants.viewerA}/disable`).expect(404);
      for (const who of ['viewerA', 'operatorA']) {
        for (const res of [
          await as(who).patch(`/v1/memberships/${flat.body.membershipId}`, { role: 'tenant_admin' }),
          await as(who).post(`/v1/memberships/${flat.body.membershipId}/disable`),
          await as(who).post(`/v1/memberships/${flat.body.membershipId}/reactivate`),
        ]) {
          expect(res.status).toBe(403);
          expect(res.body.error.details).toEqual({ reason: 'missing_permission', permission: 'memberships:write' });
        }
      }
    });

    it('disables and reactivates, refusing repeated moves and a reactivation next to an active duplicate', async () => {
      const user = await seedUser(t);
      const body = { userId: user.userId, role: 'tenant_viewer', organizationUnitId: site.organizationUnitId };
      const first = (await as('adminA').post(tenantPath(a), body).expect(201)).body.membershipId as string;
      const disabled = await as('adminA').post(`/v1/memberships/${first}/disable`).expect(200);
      expect(disabled.body).toMatchObject({ membershipId: first, status: 'disabled' });
      const twice = await as('adminA').post(`/v1/memberships/${first}/disable`).expect(409);
      expect(twice.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'disabled' });

      const second = (await as('adminA').post(tenantPath(a), body).expect(201)).body.membershipId as string;
      const duplicate = await as('adminA').post(`/v1/memberships/${first}/reactivate`).expect(409);
      expect(duplicate.body.error.details).toEqual({ reason: 'duplicate_membership' });
      await as('adminA').post(`/v1/memberships/${second}/disable`).expect(200);
      const reactivated = await as('adminA').post(`/v1/memberships/${first}/reactivate`).expect(200);
      expect(reactivated.body.status).toBe('active');
      const active = await as('adminA').post(`/v1/memberships/${first}/reactivate`).expect(409);
      expect(active.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'active' });

      const events = await auditOf(first);
      expect(events.map((event) => event.event_type)).toEqual(['membership.created', 'membership.disabled', 'membership.reactivated']);
      expect(events[1]!.metadata).toMatchObject({ status: { before: 'active', after: 'disabled' }, role: 'tenant_viewer', includeDescendants: true });
      expect(events.every((event) => event.tenant_id === a.tenantId)).toBe(true);
    });

    it('makes the tenant invisible on the next request once the only grant is disabled, and visible again on reactivation', async () => {
      const user = await seedUser(t);
      const id = await seedGrant(t, user.userId, a, 'tenant_admin');
      const token = (await login(t, user.username, user.password)).accessToken;
      const read = () => t.http().get(tenantPath(a)).set('Authorization', `Bearer ${token}`);
      await read().expect(200);
      await as('adminA').post(`/v1/memberships/${id}/disable`).expect(200);
      const gone = await read().expect(404);
      expect(gone.body.error.details).toEqual({ resourceType: 'tenant' });
      const me = await t.http().get('/v1/auth/me').set('Authorization', `Bearer ${token}`).expect(200);
      expect(me.body.memberships).toEqual([]);
      expect(me.body.currentTenant).toBeNull();
      await as('adminA').post(`/v1/memberships/${id}/reactivate`).expect(200);
      await read().expect(200);
    });
  });

  describe('GET /v1/users/{userId}/memberships (history)', () => {
    it('lists a user\'s grants in every tenant and status, with tenantNumber and filters', async () => {
      const user = await seedUser(t);
      const inA = (await as('adminA').post(tenantPath(a), { userId: user.userId, role: 'tenant_viewer' }).expect(201)).body;
      const inB = (await as('adminB').post(tenantPath(b), { userId: user.userId, role: 'tenant_admin' }).expect(201)).body;
      await as('adminB').post(`/v1/memberships/${inB.membershipId}/disable`).expect(200);
      const path = `/v1/users/${user.userId}/memberships`;

      const all = await as('platformAdmin').get(path).expect(200);
      expect(all.body.totalCount).toBe(2);
      expect(all.body.items).toEqual([
        { ...inA, tenantNumber: a.tenantNumber },
        { ...inB, status: 'disabled', updatedAt: expect.stringMatching(ISO_MS), tenantNumber: b.tenantNumber },
      ]);
      expect(idsOf(await as('platformAdmin').get(`${path}?status=disabled`).expect(200))).toEqual([inB.membershipId]);
      expect(idsOf(await as('platformAdmin').get(`${path}?tenantId=${a.tenantId}`).expect(200))).toEqual([inA.membershipId]);
      expect(idsOf(await as('platformAdmin').get(`${path}?tenantId=${a.tenantId}&status=disabled`).expect(200))).toEqual([]);

      const denied = await as('adminA').get(path).expect(403);
      expect(denied.body.error.details.reason).toBe('platform_admin_required');
    });

    it('pages the history with cursors bound to its filters', async () => {
      const user = await seedUser(t);
      for (let i = 0; i < 26; i++) await seedGrant(t, user.userId, i % 2 ? a : b, 'tenant_viewer', null, { status: 'disabled' });
      const path = `/v1/users/${user.userId}/memberships`;
      const first = await as('platformAdmin').get(path).expect(200);
      expect(first.body).toMatchObject({ totalCount: 26, nextCursor: expect.any(String) });
      const second = await as('platformAdmin').get(`${path}?cursor=${first.body.nextCursor}`).expect(200);
      expect(idsOf(second)).toHaveLength(1);
      expect(new Set([...idsOf(first), ...idsOf(second)]).size).toBe(26);
      const mismatch = await as('platformAdmin').get(`${path}?status=disabled&cursor=${first.body.nextCursor}`).expect(400);
      expect(fieldsOf(mismatch)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    });
  });

  it('documents the memberships endpoints with their permissions', async () => {
    const doc = await t.http().get('/docs/openapi.json').expect(200);
    const paths = doc.body.paths as Record<string, Record<string, { tags: string[]; 'x-uplink-permission'?: { permission: string } }>>;
    const expected: [string, string, string][] = [
      ['/v1/tenants/{tenantNumber}/memberships', 'get', 'memberships:read'],
      ['/v1/tenants/{tenantNumber}/memberships', 'post', 'memberships:write'],
      ['/v1/memberships/{membershipId}', 'get', 'memberships:read'],
      ['/v1/memberships/{membershipId}', 'patch', 'memberships:write'],
      ['/v1/memberships/{membershipId}/disable', 'post', 'memberships:write'],
      ['/v1/memberships/{membershipId}/reactivate', 'post', 'memberships:write'],
    ];
    for (const [path, method, permission] of expected) {
      const operation = paths[path]?.[method];
      expect([path, method, operation?.tags, operation?.['x-uplink-permission']?.permission]).toEqual([path, method, ['memberships'], permission]);
    }
  });
});
