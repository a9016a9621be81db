import { login, loginAdmin, seedUser } from './support/auth';
import { seedGrant, seedTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

/** GET /v1/diagnostics/readiness: every dependency's state for platform admins, always 200. */
describe('GET /v1/diagnostics/readiness', () => {
  let t: TestApp;
  let admin: string;
  let tenantAdmin: string;

  beforeAll(async () => {
    t = await startTestApp();
    admin = (await loginAdmin(t)).accessToken;
    const user = await seedUser(t);
    await seedGrant(t, user.userId, await seedTenant(t), 'tenant_admin');
    tenantAdmin = (await login(t, user.username, user.password)).accessToken;
  });
  afterAll(() => t.close());

  const readiness = (token?: string) => {
    const req = t.http().get('/v1/diagnostics/readiness');
    return token ? req.set('Authorization', `Bearer ${token}`) : req;
  };
  const check = { status: 'up', latencyMs: expect.any(Number) };

  it('refuses anonymous callers with 401 and everyone but platform admins with 403 platform_admin_required', async () => {
    const anonymous = await readiness().expect(401);
    expect(anonymous.body.error).toMatchObject({ code: 'AUTHENTICATION_FAILED', details: { reason: 'missing_token' } });
    const denied = await readiness(tenantAdmin).expect(403);
    expect(denied.body.error).toMatchObject({ code: 'AUTHORIZATION_FAILED', details: { reason: 'platform_admin_required' } });
    expect(denied.headers['cache-control']).toBe('no-store');
  });

  it('says not_ready with the number of pending migrations while the schema is behind', async () => {
    const [last] = await t.dataSource.query<{ id: number; timestamp: string; name: string }[]>(
      `SELECT id, timestamp, name FROM schema_migrations ORDER BY id DESC LIMIT 1`,
    );
    await t.dataSource.query(`DELETE FROM schema_migrations WHERE id = $1`, [last!.id]);
    try {
      const res = await readiness(admin).expect(200);
      expect(res.body.status).toBe('not_ready');
      expect(res.body.checks.database).toEqual(check);
      expect(res.body.checks.migrations).toEqual({ status: 'down', latencyMs: expect.any(Number), message: 'migrations pending', pending: 1 });
    } finally {
      await t.dataSource.query(`INSERT INTO schema_migrations (id, timestamp, name) VALUES ($1, $2, $3)`, [last!.id, last!.timestamp, last!.name]);
    }
  });

  it('reports database, migrations, the script sandbox and mail (not configured here, never unready) with their latency', async () => {
    const res = await readiness(admin).expect(200);
    const mail = { status: 'down', latencyMs: expect.any(Number), message: 'SMTP_URL is not set' };
    expect(res.body).toEqual({ status: 'ready', checks: { database: check, migrations: check, sandbox: check, mail } });
    for (const component of Object.values(res.body.checks as Record<string, { latencyMs: number }>)) {
      expect(Number.isInteger(component.latencyMs) && component.latencyMs >= 0).toBe(true);
    }
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('is documented with its response and the 403', async () => {
    const doc = await t.http().get('/docs/openapi.json').expect(200);
    const operation = doc.body.paths['/v1/diagnostics/readiness'].get;
    expect(Object.keys(operation.responses)).toEqual(expect.arrayContaining(['200', '403']));
  });
});
