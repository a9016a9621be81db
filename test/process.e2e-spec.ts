import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect } from 'node:net';
import { join } from 'node:path';
import { Client } from 'pg';
import { freePort } from './support/free-port';
import { clusterTempDir, ensureBuilt, ROOT, RunningService, startService, waitForReady } from './support/service-process';

/*
 * The real entry point as `npm start` runs it (dist/main.js), as a child process: embedded PostgreSQL when
 * DATABASE_URL is absent, SIGTERM handling, data reuse across restarts, and the one-line config error.
 */

function portOpen(port: number): Promise<boolean> {
  return new Promise((done) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => (socket.destroy(), done(true)));
    socket.once('error', () => done(false));
  });
}

/** Waits until the output contains `text` (log lines are written asynchronously, e.g. through pino-pretty). */
async function waitForOutput(running: RunningService, text: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!running.output().includes(text) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
}

beforeAll(() => ensureBuilt(), 120_000);

describe('the service process', () => {
  let dataDir: string;
  let running: RunningService | undefined;

  beforeAll(() => {
    dataDir = clusterTempDir('uplink-process-pg-');
  });
  afterEach(async () => {
    if (running && running.child.exitCode === null) {
      running.child.kill('SIGKILL');
      await running.exited;
    }
    running = undefined;
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  /**
   * Warning and error lines of a log (pino levels 40 and 50 under NODE_ENV=test), except the start-up advice
   * that no platform admin is configured (these tests configure none).
   */
  const alarming = (output: string): string[] =>
    output.split('\n').filter((line) => /"level":[456]0/.test(line) && !/"context":"(Bootstrap|Next)"/.test(line));

  it('starts on embedded PostgreSQL without DATABASE_URL, stops it on SIGTERM, and reuses the data on restart', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const env = { PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_DIR: join(dataDir, 'pg'), EMBEDDED_PG_PORT: String(pgPort) };

    running = startService(env);
    await waitForReady(port, running.output, 60_000);
    expect(running.output()).toContain('Using embedded PostgreSQL');
    expect(running.output()).toContain('initialised now');
    expect(await portOpen(pgPort)).toBe(true);

    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.output()).toContain('Embedded PostgreSQL stopped');
    expect(await portOpen(pgPort)).toBe(false);
    expect(await portOpen(port)).toBe(false);
    // A normal start and a clean stop say nothing that looks like a failure: the connections the service closes
    // itself are not lost, and there is no replay to recover.
    expect(alarming(running.output())).toEqual([]);

    running = startService(env);
    await waitForReady(port, running.output, 60_000);
    expect(running.output()).toContain('reused');
    expect(running.output()).toContain('Schema is up to date');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(await portOpen(pgPort)).toBe(false);
    expect(alarming(running.output())).toEqual([]);
  }, 120_000);

  it('in development without PLATFORM_ADMIN_*: says where to go next, keeps the one-time password in a private file until it is changed, and keeps its keys across restarts', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const pgDir = join(dataDir, 'dev', 'postgres');
    const env = { NODE_ENV: 'development', PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_DIR: pgDir, EMBEDDED_PG_PORT: String(pgPort) };
    running = startService(env);
    await waitForReady(port, running.output, 60_000);
    const file = join(dataDir, 'dev', 'initial-admin-password');
    const password = readFileSync(file, 'utf8').trim();
    expect(password).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const secretsFile = join(dataDir, 'dev', 'development-secrets.json');
    expect(statSync(secretsFile).mode & 0o777).toBe(0o600);

    // The start-up output ends with where to go next; Nest's route mapping stays below info.
    await waitForOutput(running, 'First sign-in');
    const lines = running.output().trim().split('\n');
    const tail = lines.slice(-4).join('\n');
    expect(tail).toContain(`Ready: http://127.0.0.1:${port}`);
    expect(tail).toContain(`API documentation: http://127.0.0.1:${port}/docs`);
    expect(tail).toContain(`First sign-in: 'admin' with the one-time password in ${file}`);
    expect(running.output()).not.toContain('Mapped {');
    expect(running.output()).not.toContain('dependencies initialized');

    const base = `http://127.0.0.1:${port}/v1/auth`;
    const json = { 'Content-Type': 'application/json' };
    const res = await fetch(`${base}/login`, { method: 'POST', headers: json, body: JSON.stringify({ identifier: 'admin', password }) });
    expect(res.status).toBe(200);
    const first = (await res.json()) as { accessToken: string; passwordChangeRequired: boolean };
    expect(first.passwordChangeRequired).toBe(true);
    const blocked = await fetch(`http://127.0.0.1:${port}/v1/users`, { headers: { Authorization: `Bearer ${first.accessToken}` } });
    expect(blocked.status).toBe(403);
    expect(((await blocked.json()) as { error: { message: string } }).error.message).toContain('POST /v1/auth/change-password');
    const changed = await fetch(`${base}/change-password`, {
      method: 'POST',
      headers: { ...json, Authorization: `Bearer ${first.accessToken}` },
      body: JSON.stringify({ currentPassword: password, newPassword: 'my-own-admin-password' }),
    });
    expect(changed.status).toBe(200);
    const { accessToken } = (await changed.json()) as { accessToken: string };
    expect(existsSync(file)).toBe(false);
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
    expect(running.output()).not.toContain(password);

    // Restart: the access token issued before still works (same generated key), no password file is announced.
    running = startService(env);
    await waitForReady(port, running.output, 60_000);
    const me = await fetch(`${base}/me`, { headers: { Authorization: `Bearer ${accessToken}` } });
    expect(me.status).toBe(200);
    await waitForOutput(running, 'API documentation');
    expect(running.output()).not.toContain('First sign-in');
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);
  }, 150_000);

  it('stops cleanly on Ctrl-C in a terminal (SIGINT to the whole process group, embedded PostgreSQL included), without warnings', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const cleanEnv = { ...process.env };
    delete cleanEnv.DATABASE_URL;
    // A process group of its own, as a shell gives a foreground job: the terminal's SIGINT reaches every process in it.
    const child = spawn(process.execPath, ['--no-node-snapshot', join(ROOT, 'dist', 'main.js')], {
      cwd: ROOT,
      env: { ...cleanEnv, NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_DIR: join(dataDir, 'ctrl-c-pg'), EMBEDDED_PG_PORT: String(pgPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    try {
      await waitForReady(port, () => output, 60_000);
      // the job worker's pool and the LISTEN connections are open and idle
      await new Promise((done) => setTimeout(done, 1500));
      process.kill(-child.pid!, 'SIGINT');
      expect(await exited).toBe(0);
      expect(output).toContain('SIGINT received: draining');
      // The database ended the connections because of the same Ctrl-C: part of the stop, not a failure. (A job that
      // was running at that instant may fail and is retried at the next start; that one is worth its line.)
      expect(alarming(output).filter((line) => /connection/i.test(line) && !/"msg":"Job [^"]+ #\d+:/.test(line))).toEqual([]);
    } finally {
      if (child.exitCode === null) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 120_000);

  it('stops the service and its embedded PostgreSQL when `npm start` gets SIGTERM', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const cleanEnv = { ...process.env };
    delete cleanEnv.DATABASE_URL;
    // --ignore-scripts skips `prestart` (the build; this file builds once above), not `start` itself.
    const npm = spawn('npm', ['start', '--ignore-scripts'], {
      cwd: ROOT,
      env: { ...cleanEnv, NODE_ENV: 'test', LOG_LEVEL: 'info', PORT: String(port), HOST: '127.0.0.1', EMBEDDED_PG_DIR: join(dataDir, 'npm-pg'), EMBEDDED_PG_PORT: String(pgPort) },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    npm.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    npm.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => npm.on('exit', (code) => done(code)));
    try {
      await waitForReady(port, () => output, 60_000);
      expect(await portOpen(pgPort)).toBe(true);
      npm.kill('SIGTERM');
      await exited;
      // npm may exit as soon as its child does; the service must be gone with everything it started.
      const deadline = Date.now() + 20_000;
      while (Date.now() < deadline && ((await portOpen(port)) || (await portOpen(pgPort)))) await new Promise((done) => setTimeout(done, 200));
      expect(await portOpen(port)).toBe(false);
      expect(await portOpen(pgPort)).toBe(false);
      expect(output).toContain('SIGTERM received: draining');
      expect(output).toContain('Embedded PostgreSQL stopped');
    } finally {
      if (npm.exitCode === null) npm.kill('SIGKILL');
    }
  }, 120_000);

  it('never lets a password, token or cookie reach the logs or the audit log during a full auth flow', async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    const password = 'Known-Bootstrap-Password-4711';
    const newPassword = 'Known-New-Password-0815';
    running = startService({
      PORT: String(port),
      HOST: '127.0.0.1',
      EMBEDDED_PG_DIR: join(dataDir, 'pg-secrets'),
      EMBEDDED_PG_PORT: String(pgPort),
      LOG_LEVEL: 'trace',
      BCRYPT_COST: '4',
      ALLOWED_ORIGINS: 'https://console.example.com',
      REFRESH_COOKIE_SECURE: 'false',
      PLATFORM_ADMIN_USERNAME: 'secret-admin',
      PLATFORM_ADMIN_EMAIL: 'secret-admin@example.com',
      PLATFORM_ADMIN_PASSWORD: password,
    });
    await waitForReady(port, running.output, 60_000);
    const base = `http://127.0.0.1:${port}/v1/auth`;
    const json = { 'Content-Type': 'application/json', Origin: 'https://console.example.com' };
    const secrets: string[] = [password, newPassword, 'Wrong-Password-Attempt-1'];

    await fetch(`${base}/login`, { method: 'POST', headers: json, body: JSON.stringify({ identifier: 'secret-admin', password: secrets[2] }) });
    const login = await fetch(`${base}/login`, { method: 'POST', headers: json, body: JSON.stringify({ identifier: 'secret-admin', password }) });
    expect(login.status).toBe(200);
    const first = (await login.json()) as { accessToken: string };
    const cookie = login.headers.getSetCookie()[0]!.split(';')[0]!;
    secrets.push(first.accessToken, cookie.split('=')[1]!);
    const refreshed = await fetch(`${base}/refresh`, { method: 'POST', headers: { ...json, Cookie: cookie } });
    expect(refreshed.status).toBe(200);
    const second = (await refreshed.json()) as { accessToken: string };
    secrets.push(second.accessToken, refreshed.headers.getSetCookie()[0]!.split(';')[0]!.split('=')[1]!);
    const auth = { ...json, Authorization: `Bearer ${second.accessToken}` };
    expect((await fetch(`${base}/me`, { headers: auth })).status).toBe(200);
    const changed = await fetch(`${base}/change-password`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ currentPassword: password, newPassword }),
    });
    expect(changed.status).toBe(200);
    secrets.push(((await changed.json()) as { accessToken: string }).accessToken);
    const wrongCurrent = await fetch(`${base}/change-password`, {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ currentPassword: secrets[2], newPassword: 'whatever-new-password' }),
    });
    expect(wrongCurrent.status).toBe(401); // that session was revoked by the change

    const audit = new Client({ connectionString: `postgres://postgres:postgres@127.0.0.1:${pgPort}/uplink` });
    await audit.connect();
    const rows = await audit.query('SELECT * FROM audit_log');
    const hashes = await audit.query<{ password_hash: string }>('SELECT password_hash FROM users');
    await audit.end();
    running.child.kill('SIGTERM');
    expect(await running.exited).toBe(0);

    expect(rows.rowCount).toBeGreaterThanOrEqual(5);
    const logs = running.output();
    expect(logs).toContain('request completed'); // the request log is on, so the check below means something
    secrets.push(hashes.rows[0]!.password_hash);
    const auditText = JSON.stringify(rows.rows);
    for (const secret of secrets) {
      expect(logs).not.toContain(secret);
      expect(auditText).not.toContain(secret);
    }
  }, 120_000);

  it('`npm start` starts from a build that is up to date with the sources, without building again', () => {
    execFileSync('node', ['scripts/build-if-stale.js'], { cwd: ROOT, stdio: 'pipe' }); // builds only if an edit made it stale
    const started = Date.now();
    const output = execFileSync('npm', ['run', 'prestart'], { cwd: ROOT, encoding: 'utf8' });
    expect(output).toContain('Build is up to date with the sources: starting without building.');
    expect(Date.now() - started).toBeLessThan(10_000);
  }, 180_000);

  it('builds before starting when there is no build yet or any input is newer: a source, a deleted source, package.json, a tsconfig', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { staleReason } = require(join(ROOT, 'scripts', 'build-if-stale.js')) as { staleReason: (root: string) => string | null };
    const root = mkdtempSync(join(tmpdir(), 'uplink-stale-'));
    try {
      const at = (path: string, seconds: number) => utimesSync(join(root, path), seconds, seconds);
      mkdirSync(join(root, 'src', 'modules'), { recursive: true });
      writeFileSync(join(root, 'src', 'main.ts'), '');
      writeFileSync(join(root, 'src', 'modules', 'a.ts'), '');
      writeFileSync(join(root, 'package.json'), '{}');
      writeFileSync(join(root, 'tsconfig.json'), '{}');
      for (const path of ['src/main.ts', 'src/modules/a.ts', 'src/modules', 'src', 'package.json', 'tsconfig.json']) at(path, 1000);
      expect(staleReason(root)).toBe('no build yet');
      mkdirSync(join(root, 'dist'));
      writeFileSync(join(root, 'dist', 'main.js'), '');
      at('dist/main.js', 2000);
      expect(staleReason(root)).toBeNull();
      at('src/modules/a.ts', 3000);
      expect(staleReason(root)).toMatch(/^src changed/);
      at('src/modules/a.ts', 1000);
      rmSync(join(root, 'src', 'modules', 'a.ts')); // the folder's time moves to now
      expect(staleReason(root)).toMatch(/^src changed/);
      at('src/modules', 1000);
      expect(staleReason(root)).toBeNull();
      at('package.json', 3000);
      expect(staleReason(root)).toBe('package.json changed since the last build');
      at('package.json', 1000);
      at('tsconfig.json', 3000);
      expect(staleReason(root)).toBe('tsconfig.json changed since the last build');
      at('tsconfig.json', 1000);
      // With the web console: its build output counts too, and so do its sources.
      mkdirSync(join(root, 'console', 'src'), { recursive: true });
      writeFileSync(join(root, 'console', 'package.json'), '{}');
      writeFileSync(join(root, 'console', 'src', 'main.tsx'), '');
      for (const path of ['console/package.json', 'console/src/main.tsx', 'console/src', 'console']) at(path, 1000);
      expect(staleReason(root)).toBe('no build yet');
      mkdirSync(join(root, 'console', 'dist'));
      writeFileSync(join(root, 'console', 'dist', 'index.html'), '');
      at('console/dist/index.html', 2000);
      expect(staleReason(root)).toBeNull();
      at('console/src/main.tsx', 3000);
      expect(staleReason(root)).toBe('console/src changed since the last build');
      at('console/src/main.tsx', 1000);
      at('dist/main.js', 500);
      expect(staleReason(root)).toMatch(/changed since the last build$/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('writes the OpenAPI document without any database (npm run openapi)', () => {
    const target = join(dataDir, 'openapi.json');
    const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_DIR: join(dataDir, 'never-created') };
    delete env.DATABASE_URL;
    const out = execFileSync(process.execPath, [join(ROOT, 'scripts', 'write-openapi.js'), target], { cwd: ROOT, env });
    expect(out.toString()).toMatch(/^OpenAPI 3\.1\.0 with \d+ paths written to /);
    const document = JSON.parse(readFileSync(target, 'utf8'));
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths)).toEqual(expect.arrayContaining(['/healthz', '/readyz', '/v1/diagnostics/version']));
    expect(existsSync(join(dataDir, 'never-created'))).toBe(false);
  });

  it.each([
    [{ PORT: 'eighty' }, /^Invalid configuration: PORT: PORT must be a number\n$/],
    [{ DATABASE_URL: 'mysql://db/x' }, /^Invalid configuration: DATABASE_URL: .*postgres.*\n$/],
    [
      { NODE_ENV: 'production' },
      /^Invalid configuration \(3 problems\):\n {2}METRICS_TOKEN: METRICS_TOKEN is required\n {2}JWT_SECRET: JWT_SECRET is required\n {2}CURSOR_SECRET: CURSOR_SECRET is required\n$/,
    ],
    [
      { NODE_ENV: 'production', METRICS_TOKEN: 'change-me-metrics-token', JWT_SECRET: 'j'.repeat(32), CURSOR_SECRET: 'c'.repeat(32), TRUST_PROXY: 'everyone' },
      /^Invalid configuration \(2 problems\):\n {2}TRUST_PROXY: .*\n {2}METRICS_TOKEN: METRICS_TOKEN is a placeholder value.*\n$/,
    ],
    [{ ALLOWED_ORIGINS: 'https://ok.example,*' }, /^Invalid configuration: ALLOWED_ORIGINS: .*origins.*\n$/],
  ])('exits 1 with one message naming every variable and its rule for %j', async (env, message) => {
    running = startService(env);
    expect(await running.exited).toBe(1);
    expect(running.output()).toMatch(message);
  });
});
