// Shared plumbing of the benchmarks: free ports, child processes, throw-away databases, readiness waits, timings
// and autocannon runs.
const { spawn } = require('node:child_process');
const { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync } = require('node:fs');
const { createServer } = require('node:net');
const { tmpdir } = require('node:os');
const { join, resolve } = require('node:path');
const autocannon = require('autocannon');
const { Client } = require('pg');

const ROOT = resolve(__dirname, '..');
/** The platform admin the benchmarked service bootstraps. */
const ADMIN = { username: 'bench-admin', email: 'bench-admin@example.com', password: 'bench-admin-password-1' };
/**
 * How `npm start` runs the service of the checkout at `root`: the node options of that checkout's own start script
 * (so a baseline revision runs as it shipped), then its dist/main.js.
 */
function serviceArgs(root = ROOT) {
  const start = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).scripts.start;
  return [...(start.match(/ --[^\s]+/g) ?? []).map((option) => option.trim()), join(root, 'dist', 'main.js')];
}
const SERVICE_ARGS = serviceArgs();
const SERVICE_ENV = {
  NODE_ENV: 'production',
  LOG_LEVEL: 'warn',
  METRICS_TOKEN: 'bench-metrics-token-0123456789',
  JWT_SECRET: 'bench-jwt-secret-0123456789abcdef0123',
  CURSOR_SECRET: 'bench-cursor-secret-0123456789abcdef01',
  HOST: '127.0.0.1',
};

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

function startProcess(args, env, cwd = ROOT) {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((done) => child.on('exit', done));
  return { pid: child.pid, stop: () => (child.kill('SIGTERM'), exited) };
}

/** A throw-away database named after `label`: on DATABASE_URL's server, or on an embedded cluster in a temp folder. */
async function throwAwayDatabase(label) {
  const name = `uplink_bench_${label}_${process.pid}`;
  if (process.env.DATABASE_URL) {
    const admin = new Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    return {
      url: url.toString(),
      drop: async () => {
        if (process.env.BENCH_KEEP_DATABASE === '1') return void process.stderr.write(`kept database ${name}\n`);
        const client = new Client({ connectionString: process.env.DATABASE_URL });
        await client.connect();
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
        await client.end();
      },
    };
  }
  const { EmbeddedPostgresServer } = require(join(ROOT, 'dist', 'database', 'embedded-postgres.js'));
  const dir = mkdtempSync(join(tmpdir(), `uplink-bench-${label}-`));
  chmodSync(dir, 0o755); // as root, the embedded cluster runs as `postgres`
  const server = await EmbeddedPostgresServer.start({ dataDir: join(dir, 'pg'), port: await freePort(), database: name });
  return {
    url: server.url(name),
    drop: async () => {
      await server.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The built service on `databaseUrl` (which it migrates), with ADMIN bootstrapped and the rate limit lifted; `env`
 * adds to its environment, `nodeArgs` to node's options (e.g. --cpu-prof); `root` is the checkout whose build runs
 * (this one by default; bench:ingest's baseline mode runs another revision's).
 */
async function startService(databaseUrl, { env = {}, nodeArgs = [], root = ROOT } = {}) {
  const port = await freePort();
  const child = startProcess([...nodeArgs, ...serviceArgs(root)], {
    ...SERVICE_ENV,
    PORT: String(port),
    DATABASE_URL: databaseUrl,
    RATE_LIMIT_PER_MINUTE: '1000000',
    PLATFORM_ADMIN_USERNAME: ADMIN.username,
    PLATFORM_ADMIN_EMAIL: ADMIN.email,
    PLATFORM_ADMIN_PASSWORD: ADMIN.password,
    PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED: 'false',
    ...env,
  }, root);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/readyz`);
  return { ...child, url };
}

/** A server script of this folder in its own process on a free port (PORT), once `readyPath` answers 200. */
async function startBenchServer(script, { env = {}, readyPath = '/' } = {}) {
  const port = await freePort();
  const child = startProcess([join(__dirname, script)], { PORT: String(port), ...env });
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}${readyPath}`);
  return { ...child, url };
}

/** The bare Express "hello" server every throughput figure is compared with. */
async function startHello() {
  const server = await startBenchServer('hello-server.js');
  return { ...server, url: `${server.url}/` };
}

/** The hand-written Express + pg peer of GET /v1/devices/{id}/current-values (bench/current-values-peer.js). */
function startPeer(databaseUrl) {
  return startBenchServer('current-values-peer.js', { env: { DATABASE_URL: databaseUrl, JWT_SECRET: SERVICE_ENV.JWT_SECRET }, readyPath: '/readyz' });
}

async function timed(fn) {
  const started = process.hrtime.bigint();
  await fn();
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Median of `runs` timed calls of `fn` (milliseconds), after one warm-up call. */
async function p50(fn, runs) {
  await fn();
  const samples = [];
  for (let run = 0; run < runs; run++) samples.push(await timed(fn));
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
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
  const uplink = startProcess(SERVICE_ARGS, {
    ...SERVICE_ENV,
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

/** EXPLAIN ANALYZE of a statement, and what the benchmarks report of it. */
async function explainPlan(db, sql, params) {
  const { rows } = await db.query(`EXPLAIN (ANALYZE, BUFFERS, COSTS OFF) ${sql}`, params);
  const plan = rows.map((row) => row['QUERY PLAN']);
  return {
    plan,
    indexes: [...new Set(plan.join('\n').match(/(?:Index|Index Only) Scan(?: Backward)? using \w+/g) ?? [])],
    seqScans: plan.filter((line) => line.includes('Seq Scan')),
    sorted: plan.some((line) => /\bSort\b/.test(line)),
    time: plan.find((line) => line.startsWith('Execution Time')) ?? '',
    heapFetches: plan.find((line) => line.includes('Heap Fetches'))?.trim(),
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

/** The `p`-quantile (0..1) of latency samples in ms. */
function percentile(samples, p) {
  const sorted = Float64Array.from(samples).sort();
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))];
}

/** Runs `call` (async) from `inFlight` concurrent loops until `ms` have passed: calls, elapsed ms and every call's latency. */
async function measureInProcess(call, inFlight, ms) {
  const latencies = [];
  let calls = 0;
  const started = performance.now();
  const deadline = started + ms;
  async function worker() {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      await call();
      latencies.push(performance.now() - t0);
      calls += 1;
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { calls, elapsed: performance.now() - started, latencies };
}

/** The fields of /proc/<pid>/stat after the command name (index 1 is the parent pid), or null. */
function procStat(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /, '').split(' ');
  } catch {
    return null;
  }
}

/** The postmaster of `db`'s server (the parent of its backend) when it runs on this machine, else 0. */
async function postmasterOf(db) {
  const {
    rows: [{ pid }],
  } = await db.query(`SELECT pg_backend_pid() AS pid`);
  return Number(procStat(pid)?.[1]) || 0;
}

/**
 * CPU seconds used so far by each of the named pids (`{ name: pid }`; `{ name: { pid, children: true } }` adds its
 * child processes, such as the service's sandbox host), and as `postgres` by the processes of the PostgreSQL
 * cluster whose postmaster is `postmaster` (0: not measured).
 */
function cpuSeconds(pids, postmaster) {
  const ticks = (fields) => (fields ? Number(fields[11]) + Number(fields[12]) : 0);
  // Every process is read only when a tree is asked for: a single pid is one read of its own stat.
  let processes = null;
  const tree = (root) => {
    processes ??= readdirSync('/proc')
      .filter((name) => /^\d+$/.test(name))
      .map((name) => ({ pid: Number(name), fields: procStat(name) }))
      .filter((entry) => entry.fields !== null);
    return processes.filter((entry) => entry.pid === root || Number(entry.fields[1]) === root).reduce((sum, entry) => sum + ticks(entry.fields), 0);
  };
  const result = { postgres: postmaster ? tree(postmaster) / 100 : 0 };
  for (const [name, target] of Object.entries(pids)) {
    result[name] = (typeof target === 'object' && target.children ? tree(target.pid) : ticks(procStat(typeof target === 'object' ? target.pid : target))) / 100;
  }
  return result;
}

/**
 * CPU ticks (1/100 s) so far of each process of the PostgreSQL cluster whose postmaster is `postmaster` that works
 * for `db`'s database (its backends, but not `db`'s own) or for the whole cluster (WAL writer, checkpointer, background writer): other
 * databases' backends on a shared server are left out. A map pid -> ticks; see `databaseCpuSeconds`.
 */
async function databaseTicks(db, postmaster) {
  if (!postmaster) return new Map();
  // Not this benchmark's own connection: its polls are the load generator's work, not the service's.
  const { rows } = await db.query(
    `SELECT pid FROM pg_stat_activity WHERE (datname = current_database() OR datname IS NULL) AND pid <> pg_backend_pid()`,
  );
  const ticks = new Map();
  for (const { pid } of rows) {
    const fields = procStat(pid);
    if (fields && Number(fields[1]) === postmaster) ticks.set(pid, Number(fields[11]) + Number(fields[12]));
  }
  return ticks;
}

/** CPU seconds between two `databaseTicks` readings: processes started meanwhile count whole, ones gone are not counted. */
function databaseCpuSeconds(before, after) {
  let ticks = 0;
  for (const [pid, now] of after) ticks += now - (before.get(pid) ?? 0);
  return ticks / 100;
}

/** CPU seconds so far of a pg `client`'s backend (from /proc: the server must run on this machine). */
function backendCpuSeconds(client) {
  return cpuSeconds({ backend: client.processID }, 0).backend;
}

function fail(name) {
  return (error) => {
    process.stderr.write(`${name} failed: ${error.message}\n`);
    process.exit(1);
  };
}

module.exports = {
  ADMIN,
  ROOT,
  backendCpuSeconds,
  cpuSeconds,
  databaseCpuSeconds,
  databaseTicks,
  explainPlan,
  fail,
  freePort,
  load,
  measure,
  measureInProcess,
  p50,
  percentile,
  postmasterOf,
  print,
  startBenchServer,
  startHello,
  startPeer,
  startProcess,
  startServers,
  startService,
  throwAwayDatabase,
  timed,
  waitFor,
};
