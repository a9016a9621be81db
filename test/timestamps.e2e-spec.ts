import { loginAdmin } from './support/auth';
import { startTestApp, TestApp } from './support/test-app';

/*
 * Lists page by (createdAt, id) and expose createdAt with milliseconds: the stored value is the exposed one, so
 * rows created in the same millisecond come out in an order a client can check from the response alone, and
 * cursors continue exactly where the previous page ended.
 */
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

describe('millisecond timestamps', () => {
  let t: TestApp;
  let token: string;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await loginAdmin(t)).accessToken;
  });
  afterAll(() => t.close());

  const get = (path: string) => t.http().get(path).set('Authorization', `Bearer ${token}`);

  it('stores every exposed, ordered timestamp with millisecond precision', async () => {
    const columns = await t.dataSource.query<{ table_name: string; column_name: string; datetime_precision: number }[]>(
      `SELECT table_name, column_name, datetime_precision FROM information_schema.columns
        WHERE table_schema = current_schema() AND data_type = 'timestamp with time zone'
          AND column_name IN ('created_at', 'updated_at', 'occurred_at', 'last_used_at', 'deprecated_at', 'retired_at', 'assigned_at')
          AND table_name NOT IN ('measurements', 'device_current_values')`,
    );
    expect(columns.length).toBeGreaterThanOrEqual(22);
    expect(columns.filter((column) => column.datetime_precision !== 3)).toEqual([]);
  });

  it('rounds clock_timestamp() writes to the millisecond, so the response shows exactly what is stored', async () => {
    const created = await t.http().post('/v1/tenants').set('Authorization', `Bearer ${token}`).send({ key: 'ms-check', name: 'Ms' }).expect(201);
    const renamed = await t.http().patch(`/v1/tenants/${created.body.tenantNumber}`).set('Authorization', `Bearer ${token}`).send({ name: 'Renamed' }).expect(200);
    const [row] = await t.dataSource.query<{ created: string; updated: string; sub_ms: number }[]>(
      `SELECT to_char(created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS created,
              to_char(updated_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') AS updated,
              (extract(microseconds FROM created_at)::int % 1000) + (extract(microseconds FROM updated_at)::int % 1000) AS sub_ms
         FROM tenants WHERE tenant_id = $1`,
      [created.body.tenantId],
    );
    expect(row!.sub_ms).toBe(0);
    expect(renamed.body.createdAt).toMatch(ISO_MS);
    expect(row!.created).toBe(renamed.body.createdAt.replace('Z', '000Z'));
    expect(row!.updated).toBe(renamed.body.updatedAt.replace('Z', '000Z'));
    const [audit] = await t.dataSource.query<{ sub_ms: number }[]>(
      `SELECT max(extract(microseconds FROM occurred_at)::int % 1000) AS sub_ms FROM audit_log WHERE entity_id = $1`,
      [created.body.tenantId],
    );
    expect(audit!.sub_ms).toBe(0);
  });

  it('pages rows created in the same millisecond in the (createdAt, id) order the responses show', async () => {
    // 60 tenants within two milliseconds; microsecond inputs are rounded by the column on the way in (.123 and .124).
    await t.dataSource.query(`
      INSERT INTO tenants (key, name, created_at, updated_at)
      SELECT 'same-ms-' || g, 'Same ms ' || g, ts, ts
        FROM (SELECT g, timestamptz '2020-01-01T00:00:00.123000Z' + make_interval(secs => (g * 17 % 997) * 0.000001) AS ts
                FROM generate_series(1, 60) AS g) s`);
    const seen: { tenantId: string; createdAt: string }[] = [];
    let cursor: string | undefined;
    do {
      const res = await get(`/v1/tenants?limit=25${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`).expect(200);
      seen.push(...(res.body.items as { tenantId: string; createdAt: string; key: string }[]).filter((item) => item.key.startsWith('same-ms-')));
      cursor = res.body.nextCursor as string | undefined;
    } while (cursor);

    expect(seen).toHaveLength(60);
    expect(new Set(seen.map((item) => item.tenantId)).size).toBe(60);
    expect(new Set(seen.map((item) => item.createdAt))).toEqual(new Set(['2020-01-01T00:00:00.123Z', '2020-01-01T00:00:00.124Z']));
    // What a client can verify: the exposed (createdAt, id) pairs are strictly ascending.
    const verified = [...seen].sort((x, y) => (x.createdAt === y.createdAt ? (x.tenantId < y.tenantId ? -1 : 1) : x.createdAt < y.createdAt ? -1 : 1));
    expect(seen).toEqual(verified);
  });
});
