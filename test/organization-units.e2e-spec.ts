import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { loginAdmin } from './support/auth';
import { seedChain, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { auditRows } from './support/audit';
import { member } from './support/member';
import { as, fieldsOf, withoutCorrelation } from './support/http';
import { lockWaiters } from './support/wait';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MISSING_NUMBER = 2147483647;

let counter = 0;
const uniqueKey = (prefix = 'ou') => `${prefix}-${process.pid}-${++counter}`;

type Api = ReturnType<typeof as>;

interface UnitItem {
  organizationUnitId: string;
  key: string;
  status: string;
  effectiveStatus: string;
  scopeRelation: string;
  hasChildren: boolean;
}

const ids = (res: Response) => (res.body.items as UnitItem[]).map((item) => item.organizationUnitId);
const byId = (res: Response) => new Map((res.body.items as UnitItem[]).map((item) => [item.organizationUnitId, item]));
/** The ids in list order, (createdAt, id) ascending as exposed: rows seeded within one millisecond tie on createdAt. */
async function inListOrder(t: TestApp, unitIds: string[]): Promise<string[]> {
  const rows = await t.dataSource.query<{ id: string }[]>(
    'SELECT organization_unit_id AS id FROM organization_units WHERE organization_unit_id = ANY($1) ORDER BY created_at, organization_unit_id',
    [unitIds],
  );
  return rows.map((row) => row.id);
}
const unitsPath = (tenant: SeededTenant) => `/v1/tenants/${tenant.tenantNumber}/organization-units`;
const unitPath = (unit: { organizationUnitId: string }) => `/v1/organization-units/${unit.organizationUnitId}`;

describe('organization units API', () => {
  let t: TestApp;
  let admin: Api;

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
  });
  afterAll(() => t.close());

  describe('POST /v1/tenants/{tenantNumber}/organization-units', () => {
    it('creates a root and a child: 201, Location, record, materialized path, audit with tenantId', async () => {
      const tenant = await seedTenant(t);
      const root = await admin.post(unitsPath(tenant), { key: 'hq', name: 'Headquarters', metadata: { city: 'Oslo' } }).expect(201);
      expect(root.body).toEqual({
        organizationUnitId: expect.stringMatching(UUID),
        tenantId: tenant.tenantId,
        parentOrganizationUnitId: null,
        key: 'hq',
        name: 'Headquarters',
        status: 'active',
        effectiveStatus: 'active',
        scopeRelation: 'accessible',
        hasChildren: false,
        metadata: { city: 'Oslo' },
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(root.headers.location).toBe(`/v1/organization-units/${root.body.organizationUnitId}`);

      const child = await admin
        .post(unitsPath(tenant), { key: 'hq.floor-1', name: 'Floor 1', parentOrganizationUnitId: root.body.organizationUnitId.toUpperCase() })
        .expect(201);
      expect(child.body).toMatchObject({ parentOrganizationUnitId: root.body.organizationUnitId, metadata: {} });
      const grandchild = await admin
        .post(unitsPath(tenant), { key: 'room', name: 'Room', parentOrganizationUnitId: child.body.organizationUnitId })
        .expect(201);

      const [row] = await t.dataSource.query('SELECT ancestor_ids, depth FROM organization_units WHERE organization_unit_id = $1', [
        grandchild.body.organizationUnitId,
      ]);
      expect(row).toEqual({ ancestor_ids: [root.body.organizationUnitId, child.body.organizationUnitId], depth: 3 });

      const read = await admin.get(root.headers.location!).expect(200);
      expect(read.body).toEqual({ ...root.body, hasChildren: true });

      const [audit] = await auditRows(t, 'organization_unit', child.body.organizationUnitId, 'organization_unit.created');
      expect(audit).toMatchObject({
        tenant_id: tenant.tenantId,
        action: 'create',
        outcome: 'success',
        metadata: { key: 'hq.floor-1', parentOrganizationUnitId: root.body.organizationUnitId, depth: 2 },
      });
    });

    it('lets a tenant-level admin create roots; refuses operators and viewers (403 missing_permission)', async () => {
      const tenant = await seedTenant(t);
      const tenantAdmin = await member(t, tenant, 'tenant_admin');
      await tenantAdmin.api.post(unitsPath(tenant), { key: uniqueKey(), name: 'Root' }).expect(201);
      const root = await seedUnit(t, tenant);
      for (const role of ['tenant_operator', 'tenant_viewer'] as const) {
        const { api } = await member(t, tenant, role);
        for (const body of [{ key: uniqueKey(), name: 'R' }, { key: uniqueKey(), name: 'C', parentOrganizationUnitId: root.organizationUnitId }]) {
          const res = await api.post(unitsPath(tenant), body).expect(403);
          expect(res.body.error.details).toEqual({ reason: 'missing_permission', permission: 'organization-units:write' });
        }
      }
    });

    it('lets a unit-scoped admin create below its unit only: not roots, not beside or above it', async () => {
      const tenant = await seedTenant(t);
      const [root, region, site] = await seedChain(t, tenant, 3);
      const { api } = await member(t, tenant, 'tenant_admin', region!);
      await api.post(unitsPath(tenant), { key: uniqueKey(), name: 'Under region', parentOrganizationUnitId: region!.organizationUnitId }).expect(201);
      await api.post(unitsPath(tenant), { key: uniqueKey(), name: 'Under site', parentOrganizationUnitId: site!.organizationUnitId }).expect(201);
      const underRoot = await api
        .post(unitsPath(tenant), { key: uniqueKey(), name: 'Beside region', parentOrganizationUnitId: root!.organizationUnitId })
        .expect(403);
      expect(underRoot.body.error.details.reason).toBe('missing_permission');
      await api.post(unitsPath(tenant), { key: uniqueKey(), name: 'New root' }).expect(403);
    });

    it('does not let a grant without descendants create children of its own unit', async () => {
      const tenant = await seedTenant(t);
      const [, site] = await seedChain(t, tenant, 2);
      const { api } = await member(t, tenant, 'tenant_admin', site!, false);
      await api.get(unitPath(site!)).expect(200);
      const res = await api
        .post(unitsPath(tenant), { key: uniqueKey(), name: 'Child', parentOrganizationUnitId: site!.organizationUnitId })
        .expect(403);
      expect(res.body.error.details).toEqual({ reason: 'missing_permission', permission: 'organization-units:write' });

      const tenantNodeOnly = await member(t, tenant, 'tenant_admin', null, false);
      await tenantNodeOnly.api.post(unitsPath(tenant), { key: uniqueKey(), name: 'Root' }).expect(403);
    });

    it('answers a parent that is missing, foreign or out of scope with one 400 reference_not_found', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      const [, region] = await seedChain(t, tenant, 2);
      const sibling = await seedUnit(t, tenant);
      const foreignUnit = await seedUnit(t, other);
      const scoped = await member(t, tenant, 'tenant_admin', region!);
      const answers: unknown[] = [];
      for (const [api, parentId] of [
        [admin, randomUUID()],
        [admin, foreignUnit.organizationUnitId],
        [scoped.api, sibling.organizationUnitId],
        [scoped.api, foreignUnit.organizationUnitId],
      ] as const) {
        const res = await api.post(unitsPath(tenant), { key: uniqueKey(), name: 'X', parentOrganizationUnitId: parentId }).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'body.parentOrganizationUnitId', rule: 'reference_not_found' }]);
        answers.push(withoutCorrelation(res));
      }
      expect(new Set(answers.map((answer) => JSON.stringify(answer))).size).toBe(1);
    });

    it('refuses a duplicate key in the tenant (409 duplicate_key) but allows it in another tenant', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      const existing = await seedUnit(t, tenant);
      const res = await admin.post(unitsPath(tenant), { key: existing.key, name: 'Again' }).expect(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'duplicate_key' } });
      const parent = await seedUnit(t, tenant);
      const nested = await admin.post(unitsPath(tenant), { key: existing.key, name: 'Again', parentOrganizationUnitId: parent.organizationUnitId });
      expect(nested.status).toBe(409);
      await admin.post(unitsPath(other), { key: existing.key, name: 'Elsewhere' }).expect(201);

      const key = uniqueKey('race');
      const results = await Promise.all([1, 2, 3].map(() => admin.post(unitsPath(tenant), { key, name: 'Race' })));
      expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    });

    it('refuses a child of a disabled parent, of a parent below a disabled unit, and in a disabled tenant (409 parent_disabled)', async () => {
      const tenant = await seedTenant(t);
      const disabled = await seedUnit(t, tenant, null, { status: 'disabled' });
      const below = await seedUnit(t, tenant, disabled);
      for (const parent of [disabled, below]) {
        const res = await admin.post(unitsPath(tenant), { key: uniqueKey(), name: 'C', parentOrganizationUnitId: parent.organizationUnitId }).expect(409);
        expect(res.body.error.details).toMatchObject({ reason: 'parent_disabled' });
      }
      const off = await seedTenant(t, { status: 'disabled' });
      const offRoot = await seedUnit(t, off);
      const res = await admin.post(unitsPath(off), { key: uniqueKey(), name: 'C', parentOrganizationUnitId: offRoot.organizationUnitId }).expect(409);
      expect(res.body.error.details).toMatchObject({ reason: 'parent_disabled' });
    });

    it('waits for a concurrent disable of an ancestor of the parent, then refuses (409 parent_disabled)', async () => {
      const tenant = await seedTenant(t);
      const [root, region] = await seedChain(t, tenant, 2);
      const runner = t.dataSource.createQueryRunner();
      await runner.connect();
      await runner.startTransaction();
      try {
        // A disable of the root in flight: its row is updated but not committed yet.
        await runner.query(`UPDATE organization_units SET status = 'disabled' WHERE organization_unit_id = $1`, [root!.organizationUnitId]);
        const pending = admin.post(unitsPath(tenant), { key: uniqueKey(), name: 'C', parentOrganizationUnitId: region!.organizationUnitId }).then((res) => res);
        await lockWaiters(t, 1);
        await runner.commitTransaction();
        const res = await pending;
        expect(res.status).toBe(409);
        expect(res.body.error.details).toMatchObject({ reason: 'parent_disabled' });
      } finally {
        if (runner.isTransactionActive) await runner.rollbackTransaction();
        await runner.release();
      }
    });

    it('nests at most 16 levels (409 max_depth)', async () => {
      const tenant = await seedTenant(t);
      const chain = await seedChain(t, tenant, 15);
      const sixteenth = await admin
        .post(unitsPath(tenant), { key: uniqueKey(), name: 'Level 16', parentOrganizationUnitId: chain[14]!.organizationUnitId })
        .expect(201);
      const res = await admin
        .post(unitsPath(tenant), { key: uniqueKey(), name: 'Level 17', parentOrganizationUnitId: sixteenth.body.organizationUnitId })
        .expect(409);
      expect(res.body.error.details).toMatchObject({ reason: 'max_depth' });
      const ancestors = await admin.get(`${unitPath(sixteenth.body)}/ancestors`).expect(200);
      expect(ancestors.body.items.map((item: UnitItem) => item.organizationUnitId)).toEqual(chain.map((unit) => unit.organizationUnitId));
    });

    it.each<[string, object, { path: string; rule: string }[]]>([
      ['nothing', {}, [{ path: 'body.key', rule: 'required' }, { path: 'body.name', rule: 'required' }]],
      ['a bad key', { key: 'Bad Key', name: 'A' }, [{ path: 'body.key', rule: 'pattern' }]],
      ['a blank name', { key: 'k', name: '  ' }, [{ path: 'body.name', rule: 'blank' }]],
      ['a malformed parent', { key: 'k', name: 'A', parentOrganizationUnitId: 'nope' }, [{ path: 'body.parentOrganizationUnitId', rule: 'format' }]],
      ['an unknown property', { key: 'k', name: 'A', status: 'disabled' }, [{ path: 'body.status', rule: 'unknown_property' }]],
      ['metadata that is not an object', { key: 'k', name: 'A', metadata: 'x' }, [{ path: 'body.metadata', rule: 'type' }]],
    ])('rejects %s (400)', async (_case, body, fields) => {
      const tenant = await seedTenant(t);
      const res = await admin.post(unitsPath(tenant), body).expect(400);
      expect(fieldsOf(res)).toEqual(fields);
    });

    it('answers a foreign tenant exactly like a missing one, even for an admin of its own tenant', async () => {
      const own = await seedTenant(t);
      const foreign = await seedTenant(t);
      const { api } = await member(t, own, 'tenant_admin');
      const foreignRes = await api.post(unitsPath(foreign), { key: uniqueKey(), name: 'X' }).expect(404);
      const missingRes = await api.post(`/v1/tenants/${MISSING_NUMBER}/organization-units`, { key: uniqueKey(), name: 'X' }).expect(404);
      expect(foreignRes.body.error.details).toEqual({ resourceType: 'tenant' });
      expect(withoutCorrelation(foreignRes)).toEqual(withoutCorrelation(missingRes));
    });
  });

  describe('GET /v1/tenants/{tenantNumber}/organization-units', () => {
    let tenant: SeededTenant;
    let foreign: SeededTenant;
    let chain: SeededUnit[]; // root → l2 → l3 → l4 → l5
    let offPath: SeededUnit; // another child of l2
    let otherRoot: SeededUnit;
    let disabledChild: SeededUnit; // under otherRoot, disabled, with a child
    let belowDisabled: SeededUnit;
    let foreignUnit: SeededUnit;

    beforeAll(async () => {
      tenant = await seedTenant(t);
      foreign = await seedTenant(t);
      chain = await seedChain(t, tenant, 5);
      offPath = await seedUnit(t, tenant, chain[1]!, { name: 'Off path' });
      otherRoot = await seedUnit(t, tenant, null, { name: 'Other root Zeta' });
      disabledChild = await seedUnit(t, tenant, otherRoot, { status: 'disabled', name: 'Disabled zeta child' });
      belowDisabled = await seedUnit(t, tenant, disabledChild);
      foreignUnit = await seedUnit(t, foreign);
    });

    it('lists the roots for a whole-tenant caller, with hasChildren and effectiveStatus', async () => {
      const res = await admin.get(unitsPath(tenant)).expect(200);
      expect(ids(res)).toEqual(await inListOrder(t, [chain[0]!.organizationUnitId, otherRoot.organizationUnitId]));
      expect(res.body.totalCount).toBe(2);
      expect(res.body.nextCursor).toBeUndefined();
      expect(res.body.items[0]).toMatchObject({ scopeRelation: 'accessible', hasChildren: true, effectiveStatus: 'active' });

      const children = await admin.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${otherRoot.organizationUnitId}`).expect(200);
      expect(children.body.items).toEqual([
        expect.objectContaining({ organizationUnitId: disabledChild.organizationUnitId, status: 'disabled', effectiveStatus: 'disabled', hasChildren: true }),
      ]);
      const grandchildren = await admin.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${disabledChild.organizationUnitId}`).expect(200);
      expect(grandchildren.body.items).toEqual([
        expect.objectContaining({ organizationUnitId: belowDisabled.organizationUnitId, status: 'active', effectiveStatus: 'disabled', hasChildren: false }),
      ]);
    });

    it('filters by status without changing hasChildren', async () => {
      const active = await admin.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${otherRoot.organizationUnitId}&status=active`).expect(200);
      expect(active.body.items).toEqual([]);
      expect(active.body.totalCount).toBe(0);
      const roots = await admin.get(`${unitsPath(tenant)}?status=active`).expect(200);
      expect(byId(roots).get(otherRoot.organizationUnitId)?.hasChildren).toBe(true);
      const disabled = await admin.get(`${unitsPath(tenant)}?q=unit-&status=disabled`).expect(200);
      expect(ids(disabled)).toEqual([disabledChild.organizationUnitId]);
    });

    it('searches every visible unit with q (key or name, case-insensitive); an empty q is no filter (the roots)', async () => {
      const zeta = await admin.get(`${unitsPath(tenant)}?q=ZETA`).expect(200);
      expect(ids(zeta)).toEqual(await inListOrder(t, [otherRoot.organizationUnitId, disabledChild.organizationUnitId]));
      const byKey = await admin.get(`${unitsPath(tenant)}?q=${chain[3]!.key}`).expect(200);
      expect(ids(byKey)).toEqual([chain[3]!.organizationUnitId]);
      const all = await admin.get(`${unitsPath(tenant)}?q=unit-`).expect(200);
      expect(all.body.totalCount).toBe(9);
      const empty = await admin.get(`${unitsPath(tenant)}?q=`).expect(200);
      const roots = await admin.get(unitsPath(tenant)).expect(200);
      expect(ids(empty)).toEqual(await inListOrder(t, [chain[0]!.organizationUnitId, otherRoot.organizationUnitId]));
      expect(empty.body).toEqual(roots.body);
      expect(ids(all)).not.toContain(foreignUnit.organizationUnitId);
      const underParent = await admin.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${chain[1]!.organizationUnitId}&q=off path`).expect(200);
      expect(ids(underParent)).toEqual([offPath.organizationUnitId]);
    });

    it('shows a unit-scoped operator its subtree as accessible and the path above it as ancestor, nothing else', async () => {
      const { api } = await member(t, tenant, 'tenant_operator', chain[2]!);
      const roots = await api.get(unitsPath(tenant)).expect(200);
      expect(roots.body.items).toEqual([
        expect.objectContaining({ organizationUnitId: chain[0]!.organizationUnitId, scopeRelation: 'ancestor', hasChildren: true }),
      ]);
      const level2 = await api.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${chain[0]!.organizationUnitId}`).expect(200);
      expect(level2.body.items).toEqual([expect.objectContaining({ organizationUnitId: chain[1]!.organizationUnitId, scopeRelation: 'ancestor' })]);
      // offPath is a sibling of the scoped unit: invisible, so not listed.
      const level3 = await api.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${chain[1]!.organizationUnitId}`).expect(200);
      expect(level3.body.items).toEqual([
        expect.objectContaining({ organizationUnitId: chain[2]!.organizationUnitId, scopeRelation: 'accessible', hasChildren: true }),
      ]);
      expect(level3.body.totalCount).toBe(1);
      const all = await api.get(`${unitsPath(tenant)}?q=unit-`).expect(200);
      expect(ids(all)).toEqual(await inListOrder(t, chain.map((unit) => unit.organizationUnitId)));
      expect(chain.map((unit) => byId(all).get(unit.organizationUnitId)?.scopeRelation)).toEqual(['ancestor', 'ancestor', 'accessible', 'accessible', 'accessible']);

      for (const invisible of [offPath, otherRoot, foreignUnit]) {
        const res = await api.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${invisible.organizationUnitId}`).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'query.parentOrganizationUnitId', rule: 'reference_not_found' }]);
      }
    });

    it('limits a grant without descendants to its unit (hasChildren false) and the path above it', async () => {
      const { api } = await member(t, tenant, 'tenant_viewer', chain[2]!, false);
      const all = await api.get(`${unitsPath(tenant)}?q=unit-`).expect(200);
      expect(ids(all)).toEqual(await inListOrder(t, chain.slice(0, 3).map((unit) => unit.organizationUnitId)));
      expect(byId(all).get(chain[2]!.organizationUnitId)).toMatchObject({ scopeRelation: 'accessible', hasChildren: false });
      const children = await api.get(`${unitsPath(tenant)}?parentOrganizationUnitId=${chain[2]!.organizationUnitId}`).expect(200);
      expect(children.body.items).toEqual([]);
    });

    it('shows nothing to a grant on the tenant node only', async () => {
      const { api } = await member(t, tenant, 'tenant_admin', null, false);
      const res = await api.get(`${unitsPath(tenant)}?q=unit-`).expect(200);
      expect(res.body).toEqual({ items: [], totalCount: 0 });
    });

    it('pages ascending with signed cursors bound to the filters', async () => {
      const parent = await seedUnit(t, tenant);
      const created: string[] = [];
      for (let i = 0; i < 27; i++) created.push((await seedUnit(t, tenant, parent)).organizationUnitId);
      const query = `${unitsPath(tenant)}?parentOrganizationUnitId=${parent.organizationUnitId}`;
      const first = await admin.get(query).expect(200);
      expect(first.body.items).toHaveLength(25);
      expect(first.body.totalCount).toBe(27);
      const second = await admin.get(`${query}&cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.nextCursor).toBeUndefined();
      const listOrder = await inListOrder(t, created);
      expect([...ids(first), ...ids(second)]).toEqual(listOrder);
      const hundred = await admin.get(`${query}&limit=100`).expect(200);
      expect(ids(hundred)).toEqual(listOrder);

      const otherFilter = await admin.get(`${unitsPath(tenant)}?cursor=${first.body.nextCursor}`).expect(400);
      expect(fieldsOf(otherFilter)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      const { api } = await member(t, tenant, 'tenant_admin');
      const otherActor = await api.get(`${query}&cursor=${first.body.nextCursor}`).expect(400);
      expect(fieldsOf(otherActor)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    });

    it('validates its query and answers a foreign tenant like a missing one', async () => {
      const res = await admin.get(`${unitsPath(tenant)}?parentOrganizationUnitId=x&status=gone&limit=7`).expect(400);
      expect(fieldsOf(res)).toEqual(
        expect.arrayContaining([
          { path: 'query.parentOrganizationUnitId', rule: 'format' },
          { path: 'query.status', rule: 'enum' },
          { path: 'query.limit', rule: 'enum' },
        ]),
      );
      const { api } = await member(t, tenant, 'tenant_viewer');
      const foreignRes = await api.get(unitsPath(foreign)).expect(404);
      const missingRes = await api.get(`/v1/tenants/${MISSING_NUMBER}/organization-units`).expect(404);
      expect(withoutCorrelation(foreignRes)).toEqual(withoutCorrelation(missingRes));
      const bad = await api.get('/v1/tenants/0/organization-units').expect(400);
      expect(fieldsOf(bad)).toEqual([{ path: 'params.tenantNumber', rule: 'minimum' }]);
    });

    it('answers a disabled tenant with effectiveStatus disabled everywhere for a platform admin', async () => {
      const off = await seedTenant(t);
      const root = await seedUnit(t, off);
      await admin.post(`/v1/tenants/${off.tenantNumber}/disable`).expect(200);
      const res = await admin.get(unitsPath(off)).expect(200);
      expect(res.body.items).toEqual([expect.objectContaining({ organizationUnitId: root.organizationUnitId, status: 'active', effectiveStatus: 'disabled' })]);
    });
  });

  describe('GET /v1/organization-units/{id} and /ancestors', () => {
    it('reads a visible unit; ancestors come root first without the unit itself', async () => {
      const tenant = await seedTenant(t);
      const chain = await seedChain(t, tenant, 4);
      const { api } = await member(t, tenant, 'tenant_viewer', chain[1]!);
      const own = await api.get(unitPath(chain[3]!)).expect(200);
      expect(own.body).toMatchObject({ organizationUnitId: chain[3]!.organizationUnitId, scopeRelation: 'accessible', hasChildren: false });
      const up = await api.get(unitPath(chain[0]!)).expect(200);
      expect(up.body).toMatchObject({ scopeRelation: 'ancestor', hasChildren: true });

      const ancestors = await api.get(`${unitPath(chain[3]!)}/ancestors`).expect(200);
      expect(ancestors.body.items.map((item: UnitItem) => [item.organizationUnitId, item.scopeRelation])).toEqual([
        [chain[0]!.organizationUnitId, 'ancestor'],
        [chain[1]!.organizationUnitId, 'accessible'],
        [chain[2]!.organizationUnitId, 'accessible'],
      ]);
      expect((await api.get(`${unitPath(chain[0]!)}/ancestors`).expect(200)).body).toEqual({ items: [] });
    });

    it('answers a foreign unit, an out-of-scope unit and a random id with one identical 404', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      const [, region] = await seedChain(t, tenant, 2);
      const sibling = await seedUnit(t, tenant);
      const foreignUnit = await seedUnit(t, other);
      const { api } = await member(t, tenant, 'tenant_admin', region!);
      for (const suffix of ['', '/ancestors']) {
        const missing = await api.get(`/v1/organization-units/${randomUUID()}${suffix}`).expect(404);
        expect(missing.body.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resourceType: 'organization_unit' } });
        for (const target of [foreignUnit, sibling]) {
          const res = await api.get(`${unitPath(target)}${suffix}`).expect(404);
          expect(withoutCorrelation(res)).toEqual(withoutCorrelation(missing));
        }
      }
      const malformed = await api.get('/v1/organization-units/not-a-uuid').expect(400);
      expect(fieldsOf(malformed)).toEqual([{ path: 'params.organizationUnitId', rule: 'format' }]);
    });

    it('hides a disabled tenant’s units from its members but not from platform admins', async () => {
      const tenant = await seedTenant(t);
      const root = await seedUnit(t, tenant);
      const { api } = await member(t, tenant, 'tenant_admin');
      await api.get(unitPath(root)).expect(200);
      await admin.post(`/v1/tenants/${tenant.tenantNumber}/disable`).expect(200);
      const hidden = await api.get(unitPath(root)).expect(404);
      expect(hidden.body.error.details).toEqual({ resourceType: 'organization_unit' });
      expect((await admin.get(unitPath(root)).expect(200)).body.effectiveStatus).toBe('disabled');
    });
  });

  describe('PATCH /v1/organization-units/{id}', () => {
    it('renames and replaces metadata for an admin covering the unit; audits organization_unit.updated', async () => {
      const tenant = await seedTenant(t);
      const [, region] = await seedChain(t, tenant, 2);
      const site = await seedUnit(t, tenant, region!);
      const { api } = await member(t, tenant, 'tenant_admin', region!);
      const res = await api.patch(unitPath(site), { name: 'New name', metadata: { a: '1' } }).expect(200);
      expect(res.body).toMatchObject({ name: 'New name', metadata: { a: '1' }, key: site.key, scopeRelation: 'accessible' });
      const again = await api.patch(unitPath(site), { name: 'New name' }).expect(200);
      expect(again.body.updatedAt).toBe(res.body.updatedAt);
      const audit = await auditRows(t, 'organization_unit', site.organizationUnitId, 'organization_unit.updated');
      expect(audit).toHaveLength(1);
      expect(audit[0]).toMatchObject({ tenant_id: tenant.tenantId, action: 'update', metadata: { changedFields: ['name', 'metadata'] } });
    });

    it('refuses an ancestor unit, a viewer and an operator with 403 missing_permission', async () => {
      const tenant = await seedTenant(t);
      const [root, region] = await seedChain(t, tenant, 2);
      const scoped = await member(t, tenant, 'tenant_admin', region!);
      const ancestorRes = await scoped.api.patch(unitPath(root!), { name: 'Not mine' }).expect(403);
      expect(ancestorRes.body.error.details).toEqual({ reason: 'missing_permission', permission: 'organization-units:write' });
      for (const role of ['tenant_viewer', 'tenant_operator'] as const) {
        const { api } = await member(t, tenant, role);
        await api.patch(unitPath(region!), { name: 'Nope' }).expect(403);
      }
      const [{ n }] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM audit_log WHERE event_type = 'access.denied' AND tenant_id = $1`,
        [tenant.tenantId],
      );
      expect(n).toBe(3);
    });

    it.each<[string, object, { path: string; rule: string }[]]>([
      ['an empty body', {}, [{ path: 'body', rule: 'min_properties' }]],
      ['a key change', { key: 'other' }, [{ path: 'body.key', rule: 'unknown_property' }]],
      ['re-parenting', { parentOrganizationUnitId: '00000000-0000-4000-8000-000000000000' }, [{ path: 'body.parentOrganizationUnitId', rule: 'unknown_property' }]],
      ['a status change', { status: 'disabled' }, [{ path: 'body.status', rule: 'unknown_property' }]],
      ['a long name', { name: 'x'.repeat(201) }, [{ path: 'body.name', rule: 'max_length' }]],
    ])('rejects %s (400)', async (_case, body, fields) => {
      const tenant = await seedTenant(t);
      const unit = await seedUnit(t, tenant);
      const res = await admin.patch(unitPath(unit), body).expect(400);
      expect(fieldsOf(res)).toEqual(fields);
    });
  });

  describe('POST /v1/organization-units/{id}/disable and /reactivate', () => {
    it('disables the subtree effectively, makes grants inside it ineffective on the next request, and reactivates', async () => {
      const tenant = await seedTenant(t);
      const [root, region, site] = await seedChain(t, tenant, 3);
      const tenantAdmin = await member(t, tenant, 'tenant_admin');
      const scoped = await member(t, tenant, 'tenant_operator', site!);
      await scoped.api.get(unitPath(site!)).expect(200);

      const disabled = await tenantAdmin.api.post(`${unitPath(region!)}/disable`).expect(200);
      expect(disabled.body).toMatchObject({ status: 'disabled', effectiveStatus: 'disabled' });
      const below = await tenantAdmin.api.get(unitPath(site!)).expect(200);
      expect(below.body).toMatchObject({ status: 'active', effectiveStatus: 'disabled' });
      expect((await tenantAdmin.api.get(unitPath(root!)).expect(200)).body.effectiveStatus).toBe('active');

      // The operator's only grant sits below the disabled unit: the tenant disappears for it at once.
      await scoped.api.get(unitPath(site!)).expect(404);
      await scoped.api.get(`/v1/tenants/${tenant.tenantNumber}`).expect(404);
      await tenantAdmin.api
        .post(unitsPath(tenant), { key: uniqueKey(), name: 'C', parentOrganizationUnitId: site!.organizationUnitId })
        .expect(409);

      const again = await tenantAdmin.api.post(`${unitPath(region!)}/disable`).expect(409);
      expect(again.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'disabled' });
      expect(disabled.body.status).toBe('disabled');
      expect(await auditRows(t, 'organization_unit', region!.organizationUnitId, 'organization_unit.disabled')).toEqual([
        expect.objectContaining({ tenant_id: tenant.tenantId, action: 'disable', metadata: { status: { before: 'active', after: 'disabled' } } }),
      ]);

      const reactivated = await tenantAdmin.api.post(`${unitPath(region!)}/reactivate`).expect(200);
      expect(reactivated.body).toMatchObject({ status: 'active', effectiveStatus: 'active' });
      const active = await tenantAdmin.api.post(`${unitPath(region!)}/reactivate`).expect(409);
      expect(active.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'active' });
      expect(await auditRows(t, 'organization_unit', region!.organizationUnitId, 'organization_unit.reactivated')).toHaveLength(1);
      await scoped.api.get(unitPath(site!)).expect(200);
    });

    it('refuses an ancestor unit and a viewer (403), and answers invisible units with 404', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      const [root, region] = await seedChain(t, tenant, 2);
      const foreignUnit = await seedUnit(t, other);
      const scoped = await member(t, tenant, 'tenant_admin', region!);
      const viewer = await member(t, tenant, 'tenant_viewer');
      for (const action of ['disable', 'reactivate']) {
        const ancestor = await scoped.api.post(`${unitPath(root!)}/${action}`).expect(403);
        expect(ancestor.body.error.details.reason).toBe('missing_permission');
        await viewer.api.post(`${unitPath(region!)}/${action}`).expect(403);
        const foreignRes = await scoped.api.post(`${unitPath(foreignUnit)}/${action}`).expect(404);
        const missingRes = await scoped.api.post(`/v1/organization-units/${randomUUID()}/${action}`).expect(404);
        expect(withoutCorrelation(foreignRes)).toEqual(withoutCorrelation(missingRes));
      }
      const own = await scoped.api.post(`${unitPath(region!)}/disable`).expect(200);
      expect(own.body.status).toBe('disabled');
    });
  });
});
