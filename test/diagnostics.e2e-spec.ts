import { QueryBus } from '@nestjs/cqrs';
import { EchoQuery } from '../src/modules/diagnostics/echo/echo.query';
import { GetVersionQuery } from '../src/modules/diagnostics/get-version/get-version.query';
import { startTestApp, TestApp } from './support/test-app';

/*
 * Design §5.15 diagnostics. Both routes need an authenticated caller; until the identity module exists the
 * deny-by-default guard answers 401, so the queries are exercised through the QueryBus here and the routes
 * only for their refusal.
 */
describe('diagnostics', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { GIT_COMMIT: 'abc1234', BUILT_AT: '2026-11-23T10:00:00Z' } });
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
    const version = await t.app.get(QueryBus).execute(new GetVersionQuery());
    expect(version).toEqual({
      version: expect.stringMatching(/^\d+\.\d+\.\d+/),
      gitCommit: 'abc1234',
      builtAt: '2026-11-23T10:00:00.000Z',
      apiVersion: 'v1',
    });
  });

  it('echoes the message with a database round trip', async () => {
    const echo = await t.app.get(QueryBus).execute(new EchoQuery('hello', null));
    expect(echo).toMatchObject({ message: 'hello', userId: null, receivedAt: expect.any(String) });
    expect(echo.databaseRoundTripMs).toBeGreaterThanOrEqual(0);
  });

  it('documents both routes in OpenAPI', async () => {
    const doc = await t.http().get('/docs/openapi.json').expect(200);
    expect(doc.body.paths['/v1/diagnostics/version'].get).toBeDefined();
    expect(doc.body.paths['/v1/diagnostics/echo'].post).toBeDefined();
  });
});
