import { login, loginAdmin, seedUser } from './support/auth';
import { seedGrant, seedTenant, seedUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { auditRows } from './support/audit';
import { member } from './support/member';
import { as, fieldsOf, withoutCorrelation } from './support/http';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const MISSING_NUMBER = 2147483647;

let counter = 0;
const uniqueKey = (prefix = 'tn') => `${prefix}-${process.pid}-${++counter}`;

describe('tenants API', () => {
  let t: TestApp;
  let admin: ReturnType<typeof as>;

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
  });
  afterAll(() => t.close());

  describe('POST /v1/tenants', () => {
    it('creates the tenant with the next tenantNumber, its running kill-switch, Location and an audit event', async () => {
      const key = uniqueKey('acme');
      const res = await admin.post('/v1/tenants', { key, name: 'Acme Corp', metadata: { region: 'eu' } }).expect(201);
      expect(res.body).toEqual({
        tenantId: expect.stringMatching(UUID),
        tenantNumber: expect.any(Number),
        key,
        name: 'Acme Corp',
        status: 'active',
        metadata: { region: 'eu' },
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(res.body.tenantNumber).toBeGreaterThanOrEqual(1);
      expect(res.headers.location).toBe(`/v1/tenants/${res.body.tenantNumber}`);
      expect(res.headers['cache-control']).toBe('no-store');

      const next = await admin.post('/v1/tenants', { key: uniqueKey(), name: 'Next' }).expect(201);
      expect(next.body.tenantNumber).toBeGreaterThan(res.body.tenantNumber);
      expect(next.body.metadata).toEqual({});

      const [killSwitch] = await t.dataSource.query('SELECT state FROM action_kill_switches WHERE tenant_id = $1', [res.body.tenantId]);
      expect(killSwitch).toEqual({ state: 'running' });
      const [audit] = await auditRows(t, 'tenant', res.body.tenantId, 'tenant.created');
      expect(audit).toMatchObject({ tenant_id: res.body.tenantId, action: 'create', outcome: 'success' });

      const read = await admin.get(res.headers.location!).expect(200);
      expect(read.body).toEqual(res.body);
    });

    it('refuses a key already taken by any tenant (409 duplicate_key) and writes nothing', async () => {
      const existing = await seedTenant(t);
      const res = await admin.post('/v1/tenants', { key: existing.key, name: 'Again' }).expect(409);
      expect(res.body.error).toMatchObject({ code: 'CONFLICT', details: { reason: 'duplicate_key' } });
      const [{ n }] = await t.dataSource.query('SELECT count(*)::int AS n FROM tenants WHERE key = $1', [existing.key]);
      expect(n).toBe(1);
    });

    it('answers concurrent creates of one key with one 201 and 409s, never 500', async () => {
      const key = uniqueKey('race');
      const results = await Promise.all([1, 2, 3, 4].map(() => admin.post('/v1/tenants', { key, name: 'Race' })));
      expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
    });

    it.each<[string, object, { path: string; rule: string }[]]>([
      ['nothing', {}, [{ path: 'body.key', rule: 'required' }, { path: 'body.name', rule: 'required' }]],
      ['a key with capitals', { key: 'Acme', name: 'A' }, [{ path: 'body.key', rule: 'pattern' }]],
      ['a key starting with a dash', { key: '-acme', name: 'A' }, [{ path: 'body.key', rule: 'pattern' }]],
      ['a 65-character key', { key: 'a'.repeat(65), name: 'A' }, [{ path: 'body.key', rule: 'max_length' }]],
      ['a blank name', { key: 'ok-key', name: '   ' }, [{ path: 'body.name', rule: 'blank' }]],
      ['a 201-character name', { key: 'ok-key', name: 'n'.repeat(201) }, [{ path: 'body.name', rule: 'max_length' }]],
      ['a numeric name', { key: 'ok-key', name: 7 }, [{ path: 'body.name', rule: 'type' }]],
      ['metadata with a number', { key: 'ok-key', name: 'A', metadata: { a: 1 } }, [{ path: 'body.metadata', rule: 'type' }]],
      ['an unknown property', { key: 'ok-key', name: 'A', status: 'active' }, [{ path: 'body.status', rule: 'unknown_property' }]],
      ['a client tenantNumber', { key: 'ok-key', name: 'A', tenantNumber: 5 }, [{ path: 'body.tenantNumber', rule: 'unknown_property' }]],
    ])('rejects %s (400)', async (_case, body, fields) => {
      const res = await admin.post('/v1/tenants', body).expect(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(fieldsOf(res)).toEqual(fields);
    });

    it('rejects metadata with 51 properties (max_properties)', async () => {
      const metadata = Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, 'v']));
      const res = await admin.post('/v1/tenants', { key: uniqueKey(), name: 'A', metadata }).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'body.metadata', rule: 'max_properties' }]);
    });

    it('is for platform admins only, checked before the body (403 platform_admin_required)', async () => {
      const tenant = await seedTenant(t);
      const { api } = await member(t, tenant, 'tenant_admin');
      const res = await api.post('/v1/tenants', { nonsense: true }).expect(403);
      expect(res.body.error.details).toEqual({ reason: 'platform_admin_required' });
    });

    it('refuses a caller without a token (401)', async () => {
      const res = await t.http().post('/v1/tenants').send({ key: 'x', name: 'x' }).expect(401);
      expect(res.body.error.details).toEqual({ reason: 'missing_token' });
    });
  });

  describe('GET /v1/tenants/{tenantNumber}', () => {
    it('reads a tenant for any member role, also unit-scoped ones', async () => {
      const tenant = await seedTenant(t);
      for (const [role, scoped] of [
        ['tenant_viewer', false],
        ['tenant_operator', true],
        ['tenant_admin', true],
      ] as const) {
        const { api } = await member(t, tenant, role, scoped ? await seedUnit(t, tenant) : null);
        const res = await api.get(`/v1/tenants/${tenant.tenantNumber}`).expect(200);
        expect(res.body).toMatchObject({ tenantId: tenant.tenantId, tenantNumber: tenant.tenantNumber, key: tenant.key, status: 'active' });
      }
    });

    it('answers a foreign tenant exactly like a missing one (existence rule)', async () => {
      const own = await seedTenant(t);
      const foreign = await seedTenant(t);
      const { api } = await member(t, own, 'tenant_admin');
      const foreignRes = await api.get(`/v1/tenants/${foreign.tenantNumber}`).expect(404);
      const missingRes = await api.get(`/v1/tenants/${MISSING_NUMBER}`).expect(404);
      expect(foreignRes.body.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resourceType: 'tenant' } });
      expect(withoutCorrelation(foreignRes)).toEqual(withoutCorrelation(missingRes));
      await admin.get(`/v1/tenants/${MISSING_NUMBER}`).expect(404);
    });

    it('treats a disabled or revoked grant as no grant (404)', async () => {
      const tenant = await seedTenant(t);
      const user = await seedUser(t);
      await seedGrant(t, user.userId, tenant, 'tenant_admin', null, { status: 'disabled' });
      const api = as(t, (await login(t, user.username, user.password)).accessToken);
      await api.get(`/v1/tenants/${tenant.tenantNumber}`).expect(404);
    });

    it.each([
      ['0', 'minimum'],
      ['-3', 'minimum'],
      ['2147483648', 'maximum'],
      ['99999999999999999999', 'maximum'],
      ['abc', 'type'],
      ['1.5', 'type'],
      ['1e3', 'type'],
    ])('rejects tenantNumber %s as params.tenantNumber %s', async (value, rule) => {
      const res = await admin.get(`/v1/tenants/${value}`).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'params.tenantNumber', rule }]);
    });

    it('validates tenantNumber before looking the tenant up, for non-admins too', async () => {
      const tenant = await seedTenant(t);
      const { api } = await member(t, tenant, 'tenant_viewer');
      const res = await api.patch('/v1/tenants/0', { name: 'x' }).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'params.tenantNumber', rule: 'minimum' }]);
    });
  });

  describe('GET /v1/tenants', () => {
    it('lists every tenant for a platform admin, ascending, with exact totals across pages', async () => {
      const marker = uniqueKey('page');
      const created: string[] = [];
      for (let i = 0; i < 27; i++) {
        const res = await admin.post('/v1/tenants', { key: `${marker}-${String(i).padStart(2, '0')}`, name: `Paged ${i}` }).expect(201);
        created.push(res.body.tenantId);
      }
      const first = await admin.get(`/v1/tenants?q=${marker}`).expect(200);
      expect(first.body.totalCount).toBe(27);
      expect(first.body.items).toHaveLength(25);
      expect(first.body.nextCursor).toEqual(expect.any(String));
      const second = await admin.get(`/v1/tenants?q=${marker}&cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.items).toHaveLength(2);
      expect(second.body.nextCursor).toBeUndefined();
      expect(second.body.totalCount).toBe(27);
      const ids = [...first.body.items, ...second.body.items].map((item: { tenantId: string }) => item.tenantId);
      expect(ids).toEqual(created);

      const bigger = await admin.get(`/v1/tenants?q=${marker}&limit=50`).expect(200);
      expect(bigger.body.items).toHaveLength(27);

      const mismatch = await admin.get(`/v1/tenants?q=${marker}&limit=50&cursor=${first.body.nextCursor}`).expect(400);
      expect(fieldsOf(mismatch)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      const tampered = await admin.get(`/v1/tenants?q=${marker}&cursor=${first.body.nextCursor}x`).expect(400);
      expect(fieldsOf(tampered)).toEqual([{ path: 'query.cursor', rule: 'cursor_invalid' }]);
    });

    it('searches key and name case-insensitively, with LIKE wildcards taken literally, and filters by status', async () => {
      const marker = uniqueKey('srch');
      await admin.post('/v1/tenants', { key: `${marker}-one`, name: 'Alpha Station' }).expect(201);
      const two = await admin.post('/v1/tenants', { key: `${marker}-two`, name: 'Beta 100% Station' }).expect(201);
      await admin.post(`/v1/tenants/${two.body.tenantNumber}/disable`).expect(200);

      const byName = await admin.get(`/v1/tenants?q=${encodeURIComponent('ALPHA STATION')}`).expect(200);
      expect(byName.body.items.map((item: { key: string }) => item.key)).toEqual([`${marker}-one`]);
      const literal = await admin.get(`/v1/tenants?q=${encodeURIComponent('100%')}`).expect(200);
      expect(literal.body.items.map((item: { key: string }) => item.key)).toEqual([`${marker}-two`]);
      const disabled = await admin.get(`/v1/tenants?q=${marker}&status=disabled`).expect(200);
      expect(disabled.body.items.map((item: { key: string }) => item.key)).toEqual([`${marker}-two`]);
      expect(disabled.body.totalCount).toBe(1);
      const active = await admin.get(`/v1/tenants?q=${marker}&status=active`).expect(200);
      expect(active.body.items.map((item: { key: string }) => item.key)).toEqual([`${marker}-one`]);
    });

    it('lists for a member only tenants with an effective grant, never foreign ones', async () => {
      const mine = await seedTenant(t);
      const alsoMine = await seedTenant(t);
      await seedTenant(t);
      const revoked = await seedTenant(t);
      const { user, api } = await member(t, mine, 'tenant_viewer');
      const unit = await seedUnit(t, alsoMine);
      await seedGrant(t, user.userId, alsoMine, 'tenant_operator', unit);
      await seedGrant(t, user.userId, revoked, 'tenant_admin', null, { status: 'disabled' });
      const disabledUnit = await seedUnit(t, revoked, null, { status: 'disabled' });
      await seedGrant(t, user.userId, revoked, 'tenant_admin', disabledUnit);

      const res = await api.get('/v1/tenants').expect(200);
      expect(res.body.items.map((item: { tenantId: string }) => item.tenantId)).toEqual([mine.tenantId, alsoMine.tenantId]);
      expect(res.body.totalCount).toBe(2);
    });

    it('validates its query', async () => {
      const res = await admin.get(`/v1/tenants?status=gone&limit=10&q=${'q'.repeat(101)}&extra=1`).expect(400);
      expect(fieldsOf(res)).toEqual(
        expect.arrayContaining([
          { path: 'query.status', rule: 'enum' },
          { path: 'query.limit', rule: 'enum' },
          { path: 'query.q', rule: 'max_length' },
          { path: 'query.extra', rule: 'unknown_property' },
        ]),
      );
    });
  });

  describe('PATCH /v1/tenants/{tenantNumber}', () => {
    it('lets a tenant-level admin rename and replace metadata; audits tenant.updated', async () => {
      const tenant = await seedTenant(t);
      const { api } = await member(t, tenant, 'tenant_admin');
      const before = await api.get(`/v1/tenants/${tenant.tenantNumber}`).expect(200);
      const res = await api.patch(`/v1/tenants/${tenant.tenantNumber}`, { name: 'Renamed', metadata: { a: 'b' } }).expect(200);
      expect(res.body).toMatchObject({ name: 'Renamed', metadata: { a: 'b' }, key: tenant.key, createdAt: before.body.createdAt });
      expect(Date.parse(res.body.updatedAt)).toBeGreaterThan(Date.parse(before.body.updatedAt));
      const replaced = await api.patch(`/v1/tenants/${tenant.tenantNumber}`, { metadata: { c: 'd' } }).expect(200);
      expect(replaced.body.metadata).toEqual({ c: 'd' });
      const audit = await auditRows(t, 'tenant', tenant.tenantId, 'tenant.updated');
      expect(audit).toHaveLength(2);
      expect(audit[0]).toMatchObject({ tenant_id: tenant.tenantId, action: 'update', metadata: { changedFields: ['name', 'metadata'] } });
    });

    it('writes nothing when nothing changes', async () => {
      const tenant = await seedTenant(t, { name: 'Same' });
      const res = await admin.patch(`/v1/tenants/${tenant.tenantNumber}`, { name: 'Same' }).expect(200);
      expect(res.body.name).toBe('Same');
      expect(await auditRows(t, 'tenant', tenant.tenantId, 'tenant.updated')).toEqual([]);
    });

    it('refuses operators, viewers and unit-scoped admins (403 missing_permission, audited as denied)', async () => {
      const tenant = await seedTenant(t);
      for (const [role, scoped] of [
        ['tenant_operator', false],
        ['tenant_viewer', false],
        ['tenant_admin', true],
      ] as const) {
        const { api } = await member(t, tenant, role, scoped ? await seedUnit(t, tenant) : null);
        const res = await api.patch(`/v1/tenants/${tenant.tenantNumber}`, { name: 'Nope' }).expect(403);
        expect(res.body.error.details).toEqual({ reason: 'missing_permission', permission: 'tenant:write' });
      }
      const [{ n }] = await t.dataSource.query(
        `SELECT count(*)::int AS n FROM audit_log WHERE event_type = 'access.denied' AND tenant_id = $1 AND outcome = 'denied'`,
        [tenant.tenantId],
      );
      expect(n).toBe(3);
    });

    it.each<[string, object, { path: string; rule: string }[]]>([
      ['an empty body', {}, [{ path: 'body', rule: 'min_properties' }]],
      ['a key change', { key: 'new-key' }, [{ path: 'body.key', rule: 'unknown_property' }]],
      ['a status change', { status: 'disabled' }, [{ path: 'body.status', rule: 'unknown_property' }]],
      ['a blank name', { name: ' ' }, [{ path: 'body.name', rule: 'blank' }]],
      ['null metadata', { metadata: null }, [{ path: 'body.metadata', rule: 'required' }]],
    ])('rejects %s (400)', async (_case, body, fields) => {
      const tenant = await seedTenant(t);
      const res = await admin.patch(`/v1/tenants/${tenant.tenantNumber}`, body).expect(400);
      expect(fieldsOf(res)).toEqual(fields);
    });

    it('answers a foreign tenant like a missing one, before the permission', async () => {
      const own = await seedTenant(t);
      const foreign = await seedTenant(t);
      const { api } = await member(t, own, 'tenant_viewer');
      const foreignRes = await api.patch(`/v1/tenants/${foreign.tenantNumber}`, { name: 'x' }).expect(404);
      const missingRes = await api.patch(`/v1/tenants/${MISSING_NUMBER}`, { name: 'x' }).expect(404);
      expect(withoutCorrelation(foreignRes)).toEqual(withoutCorrelation(missingRes));
    });
  });

  describe('POST /v1/tenants/{tenantNumber}/disable and /reactivate', () => {
    it('disables: members lose the tenant on their next request, platform admins keep it; reactivation restores it', async () => {
      const tenant = await seedTenant(t);
      const { api } = await member(t, tenant, 'tenant_admin');
      await api.get(`/v1/tenants/${tenant.tenantNumber}`).expect(200);

      const disabled = await admin.post(`/v1/tenants/${tenant.tenantNumber}/disable`).expect(200);
      expect(disabled.body).toMatchObject({ tenantId: tenant.tenantId, status: 'disabled' });
      await api.get(`/v1/tenants/${tenant.tenantNumber}`).expect(404);
      await api.get(`/v1/tenants/${tenant.tenantNumber}/organization-units`).expect(404);
      expect((await api.get('/v1/tenants').expect(200)).body.items).toEqual([]);
      expect((await admin.get(`/v1/tenants/${tenant.tenantNumber}`).expect(200)).body.status).toBe('disabled');

      const again = await admin.post(`/v1/tenants/${tenant.tenantNumber}/disable`).expect(409);
      expect(again.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'disabled' });
      expect(disabled.body.status).toBe('disabled');
      expect(await auditRows(t, 'tenant', tenant.tenantId, 'tenant.disabled')).toHaveLength(1);

      const reactivated = await admin.post(`/v1/tenants/${tenant.tenantNumber}/reactivate`).expect(200);
      expect(reactivated.body.status).toBe('active');
      const active = await admin.post(`/v1/tenants/${tenant.tenantNumber}/reactivate`).expect(409);
      expect(active.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'active' });
      await api.get(`/v1/tenants/${tenant.tenantNumber}`).expect(200);
      const [audit] = await auditRows(t, 'tenant', tenant.tenantId, 'tenant.reactivated');
      expect(audit).toMatchObject({ tenant_id: tenant.tenantId, action: 'reactivate', metadata: { status: { before: 'disabled', after: 'active' } } });
      expect(await auditRows(t, 'tenant', tenant.tenantId, 'tenant.reactivated')).toHaveLength(1);
    });

    it('is for platform admins only, before the tenant lookup (403)', async () => {
      const tenant = await seedTenant(t);
      const { api } = await member(t, tenant, 'tenant_admin');
      for (const action of ['disable', 'reactivate']) {
        const res = await api.post(`/v1/tenants/${tenant.tenantNumber}/${action}`).expect(403);
        expect(res.body.error.details).toEqual({ reason: 'platform_admin_required' });
        await api.post(`/v1/tenants/${MISSING_NUMBER}/${action}`).expect(403);
      }
    });

    it('answers 404 for a missing tenant and 400 for a bad number', async () => {
      const missing = await admin.post(`/v1/tenants/${MISSING_NUMBER}/disable`).expect(404);
      expect(missing.body.error.details).toEqual({ resourceType: 'tenant' });
      const bad = await admin.post('/v1/tenants/zero/reactivate').expect(400);
      expect(fieldsOf(bad)).toEqual([{ path: 'params.tenantNumber', rule: 'type' }]);
    });
  });
});
