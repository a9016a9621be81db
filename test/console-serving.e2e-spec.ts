import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { CONSOLE_DIST } from '../src/console/serve-console';
import { startTestApp, TestApp } from './support/test-app';

/** How the service serves the web console's build (the browser tests in console-*.e2e-spec.ts use it). */
describe('web console serving', () => {
  let t: TestApp;
  beforeAll(async () => {
    if (!existsSync(join(CONSOLE_DIST, 'index.html'))) throw new Error(`The console is not built (${CONSOLE_DIST}): run npm run build first.`);
    t = await startTestApp();
  });
  afterAll(() => t?.close());

  it('serves the HTML entry at /console and every path below it, never cached, with a CSP that allows no inline script', async () => {
    for (const path of ['/console', '/console/', '/console/t/1/devices']) {
      const res = await t.http().get(path).expect(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.text).toContain('<div id="root"></div>');
      const csp = res.headers['content-security-policy'] as string;
      const scriptSrc = csp.split(';').find((directive) => directive.trim().startsWith('script-src '));
      expect(scriptSrc?.trim()).toBe("script-src 'self'");
      expect(res.text).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    }
  });

  it('serves the hashed assets for a year and falls through to the 404 envelope for unknown ones', async () => {
    const asset = readdirSync(join(CONSOLE_DIST, 'assets')).find((name) => name.endsWith('.js'))!;
    const res = await t.http().get(`/console/assets/${asset}`).expect(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const missing = await t.http().get('/console/assets/nothing-here.js').expect(404);
    expect(missing.body.error.code).toBe('RESOURCE_NOT_FOUND');
    await t.http().get('/console/assets/..%2f..%2fpackage.json').expect(404);
  });

  it('redirects a browser asking for / to the console; API clients keep the 404 envelope', async () => {
    const browser = await t.http().get('/').set('Accept', 'text/html,application/xhtml+xml,*/*;q=0.8').expect(302);
    expect(browser.headers.location).toBe('/console/');
    const client = await t.http().get('/').set('Accept', 'application/json').expect(404);
    expect(client.body.error.code).toBe('RESOURCE_NOT_FOUND');
  });

  it('serves nothing with CONSOLE_ENABLED=false', async () => {
    const off = await startTestApp({ env: { CONSOLE_ENABLED: 'false' } });
    try {
      await off.http().get('/console/').expect(404);
      await off.http().get('/').set('Accept', 'text/html').expect(404);
    } finally {
      await off.close();
    }
  });
});
