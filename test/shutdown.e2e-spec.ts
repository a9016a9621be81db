import { request as httpRequest, type Server } from 'node:http';
import type { Response } from 'express';
import { HealthController } from '../src/health/health.controller';
import { shutdownGracefully } from '../src/lifecycle/graceful-shutdown';
import { ShutdownState } from '../src/shared/lifecycle/shutdown-state';
import { startTestApp, TestApp } from './support/test-app';

const silentLogger = { log: () => undefined, warn: () => undefined, error: () => undefined };

/** A raw GET that resolves with the status, or the socket error code when the connection fails. */
function rawGet(baseUrl: string, path: string): Promise<{ status?: number; body?: string; error?: string }> {
  return new Promise((resolve) => {
    const req = httpRequest(`${baseUrl}${path}`, { agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body }));
      res.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    req.end();
  });
}

function fakeResponse(): Response & { statusCode: number } {
  const res = { statusCode: 200, status: (code: number) => ((res.statusCode = code), res) };
  return res as unknown as Response & { statusCode: number };
}

/**
 * Sends a GET and, once the server has parsed the request's head, hands back its pending answer (wrapped, so awaiting
 * this does not wait for the answer too). A connection whose request has not been read yet counts as idle and
 * `server.close()` closes it at once, so a fixed sleep made these tests depend on the machine's load.
 */
async function sendInFlight(t: TestApp, path: string): Promise<{ answer: ReturnType<typeof rawGet> }> {
  const server = t.app.getHttpServer() as Server;
  const seen = new Promise<void>((resolve) => server.once('request', () => resolve()));
  const answer = rawGet(t.baseUrl, path);
  await seen;
  return { answer };
}

describe('graceful shutdown', () => {
  let t: TestApp;

  afterEach(async () => {
    // A failed expectation leaves the app running; close it so dropping the database does not cut live connections.
    if (t.dataSource.isInitialized) await t.app.close();
    await t.database.drop();
  });

  it('turns readiness 503 at once, refuses new connections, lets the in-flight request finish, then closes the pool', async () => {
    t = await startTestApp({ env: { SHUTDOWN_TIMEOUT_MS: '5000' } });
    const { answer: inFlight } = await sendInFlight(t, '/v1/_probe/slow?ms=800');

    const started = Date.now();
    const shutdown = shutdownGracefully(t.app, 5000, silentLogger);

    expect(t.app.get(ShutdownState).isShuttingDown).toBe(true);
    const res = fakeResponse();
    const readiness = await t.app.get(HealthController).readyz(res);
    expect(res.statusCode).toBe(503);
    expect(readiness).toMatchObject({ status: 'not_ready', checks: { shutdown: { status: 'down' } } });

    const refused = await rawGet(t.baseUrl, '/healthz');
    expect(refused.error).toBe('ECONNREFUSED');

    const finished = await inFlight;
    expect(finished.status).toBe(200);
    expect(JSON.parse(finished.body ?? '{}')).toEqual({ sleptMs: 800 });

    await shutdown;
    expect(Date.now() - started).toBeLessThan(4000);
    expect(t.dataSource.isInitialized).toBe(false);
  });

  it('cuts requests still running when SHUTDOWN_TIMEOUT_MS runs out', async () => {
    t = await startTestApp();
    const { answer: inFlight } = await sendInFlight(t, '/v1/_probe/slow?ms=1500');

    const started = Date.now();
    await shutdownGracefully(t.app, 300, silentLogger);
    const elapsed = Date.now() - started;

    expect(elapsed).toBeGreaterThanOrEqual(250);
    expect(elapsed).toBeLessThan(1200);
    // The connection is cut before any answer: the client sees the socket reset, not a status.
    expect(await inFlight).toEqual({ error: 'ECONNRESET' });
    expect(t.dataSource.isInitialized).toBe(false);
  });
});
