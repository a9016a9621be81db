// Shared plumbing of the benchmarks: free ports, child processes, readiness waits and autocannon runs.
const { spawn } = require('node:child_process');
const { chmodSync, mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');

const ROOT = resolve(__dirname, '..');

function freePort() {
  return new Promise((done, fail) => {
    const server = createServer();
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => done(port));
    });
  });
}

async function waitFor(url, timeoutMs = 60000) {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const status = await fetch(url).then((res) => res.status, () => 0);
    if (status === 200) return;
    await new Promise((done) => setTimeout(done, 200));
  }
  throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
}

function startProcess(args, env) {
  const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((done) => child.on('exit', done));
  return { stop: () => (child.kill('SIGTERM'), exited) };
}

function load(options) {
  return new Promise((done, fail) => {
    autocannon(options, (error, result) => (error ? fail(error) : done(result)));
  });
}

/**
 * Starts the built service (`node dist/main.js`) on a throw-away embedded PostgreSQL (or DATABASE_URL) and a bare
 * Express "hello" server, each in its own process; `env` adds to the service's environment.
 */
async function startServers(env = {}) {
  const dataDir = mkdtempSync(join(tmpdir(), 'uplink-bench-pg-'));
  chmodSync(dataDir, 0o755); // as root, the embedded cluster runs as `postgres`
  const [uplinkPort, pgPort, helloPort] = [await freePort(), await freePort(), await freePort()];
  const uplink = startProcess([join(ROOT, 'dist', 'main.js')], {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    METRICS_TOKEN: 'bench-metrics-token-0123456789',
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123',
    CURSOR_SECRET: 'bench-cursor-secret-0123456789abcdef01',
    HOST: '127.0.0.1',
    PORT: String(uplinkPort),
    EMBEDDED_PG_DIR: join(dataDir, 'pg'),
    EMBEDDED_PG_PORT: String(pgPort),
    ...env,
  });
  const hello = startProcess([join(__dirname, 'hello-server.js')], { PORT: String(helloPort) });
  const uplinkUrl = `http://127.0.0.1:${uplinkPort}`;
  const helloUrl = `http://127.0.0.1:${helloPort}/`;
  await waitFor(`${uplinkUrl}/readyz`);
  await waitFor(helloUrl);
  return {
    uplinkUrl,
    helloUrl,
    stop: async () => {
      await Promise.all([uplink.stop(), hello.stop()]);
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

function print(name, result) {
  const figures = { reqPerSec: Math.round(result.requests.average), p99Ms: result.latency.p99 };
  process.stdout.write(`${name.padEnd(34)} ${String(figures.reqPerSec).padStart(8)} req/s   p99 ${figures.p99Ms} ms\n`);
  return figures;
}

/** Warm-up run (not counted), then the measured run; refuses results with errors or unexpected statuses. */
async function measure(name, options) {
  await load({ ...options, duration: Math.min(3, options.duration) }).catch(() => undefined);
  const result = await load(options);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return print(name, result);
}

function fail(name) {
  return (error) => {
    process.stderr.write(`${name} failed: ${error.message}\n`);
    process.exit(1);
  };
}

module.exports = { ROOT, fail, freePort, load, measure, print, startServers, waitFor };
