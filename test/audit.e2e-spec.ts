import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedGrant, seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { fieldsOf, withoutCorrelation } from './support/http';
import { waitUntil } from './support/wait';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const HOUR = 3600_000;
const DAY = 24 * HOUR;

interface EventRow {
  tenant_id: string | null;
  event_type: string;
  actor_type: string;
  actor_id: string;
  action: string;
  entity_type: string;
  entity_id: string | null;
  outcome: string;
  occurred_at: string;
  correlation_id: string;
  method: string | null;
  route: string | null;
  status_code: number | null;
  metadata: Record<string, unknown>;
}

/** Audit rows written straight to the table (the writers have their own tests); returns their ids in order. */
async function seedEvents(t: TestApp, rows: Partial<EventRow>[]): Promise<string[]> {
  const full = rows.map((row) => ({
    tenant_id: null,
    event_type: 'device.assigned',
    actor_type: 'user',
    actor_id: randomUUID(),
    action: 'assign',
    entity_type: 'device',
    entity_id: null,
    outcome: 'success',
    occurred_at: new Date(Date.now() - HOUR).toISOString(),
    correlation_id: randomUUID(),
    method: null,
    route: null,
    status_code: null,
    metadata: {},
    ...row,
  }));
  const inserted = await t.dataSource.query<{ audit_log_id: string; ord: string }[]>(
    `INSERT INTO audit_log (tenant_id, event_type, actor_type, actor_id, action, entity_type, entity_id, outcome, occurred_at,
                            correlation_id, method, route, status_code, metadata)
     SELECT tenant_id, event_type, actor_type, actor_id, action, entity_type, entity_id, outcome, occurred_at,
            correlation_id, method, route, status_code, metadata
       FROM jsonb_array_elements($1::jsonb) WITH ORDINALITY AS e(doc, ord),
            jsonb_to_record(e.doc) AS x(tenant_id uuid, event_type text, actor_type text, actor_id text,
            action text, entity_type text, entity_id text, outcome text, occurred_at timestamptz, correlation_id text, method text,
            route text, status_code int, metadata jsonb)
      ORDER BY e.ord
     RETURNING audit_log_id`,
    [JSON.stringify(full)],
  );
  return inserted.map((row) => row.audit_log_id);
}

/** `count` events of the tenant, one minute apart from `newest` backwards. */
function series(tenant: SeededTenant, count: number, newest = Date.now() - HOUR, extra: Partial<EventRow> = {}): Partial<EventRow>[] {
  return Array.from({ length: count }, (_, index) => ({
    tenant_id: tenant.tenantId,
    occurred_at: new Date(newest - index * 60_000).toISOString(),
    ...extra,
  }));
}

const ids = (res: Response): string[] => (res.body as { items: { auditLogId: string }[] }).items.map((item) => item.auditLogId);

describe('audit API', () => {
  let t: TestApp;
  let paToken: string;
  let tenant: SeededTenant;
  let other: SeededTenant;
  const tokens: Record<'admin' | 'admin2' | 'operator' | 'viewer' | 'unitAdmin' | 'otherAdmin', string> = {} as never;

  const get = (token: string, path: string) => t.http().get(path).set('Authorization', `Bearer ${token}`);
  const list = (token: string, target: SeededTenant, query = '') => get(token, `/v1/tenants/${target.tenantNumber}/audit-logs${query ? `?${query}` : ''}`);

  /** A tenant of its own for a test, with its admin signed in. */
  async function freshTenant(): Promise<{ tenant: SeededTenant; token: string }> {
    const fresh = await seedTenant(t);
    const user = await seedUser(t);
    await seedGrant(t, user.userId, fresh, 'tenant_admin');
    return { tenant: fresh, token: (await login(t, user.username, user.password)).accessToken };
  }

  beforeAll(async () => {
    t = await startTestApp();
    paToken = (await loginAdmin(t)).accessToken;
    tenant = await seedTenant(t);
    other = await seedTenant(t);
    const unit = await seedUnit(t, tenant);
    const grants: [keyof typeof tokens, SeededTenant, 'tenant_admin' | 'tenant_operator' | 'tenant_viewer', boolean][] = [
      ['admin', tenant, 'tenant_admin', false],
      ['admin2', tenant, 'tenant_admin', false],
      ['operator', tenant, 'tenant_operator', false],
      ['viewer', tenant, 'tenant_viewer', false],
      ['unitAdmin', tenant, 'tenant_admin', true],
      ['otherAdmin', other, 'tenant_admin', false],
    ];
    for (const [name, target, role, unitLevel] of grants) {
      const user = await seedUser(t);
      await seedGrant(t, user.userId, target, role, unitLevel ? unit : null);
      tokens[name] = (await login(t, user.username, user.password)).accessToken;
    }
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('GET /v1/tenants/{tenantNumber}/audit-logs', () => {
    it('lists only the tenant\'s events of the last 24 hours, newest first, with every field of the event', async () => {
      const actorId = randomUUID();
      const entityId = randomUUID();
      const [full] = await seedEvents(t, [
        {
          tenant_id: tenant.tenantId,
          event_type: 'device.assigned',
          actor_type: 'user',
          actor_id: actorId,
          action: 'assign',
          entity_type: 'device',
          entity_id: entityId,
          outcome: 'success',
          occurred_at: new Date(Date.now() - 10 * 60_000).toISOString(),
          correlation_id: 'corr-full-1',
          method: 'POST',
          route: '/v1/devices/{deviceId}/assign',
          status_code: 200,
          metadata: { organizationUnitId: entityId, count: 2 },
        },
      ]);
      const [older, newer] = await seedEvents(t, [
        { tenant_id: tenant.tenantId, occurred_at: new Date(Date.now() - 2 * HOUR).toISOString(), event_type: 'session.login_failed' },
        { tenant_id: tenant.tenantId, occurred_at: new Date(Date.now() - 60_000).toISOString(), outcome: 'denied' },
      ]);
      await seedEvents(t, [
        { tenant_id: tenant.tenantId, occurred_at: new Date(Date.now() - DAY - HOUR).toISOString() }, // before the default window
        { tenant_id: tenant.tenantId, occurred_at: new Date(Date.now() + HOUR).toISOString() }, // after the anchor (now)
        { tenant_id: other.tenantId, occurred_at: new Date(Date.now() - 5 * 60_000).toISOString() },
        { tenant_id: null, occurred_at: new Date(Date.now() - 5 * 60_000).toISOString() },
      ]);
      const res = await list(tokens.admin, tenant).expect(200);
      expect(ids(res)).toEqual([newer, full, older]);
      expect(res.body.nextCursor).toBeUndefined();
      expect(Object.keys(res.body).sort()).toEqual(['items']);
      const item = res.body.items[1];
      expect(item).toEqual({
        auditLogId: full,
        eventType: 'device.assigned',
        actorType: 'user',
        actorId,
        action: 'assign',
        entityType: 'device',
        entityId,
        outcome: 'success',
        occurredAt: expect.stringMatching(ISO_MS),
        correlationId: 'corr-full-1',
        method: 'POST',
        route: '/v1/devices/{deviceId}/assign',
        statusCode: 200,
        metadata: { organizationUnitId: entityId, count: 2 },
      });
      expect(item.auditLogId).toMatch(UUID);
      expect(res.body.items[0]).toMatchObject({ entityId: null, method: null, route: null, statusCode: null, metadata: {} });
    });

    it('takes from/to as a half-open window [from, to)', async () => {
      const { tenant: own, token } = await freshTenant();
      const base = Date.parse('2026-03-10T12:00:00.000Z');
      const [atFrom, inside, atTo, before] = await seedEvents(t, [
        { tenant_id: own.tenantId, occurred_at: new Date(base).toISOString() },
        { tenant_id: own.tenantId, occurred_at: new Date(base + HOUR).toISOString() },
        { tenant_id: own.tenantId, occurred_at: new Date(base + 2 * HOUR).toISOString() },
        { tenant_id: own.tenantId, occurred_at: new Date(base - 1).toISOString() },
      ]);
      const from = encodeURIComponent('2026-03-10T13:00:00+01:00'); // the same instant as `base`, another offset
      const res = await list(token, own, `from=${from}&to=2026-03-10T14:00:00.000Z`).expect(200);
      expect(ids(res)).toEqual([inside, atFrom]);
      expect(ids(res)).not.toContain(atTo);
      expect(ids(res)).not.toContain(before);
      const whole = await list(token, own, 'from=2026-03-01T00:00:00Z&to=2026-03-31T00:00:00Z').expect(200);
      expect(ids(whole)).toEqual([atTo, inside, atFrom, before]);
    });

    it('applies every filter exactly, in SQL', async () => {
      const { tenant: own, token } = await freshTenant();
      const actorId = randomUUID();
      const entityId = randomUUID();
      const base: Partial<EventRow> = { tenant_id: own.tenantId, occurred_at: new Date(Date.now() - HOUR).toISOString() };
      const [match, ...others] = await seedEvents(t, [
        {
          ...base,
          event_type: 'device.assigned',
          action: 'assign',
          actor_id: actorId,
          entity_type: 'device',
          entity_id: entityId,
          correlation_id: 'corr-filter-1',
          method: 'POST',
          route: '/v1/devices/{deviceId}/assign',
          status_code: 201,
        },
        { ...base, event_type: 'device.updated', action: 'update', actor_id: 'system', actor_type: 'system', entity_type: 'device_type', entity_id: randomUUID(), correlation_id: 'corr-filter-2', method: 'PATCH', route: '/v1/devices/{deviceId}', status_code: 200 },
        { ...base, event_type: 'device.created', action: 'create', entity_type: 'device', correlation_id: 'corr-filter-3', method: 'GET', route: '/v1/devices/123', status_code: 403 },
      ]);
      expect(others).toHaveLength(2);
      const cases = [
        'eventType=device.assigned',
        'action=assign',
        `actorId=${actorId}`,
        `entityId=${entityId}`,
        'correlationId=corr-filter-1',
        'method=POST',
        'method=post',
        `route=${encodeURIComponent('/v1/devices/{deviceId}/assign')}`,
        'statusCode=201',
        `eventType=device.assigned&action=assign&entityType=device&statusCode=201&actorId=${actorId}`,
      ];
      for (const query of cases) {
        const res = await list(token, own, query).expect(200);
        expect({ query, ids: ids(res) }).toEqual({ query, ids: [match] });
      }
      expect(ids(await list(token, own, 'entityType=device').expect(200)).sort()).toEqual([match, others[1]].sort());
      // route is the template, never a concrete path; no filter matches a prefix or another case.
      for (const query of [`route=${encodeURIComponent('/v1/devices/123/assign')}`, 'eventType=device', 'action=ASSIGN', 'statusCode=404', 'actorId=nobody']) {
        expect({ query, ids: ids(await list(token, own, query).expect(200)) }).toEqual({ query, ids: [] });
      }
    });

    it('pages newest first without skipping or repeating rows that share a microsecond, and omits nextCursor at the end', async () => {
      const { tenant: own, token } = await freshTenant();
      const same = '2026-04-01T10:00:00.123456Z';
      const seeded = await seedEvents(t, [
        ...series(own, 4, Date.parse('2026-04-01T11:00:00Z')),
        { tenant_id: own.tenantId, occurred_at: same },
        { tenant_id: own.tenantId, occurred_at: same },
        { tenant_id: own.tenantId, occurred_at: same },
        { tenant_id: own.tenantId, occurred_at: '2026-04-01T10:00:00.123457Z' },
        { tenant_id: own.tenantId, occurred_at: '2026-04-01T10:00:00.123455Z' },
      ]);
      const window = 'from=2026-04-01T00:00:00Z&to=2026-04-02T00:00:00Z';
      const expected = await t.dataSource.query<{ audit_log_id: string }[]>(
        `SELECT audit_log_id FROM audit_log WHERE tenant_id = $1 ORDER BY occurred_at DESC, audit_log_id DESC`,
        [own.tenantId],
      );
      expect(expected).toHaveLength(seeded.length);
      const seen: string[] = [];
      let cursor: string | undefined;
      let pages = 0;
      do {
        const res = await list(token, own, `${window}&limit=2${cursor ? `&cursor=${cursor}` : ''}`).expect(200);
        expect(res.body.items.length).toBeLessThanOrEqual(2);
        seen.push(...ids(res));
        cursor = res.body.nextCursor;
        pages += 1;
      } while (cursor);
      expect(pages).toBe(5);
      expect(seen).toEqual(expected.map((row) => row.audit_log_id));
    });

    it('fixes the upper anchor on page 1: events written later never appear on later pages', async () => {
      const { tenant: own, token } = await freshTenant();
      await seedEvents(t, series(own, 5, Date.now() - 10 * 60_000));
      for (const window of ['', `from=${new Date(Date.now() - DAY).toISOString()}&to=${new Date(Date.now() + DAY).toISOString()}`]) {
        const first = await list(token, own, `${window}&limit=2`).expect(200);
        expect(first.body.nextCursor).toEqual(expect.any(String));
        // Written after page 1: now (database clock), and in the past relative to page 1's rows but after its anchor.
        await new Promise((resolve) => setTimeout(resolve, 5));
        const late = await t.dataSource.query<{ audit_log_id: string }[]>(
          `INSERT INTO audit_log (tenant_id, event_type, actor_type, actor_id, action, entity_type, outcome, correlation_id, occurred_at)
           VALUES ($1, 'device.created', 'user', 'late-writer', 'create', 'device', 'success', 'late', now())
           RETURNING audit_log_id`,
          [own.tenantId],
        );
        const seen = [...ids(first)];
        let cursor: string | undefined = first.body.nextCursor;
        while (cursor) {
          const res = await list(token, own, `${window}&limit=2&cursor=${cursor}`).expect(200);
          seen.push(...ids(res));
          cursor = res.body.nextCursor;
        }
        const lateIds = late.map((row) => row.audit_log_id);
        expect(seen.filter((id) => lateIds.includes(id))).toEqual([]);
        expect(new Set(seen).size).toBe(seen.length);
        // A new listing starts a new anchor and sees them.
        const fresh = await list(token, own, `${window}&limit=100`).expect(200);
        expect(ids(fresh)).toEqual(expect.arrayContaining(lateIds));
      }
    });

    it('keeps the default window of page 1 (anchor - 24 h) for every later page', async () => {
      const { tenant: own, token } = await freshTenant();
      // 1.5 s inside the window when page 1 is read; outside a window that moved with the clock by page 2.
      const [edge] = await t.dataSource.query<{ audit_log_id: string }[]>(
        `INSERT INTO audit_log (tenant_id, event_type, actor_type, actor_id, action, entity_type, outcome, correlation_id, occurred_at)
         VALUES ($1, 'device.created', 'system', 'system', 'create', 'device', 'success', 'edge', now() - interval '24 hours' + interval '1500 milliseconds')
         RETURNING audit_log_id`,
        [own.tenantId],
      );
      await seedEvents(t, series(own, 3, Date.now() - 60_000));
      const first = await list(token, own, 'limit=2').expect(200);
      // Until the clock has moved the edge event out of a window anchored now: a moving window would lose it.
      await waitUntil(async () => {
        const [{ outside }] = await t.dataSource.query<{ outside: boolean }[]>(
          `SELECT now() - interval '24 hours' > occurred_at + interval '10 milliseconds' AS outside FROM audit_log WHERE audit_log_id = $1`,
          [edge!.audit_log_id],
        );
        return outside;
      }, 5_000);
      const second = await list(token, own, `limit=2&cursor=${first.body.nextCursor}`).expect(200);
      expect(ids(second)).toHaveLength(2);
      expect(ids(second)[1]).toBe(edge!.audit_log_id);
      expect(second.body.nextCursor).toBeUndefined();
      expect(ids(await list(token, own, 'limit=100').expect(200))).not.toContain(edge!.audit_log_id);
    });

    it('refuses a cursor reused with another filter, window, limit, caller or tenant (cursor_mismatch) and a tampered one (cursor_invalid)', async () => {
      await seedEvents(t, series(tenant, 3, Date.now() - 30 * 60_000, { event_type: 'tenant.updated', action: 'update', entity_type: 'tenant' }));
      const first = await list(tokens.admin, tenant, 'eventType=tenant.updated&limit=1').expect(200);
      const cursor = first.body.nextCursor as string;
      expect(cursor.length).toBeLessThanOrEqual(512);
      await list(tokens.admin, tenant, `eventType=tenant.updated&limit=1&cursor=${cursor}`).expect(200);
      const window = `from=${new Date(Date.now() - DAY).toISOString()}&to=${new Date(Date.now()).toISOString()}`;
      const mismatches: [string, string, SeededTenant][] = [
        ['other filter', `eventType=tenant.created&limit=1&cursor=${cursor}`, tenant],
        ['filter dropped', `limit=1&cursor=${cursor}`, tenant],
        ['filter added', `eventType=tenant.updated&action=update&limit=1&cursor=${cursor}`, tenant],
        ['limit', `eventType=tenant.updated&limit=2&cursor=${cursor}`, tenant],
        ['default limit', `eventType=tenant.updated&cursor=${cursor}`, tenant],
        ['window', `eventType=tenant.updated&limit=1&${window}&cursor=${cursor}`, tenant],
      ];
      for (const [name, query, target] of mismatches) {
        const res = await list(tokens.admin, target, query);
        expect({ name, status: res.status, fields: res.status === 400 ? fieldsOf(res) : null }).toEqual({
          name,
          status: 400,
          fields: [{ path: 'query.cursor', rule: 'cursor_mismatch' }],
        });
      }
      // Another caller of the same tenant, or the same cursor on another tenant or on the global list.
      const foreignCaller = await list(tokens.admin2, tenant, `eventType=tenant.updated&limit=1&cursor=${cursor}`).expect(400);
      expect(fieldsOf(foreignCaller)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      const paCursor = (await list(paToken, tenant, 'eventType=tenant.updated&limit=1').expect(200)).body.nextCursor as string;
      const onOther = await list(paToken, other, `eventType=tenant.updated&limit=1&cursor=${paCursor}`).expect(400);
      expect(fieldsOf(onOther)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      const onGlobal = await get(paToken, `/v1/audit-logs?eventType=tenant.updated&limit=1&cursor=${paCursor}`).expect(400);
      expect(fieldsOf(onGlobal)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
      // Tampering: one changed character, extra characters, garbage, too long.
      const flipped = `${cursor.slice(0, 12)}${cursor[12] === 'A' ? 'B' : 'A'}${cursor.slice(13)}`;
      for (const bad of [flipped, `${cursor}A`, 'garbage', `${cursor.slice(0, -2)}`]) {
        const res = await list(tokens.admin, tenant, `eventType=tenant.updated&limit=1&cursor=${bad}`).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'query.cursor', rule: 'cursor_invalid' }]);
      }
      const long = await list(tokens.admin, tenant, `cursor=${'A'.repeat(513)}`).expect(400);
      expect(fieldsOf(long)).toEqual([{ path: 'query.cursor', rule: 'max_length' }]);
    });

    it('checks limit bounds: 1..100, default 25', async () => {
      const { tenant: own, token } = await freshTenant();
      await seedEvents(t, series(own, 101, Date.now() - 2 * 60_000, {}).map((row, index) => ({ ...row, occurred_at: new Date(Date.now() - 60_000 - index * 1000).toISOString() })));
      const byDefault = await list(token, own).expect(200);
      expect(byDefault.body.items).toHaveLength(25);
      expect((await list(token, own, 'limit=1').expect(200)).body.items).toHaveLength(1);
      const hundred = await list(token, own, 'limit=100').expect(200);
      expect(hundred.body.items).toHaveLength(100);
      expect(hundred.body.nextCursor).toEqual(expect.any(String));
      for (const [limit, rule] of [
        ['0', 'minimum'],
        ['101', 'maximum'],
        ['-1', 'minimum'],
        ['abc', 'type'],
        ['2.5', 'type'],
      ]) {
        const res = await list(token, own, `limit=${limit}`).expect(400);
        expect({ limit, fields: fieldsOf(res) }).toEqual({ limit, fields: [{ path: 'query.limit', rule }] });
      }
    });

    it('validates the window pair, range, span and formats, and the other query fields', async () => {
      const from = '2026-01-01T00:00:00.000Z';
      const cases: [string, { path: string; rule: string }[]][] = [
        [`from=${from}`, [{ path: 'query.to', rule: 'required' }]],
        ['to=2026-01-02T00:00:00Z', [{ path: 'query.from', rule: 'required' }]],
        [`from=${from}&to=${from}`, [{ path: 'query.to', rule: 'range' }]],
        [`from=${from}&to=2025-12-31T23:59:59Z`, [{ path: 'query.to', rule: 'range' }]],
        [`from=${from}&to=2026-02-01T00:00:00.001Z`, [{ path: 'query.to', rule: 'max_span' }]],
        [`from=yesterday&to=2026-01-02T00:00:00Z`, [{ path: 'query.from', rule: 'format' }]],
        [`from=${from}&to=2026-01-02`, [{ path: 'query.to', rule: 'format' }]],
        [`from=${from}&to=2026-01-02T00:00:00`, [{ path: 'query.to', rule: 'format' }]],
        ['statusCode=abc', [{ path: 'query.statusCode', rule: 'type' }]],
        ['statusCode=99', [{ path: 'query.statusCode', rule: 'minimum' }]],
        [`correlationId=${'c'.repeat(129)}`, [{ path: 'query.correlationId', rule: 'max_length' }]],
        ['unknown=1', [{ path: 'query.unknown', rule: 'unknown_property' }]],
        ['eventType=a&eventType=b', [{ path: 'query.eventType', rule: 'type' }]],
      ];
      for (const [query, fields] of cases) {
        const res = await list(tokens.admin, tenant, query);
        expect({ query, status: res.status, fields: res.status === 400 ? fieldsOf(res) : null }).toEqual({ query, status: 400, fields });
      }
      // Exactly 31 days is allowed; the offset of either bound may differ.
      await list(tokens.admin, tenant, `from=${from}&to=2026-02-01T00:00:00Z`).expect(200);
      await list(tokens.admin, tenant, `from=${encodeURIComponent('2026-01-01T02:00:00+02:00')}&to=2026-02-01T00:00:00Z`).expect(200);
      const badNumber = await get(tokens.admin, '/v1/tenants/abc/audit-logs').expect(400);
      expect(fieldsOf(badNumber)).toEqual([{ path: 'params.tenantNumber', rule: 'type' }]);
      const zero = await get(tokens.admin, '/v1/tenants/0/audit-logs').expect(400);
      expect(fieldsOf(zero)).toEqual([{ path: 'params.tenantNumber', rule: 'minimum' }]);
      const exponent = await get(tokens.admin, `/v1/tenants/${tenant.tenantNumber}e0/audit-logs`).expect(400);
      expect(fieldsOf(exponent)).toEqual([{ path: 'params.tenantNumber', rule: 'type' }]);
    });

    it('answers a foreign tenant exactly like a missing one, and validates the query first', async () => {
      await seedEvents(t, series(other, 2));
      const foreign = await list(tokens.admin, other).expect(404);
      const missing = await get(tokens.admin, '/v1/tenants/2147483000/audit-logs').expect(404);
      expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      expect(foreign.body.error).toMatchObject({ code: 'RESOURCE_NOT_FOUND', details: { resourceType: 'tenant' } });
      await list(tokens.admin, other, 'limit=0').expect(400);
      await list(tokens.admin, other, 'cursor=garbage').expect(400);
      // The other tenant's admin sees its own events only.
      const own = await list(tokens.otherAdmin, other).expect(200);
      expect(own.body.items.length).toBeGreaterThanOrEqual(2);
      const rows = await t.dataSource.query<{ audit_log_id: string }[]>(`SELECT audit_log_id FROM audit_log WHERE tenant_id = $1`, [other.tenantId]);
      expect(ids(own).every((id) => rows.some((row) => row.audit_log_id === id))).toBe(true);
    });

    it('needs audit:read through a tenant-level grant (operator, viewer, unit-level admin: 403)', async () => {
      for (const who of ['operator', 'viewer', 'unitAdmin'] as const) {
        const res = await list(tokens[who], tenant).expect(403);
        expect({ who, error: res.body.error }).toMatchObject({
          who,
          error: { code: 'AUTHORIZATION_FAILED', details: { reason: 'missing_permission', permission: 'audit:read' } },
        });
      }
      await list(paToken, tenant).expect(200);
      await list(tokens.admin, tenant).expect(200);
    });
  });

  describe('GET /v1/audit-logs', () => {
    it('is for platform admins only, checked before validation', async () => {
      for (const query of ['', '?limit=0', '?cursor=garbage']) {
        const res = await get(tokens.admin, `/v1/audit-logs${query}`).expect(403);
        expect(res.body.error).toMatchObject({ code: 'AUTHORIZATION_FAILED', details: { reason: 'platform_admin_required' } });
      }
      await t.http().get('/v1/audit-logs').expect(401);
    });

    it('lists every tenant\'s and the platform\'s events with tenantId, and filters by tenantId', async () => {
      const correlation = `corr-global-${randomUUID()}`;
      const at = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
      const [inA, inB, platform] = await seedEvents(t, [
        { tenant_id: tenant.tenantId, correlation_id: correlation, occurred_at: at(3) },
        { tenant_id: other.tenantId, correlation_id: correlation, occurred_at: at(2) },
        { tenant_id: null, correlation_id: correlation, occurred_at: at(1), actor_type: 'system', actor_id: 'system' },
      ]);
      const all = await get(paToken, `/v1/audit-logs?correlationId=${correlation}`).expect(200);
      expect(ids(all)).toEqual([platform, inB, inA]);
      expect(all.body.items.map((item: { tenantId: string | null }) => item.tenantId)).toEqual([null, other.tenantId, tenant.tenantId]);
      const onlyB = await get(paToken, `/v1/audit-logs?correlationId=${correlation}&tenantId=${other.tenantId.toUpperCase()}`).expect(200);
      expect(ids(onlyB)).toEqual([inB]);
      const paged = await get(paToken, `/v1/audit-logs?correlationId=${correlation}&limit=2`).expect(200);
      expect(ids(paged)).toEqual([platform, inB]);
      const rest = await get(paToken, `/v1/audit-logs?correlationId=${correlation}&limit=2&cursor=${paged.body.nextCursor}`).expect(200);
      expect(ids(rest)).toEqual([inA]);
      expect(rest.body.nextCursor).toBeUndefined();
      const mismatch = await get(paToken, `/v1/audit-logs?correlationId=${correlation}&limit=2&tenantId=${tenant.tenantId}&cursor=${paged.body.nextCursor}`).expect(400);
      expect(fieldsOf(mismatch)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    });

    it('validates tenantId and the window like the tenant view', async () => {
      const unknown = await get(paToken, `/v1/audit-logs?tenantId=${randomUUID()}`).expect(400);
      expect(fieldsOf(unknown)).toEqual([{ path: 'query.tenantId', rule: 'reference_not_found' }]);
      const malformed = await get(paToken, '/v1/audit-logs?tenantId=nope').expect(400);
      expect(fieldsOf(malformed)).toEqual([{ path: 'query.tenantId', rule: 'format' }]);
      const alone = await get(paToken, '/v1/audit-logs?to=2026-01-01T00:00:00Z').expect(400);
      expect(fieldsOf(alone)).toEqual([{ path: 'query.from', rule: 'required' }]);
    });
  });

  it('reads pages on the newest-first indexes (EXPLAIN)', async () => {
    const plan = async (sql: string, params: unknown[]) => {
      await t.dataSource.query('SET enable_seqscan = off');
      try {
        const rows = await t.dataSource.query<{ 'QUERY PLAN': string }[]>(`EXPLAIN ${sql}`, params);
        return rows.map((row) => row['QUERY PLAN']).join('\n');
      } finally {
        await t.dataSource.query('RESET enable_seqscan');
      }
    };
    const tenantPlan = await plan(
      `SELECT * FROM audit_log a WHERE a.tenant_id = $1 AND (a.occurred_at, a.audit_log_id) < ($2::timestamptz, $3::uuid)
         AND a.occurred_at >= $4::timestamptz ORDER BY a.occurred_at DESC, a.audit_log_id DESC LIMIT 26`,
      [tenant.tenantId, new Date().toISOString(), randomUUID(), new Date(Date.now() - DAY).toISOString()],
    );
    expect(tenantPlan).toContain('audit_log_tenant_newest_idx');
    expect(tenantPlan).not.toContain('Sort');
    const globalPlan = await plan(
      `SELECT * FROM audit_log a WHERE a.occurred_at < statement_timestamp() AND a.occurred_at >= statement_timestamp() - interval '24 hours'
        ORDER BY a.occurred_at DESC, a.audit_log_id DESC LIMIT 26`,
      [],
    );
    expect(globalPlan).toContain('audit_log_newest_idx');
    expect(globalPlan).not.toContain('Sort');
  });
});
