import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { freePort } from './free-port';

/*
 * The built service (`dist/main.js`, what `npm start` runs) as a child process, for tests that need the real
 * entry point: signals, embedded PostgreSQL, logs.
 */

export const ROOT = resolve(__dirname, '..', '..');
export const MAIN = join(ROOT, 'dist', 'main.js');

/** `npm test` builds first; a bare `jest` run builds here, so these tests always run current sources. */
export function ensureBuilt(...outputs: string[]): void {
  if (![MAIN, ...outputs].every((file) => existsSync(file))) execFileSync('npx', ['nest', 'build'], { cwd: ROOT, stdio: 'inherit' });
}

/** A fresh temp folder the embedded cluster can use: as root it runs as `postgres`, which must be able to enter it. */
export function clusterTempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

export interface RunningService {
  child: ChildProcess;
  /** Everything the process wrote to stdout and stderr so far. */
  output: () => string;
  exited: Promise<number | null>;
}

/** Starts `dist/main.js` without DATABASE_URL (embedded PostgreSQL), NODE_ENV=test and LOG_LEVEL=info unless `env` says otherwise. */
export function startService(env: Record<string, string>): RunningService {
  const cleanEnv = { ...process.env };
  delete cleanEnv.DATABASE_URL;
  const child = spawn(process.execPath, ['--no-node-snapshot', MAIN], {
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

/** Polls `/readyz` until 200; on timeout the error carries the end of the service's output. */
export async function waitForReady(port: number, output: () => string = () => '', timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(`http://127.0.0.1:${port}/readyz`)
      .then((res) => res.status)
      .catch(() => 0);
    if (status === 200) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`service on port ${port} not ready within ${timeoutMs} ms:\n${output().slice(-4000)}`);
}

export interface Replica {
  url: string;
  service: RunningService;
}

/**
 * The built service as one of several replicas on one database, on a free port, once ready: the same keys on every
 * replica (tokens and cursors work on all of them), `admin` bootstrapped without a pending password change, and
 * throttles high enough for test traffic. `env` adds to or overrides that.
 */
export async function startReplica(databaseUrl: string, admin: { username: string; password: string }, env: Record<string, string> = {}): Promise<Replica> {
  const port = await freePort();
  const service = startService({
    DATABASE_URL: databaseUrl,
    PORT: String(port),
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    JWT_SECRET: 'replica-test-jwt-secret-0123456789abcdef01',
    CURSOR_SECRET: 'replica-test-cursor-secret-0123456789abcd',
    BCRYPT_COST: '4',
    RATE_LIMIT_PER_MINUTE: '100000',
    LOGIN_IP_ATTEMPTS_PER_MINUTE: '10000',
    PLATFORM_ADMIN_USERNAME: admin.username,
    PLATFORM_ADMIN_EMAIL: `${admin.username}@example.com`,
    PLATFORM_ADMIN_PASSWORD: admin.password,
    PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED: 'false',
    ...env,
  });
  await waitForReady(port, service.output, 90_000);
  return { url: `http://127.0.0.1:${port}`, service };
}
