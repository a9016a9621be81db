import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { login, loginAdmin, refresh, seedUser } from './support/auth';
import { seedDeviceType, seedField } from './support/devices';
import { as, expectEnvelope } from './support/http';
import { seedTenant } from './support/tenancy';
import { startTestApp, TEST_ADMIN, TEST_ORIGIN, TestApp } from './support/test-app';

/*
 * Operator and browser-developer behaviour of the pipeline: CORS preflights and refused origins, TRUST_PROXY and
 * the client address, the forced password change's pointer, If-Match conflicts against ETags, and the OpenAPI
 * cookie name.
 */

const preflight = (t: TestApp, origin: string, path = '/v1/auth/refresh') =>
  t.http().options(path).set('Origin', origin).set('Access-Control-Request-Method', 'POST').set('Access-Control-Request-Headers', 'content-type');

describe('browser origins (NODE_ENV=test, ALLOWED_ORIGINS=https://console.uplink.test)', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp()));
  afterAll(() => t?.close());

  it('answers an allowed preflight with the CORS headers', async () => {
    const res = await preflight(t, TEST_ORIGIN);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(TEST_ORIGIN);
    expect(res.headers['access-control-allow-credentials']).toBe('true');
  });

  it.each(['https://evil.example', 'http://localhost:4200', 'null'])('refuses a preflight from %s with a 403 naming the origin and ALLOWED_ORIGINS', async (origin) => {
    const res = await preflight(t, origin);
    expectEnvelope(res, { status: 403 });
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.body.error).toMatchObject({
      code: 'AUTHORIZATION_FAILED',
      details: { reason: 'origin_not_allowed', origin, setting: 'ALLOWED_ORIGINS' },
    });
    expect(res.body.error.message).toContain(`The origin ${origin} is not allowed`);
    expect(res.body.error.message).toContain('ALLOWED_ORIGINS');
  });

  it('refuses a preflight to any path, not only existing ones (never a 404)', async () => {
    expectEnvelope(await preflight(t, 'https://evil.example', '/v1/nothing-here'), { status: 403 });
  });

  it('leaves a plain OPTIONS without a preflight header to the router', async () => {
    const res = await t.http().options('/v1/auth/refresh').set('Origin', 'https://evil.example');
    expect(res.status).not.toBe(403);
  });

  it('refuses a refresh from another origin, naming it and the setting', async () => {
    const { cookie } = await loginAdmin(t);
    const res = await refresh(t, cookie, 'https://evil.example');
    expectEnvelope(res, { status: 403 });
    expect(res.body.error.details).toEqual({ reason: 'origin_not_allowed', origin: 'https://evil.example', setting: 'ALLOWED_ORIGINS' });
    expect(res.body.error.message).toMatch(/^The origin https:\/\/evil\.example is not allowed\. Add it to ALLOWED_ORIGINS/);
    expect((await refresh(t, cookie, TEST_ORIGIN)).status).toBe(200);
  });

  it('refuses a refresh without an Origin, saying which header and setting it needs', async () => {
    const { cookie } = await loginAdmin(t);
    const res = await t.http().post('/v1/auth/refresh').set('Cookie', cookie);
    expectEnvelope(res, { status: 403 });
    expect(res.body.error.details).toEqual({ reason: 'origin_not_allowed', origin: null, setting: 'ALLOWED_ORIGINS' });
    expect(res.body.error.message).toContain('needs an Origin header listed in ALLOWED_ORIGINS');
  });

  it('README and docs/ name no /v1 route the service does not have', async () => {
    const document = (await t.http().get('/docs/openapi.json').expect(200)).body as { paths: Record<string, unknown> };
    // `{id}` and the walkthrough's `{{id}}` placeholders alike, and a tenant number written out in an example.
    const shape = (path: string) => path.replace(/\{\{?[^}]*\}?\}/g, '{}').replace(/\/\d+(?=\/|$)/g, '/{}');
    const known = new Set(Object.keys(document.paths).map(shape));
    const docs = join(__dirname, '..', 'docs');
    const readme = ['README.md', ...readdirSync(docs).map((name) => join('docs', name))]
      .filter((page) => page.endsWith('.md'))
      .map((page) => readFileSync(join(__dirname, '..', page), 'utf8'))
      .join('\n');
    const mentioned = [...readme.matchAll(/(\/v1\/[A-Za-z0-9{}_./-]*[A-Za-z0-9}])(…)?/g)].filter(([, , ellipsis]) => !ellipsis).map(([, path]) => path!);
    expect(mentioned.length).toBeGreaterThan(50);
    // Every path is a route of the document, or the prefix of some (as in "/v1/auth routes").
    const exists = (path: string) => [...known].some((route) => route === shape(path) || route.startsWith(`${shape(path)}/`));
    expect(mentioned.filter((path) => !exists(path))).toEqual([]);
    expect(exists('/v1/no-such-resource')).toBe(false);
  });

  it('names the cookie it sets in the OpenAPI cookie scheme', async () => {
    const document = (await t.http().get('/docs/openapi.json').expect(200)).body;
    expect(document.components.securitySchemes.refreshCookie).toMatchObject({ type: 'apiKey', in: 'cookie', name: 'platform_refresh' });
    const { cookie } = await loginAdmin(t);
    expect(cookie.split('=')[0]).toBe('platform_refresh');
  });
});

describe('browser origins in development', () => {
  let t: TestApp;
  beforeAll(async () => (t = await startTestApp({ env: { NODE_ENV: 'development', ALLOWED_ORIGINS: '', REFRESH_COOKIE_SECURE: 'true' } })));
  afterAll(() => t?.close());

  it.each(['http://localhost:4200', 'http://127.0.0.1:5173', 'http://localhost'])('allows %s without ALLOWED_ORIGINS', async (origin) => {
    const res = await preflight(t, origin);
    expect(res.status).toBe(204);
    expect(res.headers['access-control-allow-origin']).toBe(origin);
    const signedIn = await t.http().post('/v1/auth/login').send({ identifier: TEST_ADMIN.username, password: TEST_ADMIN.password }).expect(200);
    const cookie = (signedIn.headers['set-cookie'] as unknown as string[])[0]!.split(';')[0]!;
    expect(cookie).toMatch(/^__Host-platform_refresh=/);
    expect((await refresh(t, cookie, origin)).status).toBe(200);
  });

  it.each(['https://localhost:4200', 'http://localhost.evil.example', 'http://192.168.1.20:3000'])('still refuses %s', async (origin) => {
    const res = await preflight(t, origin);
    expectEnvelope(res, { status: 403 });
    expect(res.body.error.message).toContain('http://localhost and http://127.0.0.1 on any port are allowed in development');
  });

  it('names __Host-platform_refresh in the OpenAPI document when that is the cookie', async () => {
    const document = (await t.http().get('/docs/openapi.json').expect(200)).body;
    expect(document.components.securitySchemes.refreshCookie.name).toBe('__Host-platform_refresh');
  });
});

describe('TRUST_PROXY and the client address', () => {
  const ips = async (t: TestApp) =>
    (await t.dataSource.query<{ ip: string }[]>(`SELECT DISTINCT ip FROM login_ip_attempts ORDER BY ip`)).map(({ ip }) => ip);
  const failedLogin = (t: TestApp, forwardedFor: string, n: number) =>
    t.http().post('/v1/auth/login').set('X-Forwarded-For', forwardedFor).send({ identifier: `nobody-${n}`, password: 'wrong-password-1' });

  it('off (default): X-Forwarded-For is ignored, every attempt counts against the connecting address', async () => {
    const t = await startTestApp();
    try {
      for (let i = 0; i < 3; i++) await failedLogin(t, `203.0.113.${i + 1}`, i);
      expect(await ips(t)).toEqual(['127.0.0.1']);
      const [{ attempts }] = await t.dataSource.query<{ attempts: number }[]>(`SELECT sum(attempts)::int AS attempts FROM login_ip_attempts`);
      expect(attempts).toBe(3);
    } finally {
      await t.close();
    }
  });

  it('loopback: the client address from the trusted proxy counts, so clients behind one ingress do not share a budget', async () => {
    const t = await startTestApp({ env: { LOGIN_IP_ATTEMPTS_PER_MINUTE: '2', TRUST_PROXY: 'loopback' } });
    try {
      const statuses = [];
      for (let i = 0; i < 3; i++) statuses.push((await failedLogin(t, `203.0.113.${i + 1}`, i)).status);
      expect(statuses).toEqual([401, 401, 401]);
      // A forged entry further left is not believed: only the hop the trusted proxy added counts.
      await failedLogin(t, '198.51.100.9, 203.0.113.50', 9);
      expect(await ips(t)).toEqual(['203.0.113.1', '203.0.113.2', '203.0.113.3', '203.0.113.50']);
    } finally {
      await t.close();
    }
  });

  it('a hop count of 1 believes the nearest proxy', async () => {
    const t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    try {
      await failedLogin(t, '198.51.100.9, 203.0.113.77', 1);
      expect(await ips(t)).toEqual(['203.0.113.77']);
    } finally {
      await t.close();
    }
  });
});

describe('the forced password change and If-Match conflicts', () => {
  let t: TestApp;
  let admin: ReturnType<typeof as>;
  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
  });
  afterAll(() => t?.close());

  it('a user who must change the password is told which route to call', async () => {
    const user = await seedUser(t, { passwordChangeRequired: true });
    const { accessToken } = await login(t, user.username, user.password);
    const res = await as(t, accessToken).get('/v1/tenants');
    expectEnvelope(res, { status: 403 });
    expect(res.body.error.details).toEqual({ reason: 'password_change_required' });
    expect(res.body.error.message).toContain('POST /v1/auth/change-password');
  });

  it('a stale If-Match on a device type answers 409 with the currentLockVersion its ETag shows', async () => {
    const tenant = await seedTenant(t);
    const type = await seedDeviceType(t, tenant);
    const path = `/v1/device-types/${type.deviceTypeId}`;
    // A field added in between does not move the type's version.
    await admin.post(`${path}/fields`, { key: 'temp', name: 'T', schemaRef: 'platform://schemas/number/v1', storageTargets: ['current'], measurementType: 'gauge' }).expect(201);
    for (const etag of ['"1"', '"2"']) await admin.patch(path, { name: `renamed ${etag}` }).set('If-Match', etag).expect(200);
    await admin.post(`${path}/disable`).set('If-Match', '"3"').expect(200);
    const read = await admin.get(path).expect(200);
    expect(read.headers.etag).toBe('"4"');
    for (const stale of ['"1"', '"3"', 'W/"2"']) {
      const res = await admin.patch(path, { name: 'late' }).set('If-Match', stale);
      expectEnvelope(res, { status: 409 });
      expect(`"${res.body.error.details.currentLockVersion}"`).toBe(read.headers.etag);
      expect(res.body.error.message).toContain(`its ETag is now ${read.headers.etag}`);
      const reread = await admin.get(path);
      expect(reread.headers.etag).toBe(read.headers.etag);
    }
    for (const route of [`${path}/disable`, `${path}/reactivate`]) {
      const res = await admin.post(route).set('If-Match', '"1"');
      expect(`"${res.body.error.details.currentLockVersion}"`).toBe(read.headers.etag);
    }
  });

  it('a stale If-Match on a field compares with the field\'s own ETag, never the type\'s', async () => {
    const tenant = await seedTenant(t);
    const type = await seedDeviceType(t, tenant);
    const field = await seedField(t, tenant, type);
    const typePath = `/v1/device-types/${type.deviceTypeId}`;
    const path = `${typePath}/fields/${field.key}`;
    for (const etag of ['"1"', '"2"']) await admin.patch(typePath, { name: `renamed ${etag}` }).set('If-Match', etag).expect(200);
    await admin.patch(path, { name: 'Renamed field' }).set('If-Match', '"1"').expect(200);
    const typeEtag = (await admin.get(typePath).expect(200)).headers.etag;
    const fieldEtag = (await admin.get(path).expect(200)).headers.etag;
    expect([typeEtag, fieldEtag]).toEqual(['"3"', '"2"']);
    for (const route of [{ method: 'patch' as const, body: { name: 'x' } }, { method: 'post' as const, url: `${path}/deprecate` }]) {
      const res =
        route.method === 'patch' ? await admin.patch(path, route.body).set('If-Match', typeEtag) : await admin.post(route.url!).set('If-Match', typeEtag);
      expectEnvelope(res, { status: 409 });
      expect(`"${res.body.error.details.currentLockVersion}"`).toBe(fieldEtag);
    }
  });

  it('a missing If-Match is told to send the ETag of its last read, without a made-up example value', async () => {
    const tenant = await seedTenant(t);
    const type = await seedDeviceType(t, tenant);
    const res = await admin.patch(`/v1/device-types/${type.deviceTypeId}`, { name: 'x' });
    expectEnvelope(res, { status: 400 });
    expect(res.body.error.message + JSON.stringify(res.body.error.details)).not.toMatch(/"[0-9]+"/);
    expect(JSON.stringify(res.body.error)).toContain('ETag');
  });
});
