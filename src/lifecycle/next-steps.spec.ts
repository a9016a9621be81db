import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AppConfig } from '../config/app-config';
import { nextSteps, publicUrl } from './next-steps';

describe('start-up next steps', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'uplink-next-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  const config = (env: NodeJS.ProcessEnv = {}) => AppConfig.fromEnv({ NODE_ENV: 'test', EMBEDDED_PG_DIR: join(dir, 'pg'), ...env });

  it('turns a wildcard bind address into a URL a person can open', () => {
    expect(publicUrl({ host: '0.0.0.0', port: 3000 })).toBe('http://localhost:3000');
    expect(publicUrl({ host: '::', port: 80 })).toBe('http://localhost:80');
    expect(publicUrl({ host: '127.0.0.1', port: 8080 })).toBe('http://127.0.0.1:8080');
    expect(publicUrl({ host: '::1', port: 8080 })).toBe('http://[::1]:8080');
  });

  it('names the URL and /docs', () => {
    const texts = nextSteps(config(), { result: 'present', username: null }).map((step) => step.text);
    expect(texts).toEqual([
      'Ready: http://localhost:3000 (health: http://localhost:3000/readyz)',
      'API documentation: http://localhost:3000/docs (OpenAPI document: http://localhost:3000/docs/openapi.json)',
      'Web console: http://localhost:3000/console',
    ]);
  });

  it('names the console at PUBLIC_URL, says when it is off, and warns in production without PUBLIC_URL', () => {
    const at = (env: NodeJS.ProcessEnv) => nextSteps(config(env), { result: 'present', username: null })[2];
    expect(at({ PUBLIC_URL: 'https://uplink.example.com/' })).toEqual({ text: 'Web console: https://uplink.example.com/console' });
    expect(at({ CONSOLE_ENABLED: 'false' })).toEqual({ text: 'Web console is off (CONSOLE_ENABLED=false)' });
    const production = at({ NODE_ENV: 'production', METRICS_TOKEN: 'm'.repeat(16), JWT_SECRET: 'x'.repeat(32), CURSOR_SECRET: 'y'.repeat(32) });
    expect(production).toEqual({ text: expect.stringContaining('set PUBLIC_URL'), warn: true });
  });

  it('points to the one-time password file while it exists', () => {
    writeFileSync(join(dir, 'initial-admin-password'), 'x\n');
    const steps = nextSteps(config(), { result: 'created', username: 'admin' });
    expect(steps.at(-1)?.text).toBe(
      `First sign-in: 'admin' with the one-time password in ${join(dir, 'initial-admin-password')}; POST /v1/auth/login, then POST /v1/auth/change-password (which deletes the file)`,
    );
  });

  it('warns when nobody can sign in', () => {
    mkdirSync(join(dir, 'pg'));
    const steps = nextSteps(config({ DOCS_ENABLED: 'false' }), { result: 'unconfigured', username: null });
    expect(steps[1]?.text).toBe('API documentation is off (DOCS_ENABLED=false)');
    expect(steps.at(-1)).toEqual({ text: expect.stringContaining('No platform admin exists: set PLATFORM_ADMIN_USERNAME'), warn: true });
  });
});
