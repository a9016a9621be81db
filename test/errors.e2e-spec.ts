import { expectEnvelope } from './support/http';
import { startTestApp, TestApp } from './support/test-app';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('error envelope and request validation', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers an unknown route with 404 RESOURCE_NOT_FOUND', async () => {
    const res = await t.http().get('/v1/no-such-thing').expect(404);
    expectEnvelope(res, { code: 'RESOURCE_NOT_FOUND', category: 'not_found' });
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.body.error.correlationId).toBe(res.headers['x-correlation-id']);
  });

  it('answers an unknown method on a known path with 404', async () => {
    const res = await t.http().delete('/v1/_probe/validate').expect(404);
    expectEnvelope(res, { code: 'RESOURCE_NOT_FOUND', category: 'not_found' });
  });

  it('rejects malformed JSON with rule json', async () => {
    const res = await t.http().post('/v1/_probe/validate').set('Content-Type', 'application/json').send('{"name": ').expect(400);
    expectEnvelope(res, { code: 'VALIDATION_FAILED', category: 'validation' });
    expect(res.body.error.details.fields).toEqual([expect.objectContaining({ path: 'body', rule: 'json' })]);
  });

  it.each([
    ['text/plain', 'name=x'],
    ['application/x-www-form-urlencoded', 'name=x'],
    ['multipart/form-data; boundary=x', '--x--'],
  ])('rejects a %s body with rule content_type', async (contentType, payload) => {
    const res = await t.http().post('/v1/_probe/validate').set('Content-Type', contentType).send(payload).expect(400);
    expectEnvelope(res, { code: 'VALIDATION_FAILED', category: 'validation' });
    expect(res.body.error.details.fields[0]).toMatchObject({ path: 'headers.content-type', rule: 'content_type' });
  });

  it('accepts application/json with a charset', async () => {
    await t
      .http()
      .post('/v1/_probe/validate')
      .set('Content-Type', 'application/json; charset=utf-8')
      .send(JSON.stringify({ name: 'ok' }))
      .expect(200, { name: 'ok' });
  });

  it('rejects a body over 1 MiB with rule body_too_large', async () => {
    const big = JSON.stringify({ name: 'x', pad: 'a'.repeat(1024 * 1024) });
    const res = await t.http().post('/v1/_probe/validate').set('Content-Type', 'application/json').send(big).expect(400);
    expectEnvelope(res, { code: 'VALIDATION_FAILED', category: 'validation' });
    expect(res.body.error.details.fields[0]).toMatchObject({ path: 'body', rule: 'body_too_large' });
  });

  it('accepts a body just under 1 MiB', async () => {
    const items = [{ name: 'a' }];
    const body = JSON.stringify({ name: 'x', items, code: 'a'.repeat(1024 * 1024 - 100) });
    const res = await t.http().post('/v1/_probe/validate').set('Content-Type', 'application/json').send(body).expect(200);
    expect(res.body.name).toBe('x');
  });

  it('reports every field violation with field paths and rule names', async () => {
    const res = await t
      .http()
      .post('/v1/_probe/validate')
      .send({ code: 'UPPER', count: 9, ref: 'not-a-uuid', items: [{ name: 'ok' }, { name: '' }, {}], extra: 1 })
      .expect(400);
    expectEnvelope(res, { code: 'VALIDATION_FAILED', category: 'validation' });
    const fields = res.body.error.details.fields as { path: string; rule: string; message?: string }[];
    const byPath = Object.fromEntries(fields.map((f) => [f.path, f.rule]));
    expect(byPath).toEqual({
      'body.name': 'required',
      'body.code': 'pattern',
      'body.count': 'maximum',
      'body.ref': 'format',
      'body.items[1].name': 'min_length',
      'body.items[2].name': 'required',
      'body.extra': 'unknown_property',
    });
    for (const field of fields) expect(field.message).toEqual(expect.any(String));
  });

  it('names type errors as rule type', async () => {
    const res = await t.http().post('/v1/_probe/validate').send({ name: 42, count: 'three' }).expect(400);
    const rules = Object.fromEntries(res.body.error.details.fields.map((f: { path: string; rule: string }) => [f.path, f.rule]));
    expect(rules).toEqual({ 'body.name': 'type', 'body.count': 'type' });
  });

  it('names too-long strings max_length and too many items max_items', async () => {
    const res = await t
      .http()
      .post('/v1/_probe/validate')
      .send({ name: 'x'.repeat(11), items: [{ name: 'a' }, { name: 'b' }, { name: 'c' }, { name: 'd' }] })
      .expect(400);
    const rules = Object.fromEntries(res.body.error.details.fields.map((f: { path: string; rule: string }) => [f.path, f.rule]));
    expect(rules).toEqual({ 'body.name': 'max_length', 'body.items': 'max_items' });
  });

  it('rejects a JSON array or scalar where an object is expected', async () => {
    for (const payload of ['[1,2]', '"text"']) {
      const res = await t.http().post('/v1/_probe/validate').set('Content-Type', 'application/json').send(payload).expect(400);
      expect(res.body.error.details.fields[0]).toMatchObject({ path: 'body' });
    }
  });

  it('treats a missing body as an empty object and names each required property', async () => {
    const res = await t.http().post('/v1/_probe/validate').expect(400);
    expect(res.body.error.details.fields).toEqual([expect.objectContaining({ path: 'body.name', rule: 'required' })]);
  });

  it('validates query parameters under query.*', async () => {
    const bad = await t.http().get('/v1/_probe/query?limit=30').expect(400);
    expect(bad.body.error.details.fields).toEqual([expect.objectContaining({ path: 'query.limit', rule: 'enum' })]);
    const unknown = await t.http().get('/v1/_probe/query?offset=5').expect(400);
    expect(unknown.body.error.details.fields).toEqual([expect.objectContaining({ path: 'query.offset', rule: 'unknown_property' })]);
    await t.http().get('/v1/_probe/query?limit=50').expect(200, { limit: 50 });
  });

  it('rejects a malformed UUID path parameter under params.*', async () => {
    const res = await t.http().get('/v1/_probe/items/12345').expect(400);
    expectEnvelope(res, { code: 'VALIDATION_FAILED', category: 'validation' });
    expect(res.body.error.details.fields).toEqual([{ path: 'params.itemId', rule: 'format', message: 'Must be a UUID.' }]);
    const ok = await t.http().get('/v1/_probe/items/8F14E45F-CEEA-467F-A0E6-1C5A4C8B3E2D').expect(200);
    expect(ok.body.itemId).toMatch(UUID);
  });

  it('hides an unexpected exception behind a generic 500', async () => {
    const res = await t.http().get('/v1/_probe/boom').expect(500);
    expectEnvelope(res, { code: 'INTERNAL_ERROR', category: 'internal' });
    expect(res.body.error.message).toBe('An unexpected error occurred.');
    expect(res.body.error.details).toBeUndefined();
  });

  it('never leaks SQL or driver messages', async () => {
    const res = await t.http().get('/v1/_probe/sql-error').expect(500);
    expectEnvelope(res, { code: 'INTERNAL_ERROR', category: 'internal' });
  });

  it('denies a route without @Public() by default with 401 and WWW-Authenticate', async () => {
    const res = await t.http().get('/v1/_probe/private').expect(401);
    expectEnvelope(res, { code: 'AUTHENTICATION_FAILED', category: 'authentication' });
    expect(res.body.error.details).toEqual({ reason: 'missing_token' });
    expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    const withToken = await t.http().get('/v1/diagnostics/version').set('Authorization', 'Bearer whatever').expect(401);
    expect(withToken.body.error.details).toEqual({ reason: 'invalid_token' });
    expect(withToken.headers['www-authenticate']).toMatch(/^Bearer/);
  });

  it('sets Cache-Control: no-store on successes and errors alike', async () => {
    const ok = await t.http().get('/v1/_probe/query').expect(200);
    expect(ok.headers['cache-control']).toBe('no-store');
    const err = await t.http().get('/v1/_probe/items/x').expect(400);
    expect(err.headers['cache-control']).toBe('no-store');
  });

  it('applies the CORS allowlist by exact origin, with credentials', async () => {
    const allowed = await t
      .http()
      .options('/v1/_probe/query')
      .set('Origin', 'https://console.uplink.test')
      .set('Access-Control-Request-Method', 'GET');
    expect(allowed.headers['access-control-allow-origin']).toBe('https://console.uplink.test');
    expect(allowed.headers['access-control-allow-credentials']).toBe('true');
    for (const origin of ['https://console.uplink.test.evil.com', 'http://console.uplink.test', 'https://evil.com']) {
      const denied = await t.http().options('/v1/_probe/query').set('Origin', origin).set('Access-Control-Request-Method', 'GET');
      expect(denied.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  it('sends the helmet security headers', async () => {
    const res = await t.http().get('/healthz').expect(200);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-powered-by']).toBeUndefined();
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    // /docs must keep working over plain HTTP.
    expect(res.headers['content-security-policy']).not.toContain('upgrade-insecure-requests');
    // Every answer is no-store, so no automatic body-hash ETag.
    expect(res.headers.etag).toBeUndefined();
  });
});
