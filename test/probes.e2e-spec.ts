import { randomUUID } from 'node:crypto';
import { startTestApp, TestApp } from './support/test-app';
import { TcpProxy } from './support/tcp-proxy';

async function waitFor(check: () => Promise<boolean>, timeoutMs = 10000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('condition not met in time');
}

describe('probes, metrics and docs', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('GET /healthz answers ok without touching dependencies', async () => {
    const res = await t.http().get('/healthz').expect(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  it('GET /readyz reports database and migrations up, and mail (not configured here) without becoming unready', async () => {
    const res = await t.http().get('/readyz').expect(200);
    expect(res.body).toEqual({
      status: 'ready',
      checks: {
        database: { status: 'up', latencyMs: expect.any(Number) },
        migrations: { status: 'up', latencyMs: expect.any(Number) },
        mail: { status: 'down', latencyMs: expect.any(Number), message: 'SMTP_URL is not set' },
      },
    });
  });

  it('labels metrics with the route template, never the raw path', async () => {
    const id = randomUUID();
    await t.http().get(`/v1/_probe/items/${id}`).expect(200);
    await t.http().get('/v1/_probe/items/not-a-uuid').expect(400);
    await t.http().get(`/v1/unknown/${id}`).expect(404);
    const res = await t.http().get('/metrics').expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4|^text\/plain;.*version=0\.0\.4/);
    const text = res.text;
    expect(text).toContain('http_requests_total{method="GET",route="/v1/_probe/items/{itemId}",status="200"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="/v1/_probe/items/{itemId}",status="400"} 1');
    expect(text).toContain('http_requests_total{method="GET",route="unmatched",status="404"}');
    expect(text).toMatch(/http_request_duration_seconds_bucket\{le="0\.005",method="GET",route="\/v1\/_probe\/items\/\{itemId\}",status="200"\}/);
    expect(text).not.toContain(id);
    expect(text).toContain('process_cpu_user_seconds_total');
  });

  it('serves OpenAPI 3.1 at /docs/openapi.json and the UI at /docs', async () => {
    const doc = await t.http().get('/docs/openapi.json').expect(200);
    expect(doc.body.openapi).toBe('3.1.0');
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/v1/diagnostics/version']));
    const ui = await t.http().get('/docs').expect(200);
    expect(ui.text).toContain('swagger');
  });
});

describe('metrics token', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: { METRICS_TOKEN: 'metrics-token-0123456789', DOCS_ENABLED: 'false' } });
  });
  afterAll(() => t.close());

  it('requires the bearer token when METRICS_TOKEN is set', async () => {
    const missing = await t.http().get('/metrics').expect(401);
    expect(missing.body.error.code).toBe('AUTHENTICATION_FAILED');
    expect(missing.headers['www-authenticate']).toMatch(/^Bearer/);
    await t.http().get('/metrics').set('Authorization', 'Bearer wrong-token-0123456789x').expect(401);
    await t.http().get('/metrics').set('Authorization', 'Bearer metrics-token-0123456789').expect(200);
  });

  it('hides /docs when DOCS_ENABLED=false', async () => {
    await t.http().get('/docs/openapi.json').expect(404);
  });
});

describe('readiness when the database goes away and comes back', () => {
  let t: TestApp;
  let proxy: TcpProxy;

  beforeAll(async () => {
    t = await startTestApp({
      databaseUrl: async (database) => {
        proxy = await TcpProxy.start(database.url);
        return proxy.rewrite(database.url);
      },
    });
  });
  afterAll(async () => {
    await proxy.restore().catch(() => undefined);
    await t.close();
    await proxy.stop();
  });

  it('turns 503 with the failing check, answers /v1 with DEPENDENCY_FAILURE, and recovers without restart', async () => {
    await t.http().get('/readyz').expect(200);
    await t.http().get('/v1/_probe/db').expect(200);

    await proxy.cut();
    const down = await t.http().get('/readyz').expect(503);
    expect(down.body.status).toBe('not_ready');
    expect(down.body.checks.database).toMatchObject({ status: 'down', message: expect.any(String) });
    expect(JSON.stringify(down.body)).not.toMatch(/ECONNREFUSED|127\.0\.0\.1|password/);
    expect(down.body.error).toBeUndefined();

    const failed = await t.http().get('/v1/_probe/db').expect(503);
    expect(failed.body.error).toMatchObject({
      code: 'DEPENDENCY_FAILURE',
      category: 'dependency_failure',
      details: { dependency: 'database', reason: 'unavailable' },
    });
    expect(Number(failed.headers['retry-after'])).toBeGreaterThan(0);
    expect(failed.headers['cache-control']).toBe('no-store');

    // Liveness never depends on the database.
    await t.http().get('/healthz').expect(200);

    await proxy.restore();
    await waitFor(async () => (await t.http().get('/readyz')).status === 200);
    await t.http().get('/v1/_probe/db').expect(200);
  });
});
