/*
 * `npm run bench:http`: GET /healthz through Uplink's full pipeline (the built service, started here as
 * `node dist/main.js`) against a bare Express "hello" server, same autocannon settings for both, each server in
 * its own process. Prints both req/s and the ratio (goal: >= 0.6). Prints figures; never fails on a number.
 *
 * BENCH_CONNECTIONS (default 50), BENCH_DURATION seconds (default 10), DATABASE_URL (optional: else a throw-away
 * embedded PostgreSQL).
 */
const { spawn } = require('node:child_process');
const { chmodSync, mkdtempSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');

const ROOT = resolve(__dirname, '..');
const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_DURATION ?? 10);

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

function load(url) {
  return new Promise((done, fail) => {
    autocannon({ url, connections, duration }, (error, result) => (error ? fail(error) : done(result)));
  });
}

async function measure(name, url) {
  await load(url).catch(() => undefined); // warm-up, not counted
  const result = await load(url);
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const figures = { reqPerSec: Math.round(result.requests.average), p99Ms: result.latency.p99 };
  process.stdout.write(`${name.padEnd(26)} ${String(figures.reqPerSec).padStart(8)} req/s   p99 ${figures.p99Ms} ms\n`);
  return figures;
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'uplink-bench-pg-'));
  chmodSync(dataDir, 0o755); // as root, the embedded cluster runs as `postgres`
  const [uplinkPort, pgPort, helloPort] = [await freePort(), await freePort(), await freePort()];
  const uplink = startProcess([join(ROOT, 'dist', 'main.js')], {
    NODE_ENV: 'production',
    LOG_LEVEL: 'warn',
    METRICS_TOKEN: 'bench-metrics-token-0123456789',
    JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123',
    HOST: '127.0.0.1',
    PORT: String(uplinkPort),
    EMBEDDED_PG_DIR: join(dataDir, 'pg'),
    EMBEDDED_PG_PORT: String(pgPort),
  });
  const hello = startProcess([join(__dirname, 'hello-server.js')], { PORT: String(helloPort) });
  try {
    await waitFor(`http://127.0.0.1:${uplinkPort}/readyz`);
    await waitFor(`http://127.0.0.1:${helloPort}/`);
    process.stdout.write(`autocannon: ${connections} connections, ${duration} s per target (after a warm-up run)\n`);
    const pipeline = await measure('Uplink GET /healthz', `http://127.0.0.1:${uplinkPort}/healthz`);
    const baseline = await measure('bare Express GET /', `http://127.0.0.1:${helloPort}/`);
    const ratio = pipeline.reqPerSec / baseline.reqPerSec;
    process.stdout.write(`ratio ${ratio.toFixed(2)} (goal >= 0.60: ${ratio >= 0.6 ? 'met' : 'NOT met'})\n`);
  } finally {
    await Promise.all([uplink.stop(), hello.stop()]);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`bench:http failed: ${error.message}\n`);
  process.exit(1);
});
