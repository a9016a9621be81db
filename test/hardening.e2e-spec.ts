import { Agent, request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { DatabaseHealthIndicator } from '../src/health/database.health';
import { EMAIL_PATTERN_SOURCE } from '../src/shared/validation/email';
import { login, loginAdmin, seedUser } from './support/auth';
import { as, fieldsOf } from './support/http';
import { seedDevice, seedDeviceType } from './support/devices';
import { seedTenant, seedUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

/*
 * Regression tests of the request hardening: every value the database or the object model cannot hold
 * faithfully is a 400 naming its field, never a 500 and never a silent change.
 */

type Api = ReturnType<typeof as>;

function expectValidation(res: { status: number; body: { error?: { code?: string } }; headers: Record<string, unknown> }): void {
  expect(res.status).toBe(400);
  expect(res.body.error?.code).toBe('VALIDATION_FAILED');
  expect(res.headers['cache-control']).toBe('no-store');
}

describe('request hardening', () => {
  let t: TestApp;
  let token: string;
  let admin: Api;

  beforeAll(async () => {
    t = await startTestApp();
    token = (await loginAdmin(t)).accessToken;
    admin = as(t, token);
  });
  afterAll(() => t.close());

  /** Raw bytes as the body (supertest would serialize a Buffer as JSON). */
  const sendRaw = (path: string, body: Buffer, headers: Record<string, string> = {}) =>
    fetch(new URL(path, t.baseUrl), {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json', ...headers },
      body,
    }).then(async (res) => ({ status: res.status, headers: { 'cache-control': res.headers.get('cache-control') }, body: (await res.json()) as { error: { code: string; details: { fields: unknown[] } }; name?: string } }));

  const tenantCount = async (): Promise<number> => (await t.dataSource.query(`SELECT count(*)::int AS n FROM tenants`))[0].n;

  describe('NUL characters', () => {
    it.each([
      ['a body string', { key: 'nul-1', name: 'a\u0000b' }, 'body.name'],
      ['a metadata value', { key: 'nul-2', name: 'n', metadata: { a: 'x\u0000' } }, 'body.metadata.a'],
      ['a metadata key', { key: 'nul-3', name: 'n', metadata: { 'a\u0000': 'x' } }, 'body.metadata.a\u0000'],
    ])('in %s is 400 format naming the field', async (_case, body, path) => {
      const before = await tenantCount();
      const res = await admin.post('/v1/tenants', body);
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path, rule: 'format' }]);
      expect(await tenantCount()).toBe(before);
    });

    it('in the anonymous login is 400, not 500', async () => {
      const res = await t.http().post('/v1/auth/login').send({ identifier: 'a\u0000', password: 'x' });
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'body.identifier', rule: 'format' }]);
    });

    it.each([
      ['/v1/tenants?q=%00', 'query.q'],
      ['/v1/users?q=a%00b', 'query.q'],
      ['/v1/audit-logs?eventType=a%00', 'query.eventType'],
      ['/v1/audit-logs?entityId=%00', 'query.entityId'],
    ])('in the query %s is 400 naming %s', async (url, path) => {
      const res = await admin.get(url);
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path, rule: 'format' }]);
    });

    it('in a path segment is 400 naming the parameter', async () => {
      const type = await seedDeviceType(t, await seedTenant(t));
      const res = await admin.get(`/v1/device-types/${type.deviceTypeId}/fields/a%00b`);
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'params.key', rule: 'format' }]);
    });
  });

  describe('lone surrogates and invalid UTF-8', () => {
    it('refuses a lone surrogate in a created name instead of storing U+FFFD', async () => {
      const before = await tenantCount();
      const res = await admin.post('/v1/tenants').set('Content-Type', 'application/json').send('{"key":"sur-1","name":"a\\ud800"}');
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'body.name', rule: 'format' }]);
      expect(await tenantCount()).toBe(before);
    });

    it('refuses a lone surrogate in metadata and in a PATCHed name', async () => {
      const tenant = await seedTenant(t, { name: 'Before' });
      const meta = await admin
        .patch(`/v1/tenants/${tenant.tenantNumber}`)
        .set('Content-Type', 'application/json')
        .send('{"metadata":{"k":"\\udc00x"}}');
      expectValidation(meta);
      expect(fieldsOf(meta)).toEqual([{ path: 'body.metadata.k', rule: 'format' }]);
      const name = await admin.patch(`/v1/tenants/${tenant.tenantNumber}`).set('Content-Type', 'application/json').send('{"name":"\\ud83d"}');
      expectValidation(name);
      expect(fieldsOf(name)).toEqual([{ path: 'body.name', rule: 'format' }]);
      const [row] = await t.dataSource.query(`SELECT name, metadata FROM tenants WHERE tenant_id = $1`, [tenant.tenantId]);
      expect(row).toEqual({ name: 'Before', metadata: {} });
    });

    it('accepts a proper surrogate pair (one emoji)', async () => {
      const res = await admin.post('/v1/tenants', { key: 'emoji-1', name: 'Rocket \u{1F680}' }).expect(201);
      expect(res.body.name).toBe('Rocket \u{1F680}');
    });

    it('refuses bytes that are not UTF-8', async () => {
      const before = await tenantCount();
      const body = Buffer.concat([Buffer.from('{"key":"utf-1","name":"a'), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]);
      const res = await sendRaw('/v1/tenants', body);
      expectValidation(res);
      expect(res.body.error.details.fields).toEqual([{ path: 'body', rule: 'json', message: 'The request body is not valid UTF-8.' }]);
      expect(await tenantCount()).toBe(before);
    });
  });

  describe('lengths counted in code points, as PostgreSQL counts them', () => {
    const selectors = (n: number): string => 'a\uFE0F'.repeat(n);

    it('refuses a name of 200 "a\\uFE0F" (400 code points) with max_length, and accepts 100 of them', async () => {
      const res = await admin.post('/v1/tenants', { key: 'len-1', name: selectors(200) });
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'body.name', rule: 'max_length' }]);
      await admin.post('/v1/tenants', { key: 'len-2', name: selectors(100) }).expect(201);
    });

    it('counts description, unit and displayName the same way', async () => {
      const tenant = await seedTenant(t);
      const type = await admin.post(`/v1/tenants/${tenant.tenantNumber}/device-types`, { key: 'len-t', name: 'T', description: selectors(251) });
      expectValidation(type);
      expect(fieldsOf(type)).toEqual([{ path: 'body.description', rule: 'max_length' }]);
      const seeded = await seedDeviceType(t, tenant);
      const field = await admin.post(`/v1/device-types/${seeded.deviceTypeId}/fields`, {
        key: 'temp',
        name: 'Temp',
        schemaRef: 'platform://schemas/number/v1',
        unit: selectors(21),
        storageTargets: ['current'],
        measurementType: 'gauge',
      });
      expectValidation(field);
      expect(fieldsOf(field)).toEqual([{ path: 'body.unit', rule: 'max_length' }]);
      const user = await admin.post('/v1/users', {
        username: 'len-user',
        email: 'len-user@uplink.test',
        displayName: selectors(101),
        temporaryPassword: 'a-long-enough-password',
      });
      expectValidation(user);
      expect(fieldsOf(user)).toEqual([{ path: 'body.displayName', rule: 'max_length' }]);
    });

    it('counts metadata names and values the same way', async () => {
      const res = await admin.post('/v1/tenants', { key: 'len-3', name: 'n', metadata: { k: selectors(513) } });
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'body.metadata', rule: 'max_length' }]);
    });
  });

  it.each([310, 315, 320])('answers an anonymous login with an identifier of %i characters with 401, not 500', async (length) => {
    const res = await t.http().post('/v1/auth/login').send({ identifier: 'x'.repeat(length), password: 'wrong-password' });
    expect(res.status).toBe(401);
    expect(res.body.error.code).toBe('AUTHENTICATION_FAILED');
  });

  describe('JSON nesting depth', () => {
    const nested = (depth: number): string => `{"key":"deep","name":"n","metadata":${'['.repeat(depth)}${']'.repeat(depth)}}`;

    it.each([
      ['/v1/tenants', true],
      ['/v1/auth/login', false],
    ])('refuses 2,500 levels on %s with 400 json, without overflowing the stack', async (url, authenticated) => {
      const req = t.http().post(url).set('Content-Type', 'application/json');
      if (authenticated) req.set('Authorization', `Bearer ${token}`);
      const res = await req.send(nested(2500));
      expectValidation(res);
      expect(res.body.error.details.fields).toEqual([{ path: 'body', rule: 'json', message: expect.stringMatching(/more than 64 levels/) }]);
    });

    it('accepts 64 levels as JSON (the DTO then judges the value) and refuses 65', async () => {
      const ok = await admin.post('/v1/tenants').set('Content-Type', 'application/json').send(nested(63));
      expect(fieldsOf(ok)).toEqual([{ path: 'body.metadata', rule: 'type' }]);
      const deep = await admin.post('/v1/tenants').set('Content-Type', 'application/json').send(nested(64));
      expect(fieldsOf(deep)).toEqual([{ path: 'body', rule: 'json' }]);
    });

    it('does not count brackets inside strings', async () => {
      await admin.post('/v1/tenants', { key: 'brackets', name: '['.repeat(100) }).expect(201);
    });
  });

  describe('Content-Encoding', () => {
    it.each([
      ['gzip on a plain body', 'gzip', 'POST', '/v1/tenants'],
      ['gzip on a plain login body', 'gzip', 'POST', '/v1/auth/login'],
      ['gzip on a GET with a body', 'gzip', 'GET', '/v1/tenants'],
      ['an unknown encoding', 'x-unknown', 'POST', '/v1/tenants'],
      ['a deflate on a plain body', 'deflate', 'PATCH', '/v1/tenants/1'],
    ])('answers %s with 400 content_type on headers.content-encoding', async (_case, encoding, method, url) => {
      const verb = method.toLowerCase() as 'post';
      const res = await t.http()[verb](url)
        .set('Authorization', `Bearer ${token}`)
        .set('Content-Type', 'application/json')
        .set('Content-Encoding', encoding)
        .send('{"identifier":"x","password":"y"}');
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'headers.content-encoding', rule: 'content_type' }]);
    });

    it('still accepts a real gzip body', async () => {
      const res = await sendRaw('/v1/tenants', gzipSync(JSON.stringify({ key: 'gzipped', name: 'Gzipped' })), { 'Content-Encoding': 'gzip' });
      expect(res.status).toBe(201);
      expect(res.body.name).toBe('Gzipped');
    });
  });

  describe('idle keep-alive connections', () => {
    it('are kept 65 s and announced so, longer than load balancers and client pools keep them', async () => {
      const agent = new Agent({ keepAlive: true });
      const get = () =>
        new Promise<{ keepAlive: string | undefined; socket: unknown }>((resolve, reject) => {
          const req = httpRequest(new URL('/healthz', t.baseUrl), { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve({ keepAlive: res.headers['keep-alive'] as string | undefined, socket: req.socket }));
          });
          req.on('error', reject);
          req.end();
        });
      try {
        const first = await get();
        expect(first.keepAlive).toBe('timeout=65');
        // Past Node's own 5 s default, the same connection still serves the next request.
        await new Promise((resolve) => setTimeout(resolve, 5_500));
        const second = await get();
        expect(second.socket).toBe(first.socket);
      } finally {
        agent.destroy();
      }
    }, 20_000);
  });

  describe('the e-mail rule', () => {
    it('refuses "a b"@x.test in the API and in the database alike', async () => {
      const res = await admin.post('/v1/users', {
        username: 'quoted-user',
        email: '"a b"@x.test',
        displayName: 'Q',
        temporaryPassword: 'a-long-enough-password',
      });
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'body.email', rule: 'format' }]);
      await expect(
        t.dataSource.query(`INSERT INTO users (username, email, display_name, status) VALUES ('quoted-db', '"a b"@x.test', 'Q', 'active')`),
      ).rejects.toThrow(/users_email_check/);
    });

    it('is one pattern: the CHECK constraint holds exactly the validator’s', async () => {
      const [{ definition }] = await t.dataSource.query(
        `SELECT pg_get_constraintdef(oid) AS definition FROM pg_constraint WHERE conname = 'users_email_check'`,
      );
      expect(definition).toContain(`'${EMAIL_PATTERN_SOURCE.replace(/'/g, "''")}'`);
    });
  });

  describe('RFC 3339 date-times', () => {
    it.each(['2026-W01-1', '2026-001', '20260101T000000Z', '2026-01-01', '2026-01-01T00:00:00', '2026-02-30T00:00:00Z', '0000-01-01T00:00:00Z'])(
      'refuses validFrom %s with 400 format',
      async (validFrom) => {
        const tenant = await seedTenant(t);
        const unit = await seedUnit(t, tenant);
        const device = await seedDevice(t, tenant, await seedDeviceType(t, tenant));
        const res = await admin.post(`/v1/devices/${device.deviceId}/assignments`, { organizationUnitId: unit.organizationUnitId, validFrom });
        expectValidation(res);
        expect(fieldsOf(res)).toEqual([{ path: 'body.validFrom', rule: 'format' }]);
      },
    );
  });

  describe('property names of Object.prototype members', () => {
    const names = ['toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__', 'isPrototypeOf'];

    it.each(names)('refuses metadata key %s explicitly (400), never dropping it', async (name) => {
      const before = await tenantCount();
      const res = await admin.post('/v1/tenants').set('Content-Type', 'application/json').send(`{"key":"proto","name":"n","metadata":{"${name}":"v"}}`);
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: `body.metadata.${name}`, rule: 'unknown_property' }]);
      expect(await tenantCount()).toBe(before);
    });

    it.each(names)('answers a top-level body property %s with unknown_property', async (name) => {
      const res = await admin.post('/v1/tenants').set('Content-Type', 'application/json').send(`{"key":"proto","name":"n","${name}":"v"}`);
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: `body.${name}`, rule: 'unknown_property' }]);
    });

    it('answers a query parameter named toString with unknown_property', async () => {
      const res = await admin.get('/v1/tenants?toString=1');
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'query.toString', rule: 'unknown_property' }]);
    });
  });

  it('names the parameter of a malformed percent-escape', async () => {
    for (const [url, path] of [
      ['/v1/tenants/%zz', 'params.tenantNumber'],
      ['/v1/devices/%E0%A4%A', 'params.deviceId'],
    ]) {
      const res = await admin.get(url);
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path, rule: 'format' }]);
    }
  });

  it('answers a header over 16 KiB with 431 in the error envelope', async () => {
    const url = new URL('/v1/tenants', t.baseUrl);
    const res = await new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
      const req = httpRequest(url, { headers: { 'X-Big': 'a'.repeat(17 * 1024) } }, (answer) => {
        let body = '';
        answer.on('data', (chunk: Buffer) => (body += chunk.toString()));
        answer.on('end', () => resolve({ status: answer.statusCode ?? 0, headers: answer.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });
    expect(res.status).toBe(431);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.body)).toEqual({
      error: expect.objectContaining({ code: 'VALIDATION_FAILED', correlationId: res.headers['x-correlation-id'] }),
    });
  });

  describe('check order: authentication before body errors', () => {
    it.each([
      ['malformed JSON', 'application/json', '{"name": '],
      ['a wrong content type', 'text/plain', 'x'],
      ['too deep a body', 'application/json', '['.repeat(100)],
    ])('answers %s without a token with 401', async (_case, contentType, body) => {
      const res = await t.http().post('/v1/tenants').set('Content-Type', contentType).send(body);
      expect(res.status).toBe(401);
      expect(res.body.error.details).toEqual({ reason: 'missing_token' });
    });

    it('answers malformed JSON with a valid token with 400 json', async () => {
      const res = await admin.post('/v1/tenants').set('Content-Type', 'application/json').send('{"name": ');
      expectValidation(res);
      expect(fieldsOf(res)).toEqual([{ path: 'body', rule: 'json' }]);
    });

    it('answers a non-admin with 403 platform_admin_required before judging the body', async () => {
      const user = await seedUser(t);
      const { accessToken } = await login(t, user.username, user.password);
      const res = await as(t, accessToken).post('/v1/tenants').set('Content-Type', 'application/json').send('{"name": ');
      expect(res.status).toBe(403);
      expect(res.body.error.details.reason).toBe('platform_admin_required');
    });
  });

  it('readiness: the database check survives an event loop blocked past the probe timeout', async () => {
    const indicator = t.app.get(DatabaseHealthIndicator);
    const probe = indicator.ping();
    // Let the query reach PostgreSQL, then keep the loop busy (as large bodies do) past the 1 s timeout.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const until = Date.now() + 1300;
    while (Date.now() < until) {
      /* busy */
    }
    expect((await probe).database.status).toBe('up');
  });
});

describe('check order: 429 before the 403s, 403s before body errors', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_PER_MINUTE: '3' } });
  });
  afterAll(() => t.close());

  it('answers a caller with a pending forced change 403 before judging its body, and 429 once over its rate', async () => {
    const user = await seedUser(t, { passwordChangeRequired: true });
    const { accessToken } = await login(t, user.username, user.password);
    const api = as(t, accessToken);
    const first = await api.post('/v1/tenants').set('Content-Type', 'application/json').send('{"name": ');
    expect(first.status).toBe(403);
    expect(first.body.error.details.reason).toBe('password_change_required');
    await api.get('/v1/tenants').expect(403);
    await api.get('/v1/tenants').expect(403);
    const limited = await api.post('/v1/tenants').set('Content-Type', 'application/json').send('{"name": ');
    expect(limited.status).toBe(429);
    expect(limited.headers['cache-control']).toBe('no-store');
  });
});
