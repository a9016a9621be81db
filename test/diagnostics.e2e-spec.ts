import jwt from 'jsonwebtoken';
import { loginAdmin } from './support/auth';
import { startTestApp, TestApp } from './support/test-app';

/** Diagnostics: the first ordinary authenticated endpoints. */
describe('diagnostics', () => {
  let t: TestApp;
  let auth: string;
  let userId: string;

  beforeAll(async () => {
    t = await startTestApp({ env: { GIT_COMMIT: 'abc1234', BUILT_AT: '2026-11-23T10:00:00Z' } });
    const { accessToken } = await loginAdmin(t);
    auth = `Bearer ${accessToken}`;
    userId = String((jwt.decode(accessToken) as jwt.JwtPayload).sub);
  });
  afterAll(() => t.close());

  it('refuses anonymous callers with 401 on both routes', async () => {
    for (const res of [
      await t.http().get('/v1/diagnostics/version'),
      await t.http().post('/v1/diagnostics/echo').send({ message: 'hi' }),
    ]) {
      expect(res.status).toBe(401);
      expect(res.body.error).toMatchObject({ code: 'AUTHENTICATION_FAILED', details: { reason: 'missing_token' } });
      expect(res.headers['www-authenticate']).toMatch(/^Bearer/);
    }
  });

  it('reports version, build identity and API version', async () => {
    const res = await t.http().get('/v1/diagnostics/version').set('Authorization', auth).expect(200);
    expect(res.body).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      gitCommit: 'abc1234',
      builtAt: '2026-11-23T10:00:00.000Z',
      apiVersion: 'v1',
    });
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('echoes the message with the caller, the correlation id and a database round trip', async () => {
    const res = await t
      .http()
      .post('/v1/diagnostics/echo')
      .set('Authorization', auth)
      .set('X-Correlation-Id', 'diag-echo')
      .send({ message: 'hello' })
      .expect(200);
    expect(res.body).toEqual({
      message: 'hello',
      correlationId: 'diag-echo',
      receivedAt: expect.stringMatching(/Z$/),
      userId,
      databaseRoundTripMs: expect.any(Number),
    });
  });

  it('validates the echo body (1..1000 characters, no other properties)', async () => {
    const tooLong = await t.http().post('/v1/diagnostics/echo').set('Authorization', auth).send({ message: 'x'.repeat(1001) }).expect(400);
    expect(tooLong.body.error.details.fields[0]).toMatchObject({ path: 'body.message', rule: 'max_length' });
    const extra = await t.http().post('/v1/diagnostics/echo').set('Authorization', auth).send({ message: 'a', b: 1 }).expect(400);
    expect(extra.body.error.details.fields[0]).toMatchObject({ path: 'body.b', rule: 'unknown_property' });
  });

  it('documents both routes in OpenAPI', async () => {
    const doc = await t.http().get('/docs/openapi.json').expect(200);
    const version = doc.body.paths['/v1/diagnostics/version'].get;
    expect(version.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/VersionResponse' });
    const echo = doc.body.paths['/v1/diagnostics/echo'].post;
    expect(echo.requestBody.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EchoRequest' });
    expect(echo.responses['200'].content['application/json'].schema).toEqual({ $ref: '#/components/schemas/EchoResponse' });
    expect(doc.body.components.schemas.EchoRequest).toMatchObject({ required: ['message'], properties: { message: { type: 'string', minLength: 1, maxLength: 1000 } } });
  });
});
