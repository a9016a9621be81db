import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './support/free-port';

/*
 * The real entry point as `npm start` runs it (dist/main.js), as a child process: embedded PostgreSQL when
 * DATABASE_URL is absent, SIGTERM handling, data reuse across restarts, and the one-line config error.
 */

const ROOT = resolve(__dirname, '..');
const MAIN = join(ROOT, 'dist', 'main.js');

interface Running {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function start(env: Record<string, string>): Running {
  const cleanEnv = { ...process.env };
  delete cleanEnv.DATABASE_URL;
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...cleanEnv, NODE_ENV: 'test', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  return { child, output: () => output, exited };
}

async function waitForReady(port: number, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((res) => res.status)
      .catch(() => 0);
    if (status === 200) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`service on port ${port} not ready within ${timeoutMs} ms`);
}

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

beforeAll(() => {
  // `npm test` builds first; a bare `jest` run builds here so this file always tests current sources.
  if (!existsSync(MAIN)) execFileSync('npx', ['nest', 'build'], { cwd: ROOT, stdio: 'inherit' });
}, 120_000);

describe('the service process', () => {
  let dataDir: string;
  let running: Running | undefined;

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), 'uplink-process-pg-'));
    // As root the embedded cluster runs as `postgres`, which must be able to enter this folder.
    chmodSync(dataDir, 0o755);
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = undefined;
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('starts on embedded PostgreSQL without DATABASE_URL, stops it on SIGTERM, and reuses the data on restart', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const env = { PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_DIR: join(dataDir, 'pg'), EMBEDDED_PG_PORT: String(pgPort) };

    running = start(env);
    await waitForReady(port);
    expect(running.output()).toContain('Using embedded PostgreSQL');
    expect(running.output()).toContain('initialised now');
    expect(await portOpen(pgPort)).toBe(true);

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.output()).toContain('Embedded PostgreSQL stopped');
    expect(await portOpen(pgPort)).toBe(false);
    expect(await portOpen(port)).toBe(false);

    running = start(env);
    await waitForReady(port);
    expect(running.output()).toContain('reused');
    expect(running.output()).toContain('Schema is up to date');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(await portOpen(pgPort)).toBe(false);
  }, 120_000);

  it('writes the OpenAPI document without any database (npm run openapi)', () => {
    const target = join(dataDir, 'openapi.json');
    const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_DIR: join(dataDir, 'never-created') };
    delete env.DATABASE_URL;
    const out = execFileSync(process.execPath, [join(ROOT, 'dist', 'openapi', 'write-openapi.js'), target], { cwd: ROOT, env });
    expect(out.toString()).toMatch(/^OpenAPI 3\.1\.0 with \d+ paths written to /);
    const document = JSON.parse(readFileSync(target, 'utf8'));
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/v1/diagnostics/version']));
    expect(existsSync(join(dataDir, 'never-created'))).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT: PORT must be a number\n$/],
    [{ DATABASE_URL: 'mysql://db/x' }, /^Invalid configuration: DATABASE_URL: .*postgres.*\n$/],
    [{ NODE_ENV: 'production' }, /^Invalid configuration: METRICS_TOKEN: METRICS_TOKEN is required\n$/],
    [{ ALLOWED_ORIGINS: 'https://ok.example,*' }, /^Invalid configuration: ALLOWED_ORIGINS: .*origins.*\n$/],
  ])('exits 1 with one line naming the variable and the rule for %j', async (env, message) => {
    running = start(env);
    expect(await running.exited).toBe(1);
    expect(running.output()).toMatch(message);
  });
});
