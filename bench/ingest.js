/*
 * `npm run bench:ingest`: the ingestion pipeline end to end, on a throw-away database (DATABASE_URL's server, else an
 * embedded PostgreSQL). Set-up: a tenant, a device type with four number fields (current + time series), a tenant
 * custom block whose released version is a TTN-style `decodeUplink` codec (8 bytes -> four values), a flow whose
 * active version is that decoder -> map-field -> both outputs, 1,000 devices and a tenant ingestion credential.
 * Then, for one service process and for two on the same database (the connections split between them), distinct
 * ChirpStack v4 `up` webhooks of the 1,000 devices from BENCH_CONNECTIONS (50) keep-alive connections for
 * BENCH_DURATION (20) seconds, after a warm-up. Prints, per run: acknowledged uplinks/s, ack p50/p99, processed
 * uplinks/s from the first ack until the backlog is 0, the lag when sending stops (backlog, oldest pending age), the
 * rows verified (202s = raw rows stored = processed = succeeded executions; measurement rows = 4 per uplink), the same
 * machine's plain batched INSERT rows/s just before (500-row multi-row INSERTs of a raw-message-shaped row from
 * BENCH_PLAIN_CONNECTIONS (4) connections, each committed) and the ratio, and where the CPU went (service
 * processes, PostgreSQL, this load generator) per 1,000 uplinks. Then the two halves apart: the ack path alone (a
 * service with PROCESSING_ENABLED=false builds a backlog for BENCH_DURATION seconds while the processing services
 * are paused) and the pipeline alone (one, then two processing processes resumed on that backlog: processed/s until
 * it is empty), with the EXPLAIN ANALYZE of a claim on that backlog (BENCH_EXPLAIN=1 prints the plan);
 * BENCH_PARTS=e2e or BENCH_PARTS=halves runs one part only. BENCH_PROFILE=1 runs the services under
 * `node --cpu-prof` and prints where each run's service CPU went (self time by module and function); BENCH_PROFILE_DIR
 * keeps the .cpuprofile files there.
 * BENCH_BASELINE=<git revision> compares: that revision is exported (`git archive`) into a temp folder named after
 * its commit, linked to this node_modules and built (kept for the next run), gets its own throw-away database and
 * seed, and every run above is made for it and for the working tree alternately (BENCH_ROUNDS rounds, 2 by default
 * then, the order swapped each round); a last table prints both sides' means and the ratios the goals are set on.
 * PostgreSQL CPU counts the backends of the side's own database and the cluster's shared processes (WAL writer,
 * checkpointer), not other databases' backends on a shared server nor this benchmark's own connection (its backlog polls).
 * In the sliced comparison the ack path's slices also load a bare node:http server (bench/bare-ack-server.js: the body
 * read, parsed as JSON and answered 202, no database, no framework), the floor any Node intake pays per request,
 * printed next to the goal's budget (a third of the baseline's CPU per uplink end to end), and a durable floor
 * (bench/durable-ack-server.js: the same bare intake, each 202 after the service's own group-commit writer has stored the
 * raw row in the working tree's database), printed with the working tree's pipeline PostgreSQL CPU as the share of
 * that budget its rows cost before any of the service's own work; BENCH_FLOOR=0 leaves both out.
 * BENCH_NODE_ARGS adds node options to the working tree's services only: with BENCH_BASELINE=HEAD it measures one
 * option against none, side by side.
 * Prints figures; never fails on a number.
 */
const { randomBytes, randomUUID } = require('node:crypto');
const { execFileSync, execSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync, symlinkSync } = require('node:fs');
const http = require('node:http');
const { loadavg, tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { summarize } = require('./cpu-profile');
const { ADMIN, ROOT, cpuSeconds, databaseCpuSeconds, databaseTicks, explainPlan, fail, percentile, postmasterOf, startBenchServer, startService, throwAwayDatabase } = require('./support');

const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const DURATION = Number(process.env.BENCH_DURATION ?? 20);
const WARM_UP = Number(process.env.BENCH_WARM_UP ?? 3);
const PLAIN_CONNECTIONS = Number(process.env.BENCH_PLAIN_CONNECTIONS ?? 4);
const PLAIN_SECONDS = Number(process.env.BENCH_PLAIN_SECONDS ?? 5);
const PROFILE = process.env.BENCH_PROFILE === '1';
/** Where the profiles go (kept); else a temp folder, removed. */
const PROFILE_DIR = process.env.BENCH_PROFILE_DIR;
const SERVICE_ENV = JSON.parse(process.env.BENCH_SERVICE_ENV ?? '{}');
/** Extra node options of the working tree's services only (with BENCH_BASELINE=HEAD: one flag against none, side by side). */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** A git revision to compare with (built from a second checkout, run alternately with the working tree). */
const BASELINE = process.env.BENCH_BASELINE;
/** Runs of each figure per side; alternating order. */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? (BASELINE ? 2 : 1));
const PARTS = new Set((process.env.BENCH_PARTS ?? (BASELINE ? 'slices,e2e,halves' : 'e2e,halves')).split(',').map((part) => part.trim()));
/** The sliced comparison: BENCH_SLICES slices of BENCH_SLICE_SECONDS per side, alternating. */
const SLICES = Number(process.env.BENCH_SLICES ?? 12);
const SLICE_SECONDS = Number(process.env.BENCH_SLICE_SECONDS ?? 2);
/** The ack path's slices include the bare node:http floors (bench/bare-ack-server.js, bench/durable-ack-server.js) unless BENCH_FLOOR=0. */
const FLOOR = process.env.BENCH_FLOOR !== '0';
const FLOOR_MODE = 'bare node:http: body read, JSON.parse, 202; no database';
const DURABLE_FLOOR_MODE = "bare node:http, each 202 after the service's own group commit of the raw row; no framework, no checks";
const DEVICES = 1000;
const FIELDS = ['temperature', 'humidity', 'pressure', 'battery'];
const GOALS = { processedPerSecond: 6000, ackP99Ms: 50, plainRatio: 0.15 };
const log = (line = '') => process.stdout.write(`${line}\n`);
const fmt = (n, digits = 0) => n.toLocaleString('en', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const now = () => performance.now();
/** µs of the monotonic clock, as in V8 CPU profiles. */
const monotonic = () => Number(process.hrtime.bigint() / 1000n);
const sleep = (ms) => new Promise((done) => setTimeout(done, ms));

/** A TTN v3 payload formatter as vendors ship them: fPort switch, signed and scaled big-endian values. */
const CODEC = `// Environment sensor, fPort 1: temperature (int16, 0.01 C), humidity (uint16, 0.1 %), pressure (uint16, 0.1 hPa),
// battery (uint16, mV).
function decodeUplink(input) {
  var bytes = input.bytes;
  switch (input.fPort) {
    case 1:
      if (bytes.length < 8) return { errors: ['payload too short: ' + bytes.length + ' bytes'] };
      var raw = (bytes[0] << 8) | bytes[1];
      if (raw & 0x8000) raw -= 0x10000;
      var battery = ((bytes[6] << 8) | bytes[7]) / 1000;
      return {
        data: {
          temperature: raw / 100,
          humidity: ((bytes[2] << 8) | bytes[3]) / 10,
          pressure: ((bytes[4] << 8) | bytes[5]) / 10,
          battery: battery,
        },
        warnings: battery < 2.5 ? ['battery low'] : [],
      };
    default:
      return { errors: ['unknown FPort ' + input.fPort] };
  }
}
`;

/** The 8-byte frame of message `n`: the values wander so that no two consecutive uplinks look alike. */
function frame(n) {
  const bytes = Buffer.alloc(8);
  bytes.writeInt16BE(-500 + (n % 3500), 0);
  bytes.writeUInt16BE(300 + (n % 600), 2);
  bytes.writeUInt16BE(9800 + (n % 500), 4);
  bytes.writeUInt16BE(2700 + (n % 900), 6);
  return bytes.toString('base64');
}

const devEuiOf = (index) => `a840410000${index.toString(16).padStart(6, '0')}`;

/**
 * ChirpStack v4 HTTP integration `up` bodies (JSON encoding) as ChirpStack posts them: camelCase, lowercase EUIs,
 * nanosecond times with `+00:00`, a fresh deduplicationId each. `time` grows per device, so every uplink of a device
 * has its own observedAt.
 */
function uplinks() {
  const lastTime = new Float64Array(DEVICES);
  const fCnt = new Uint32Array(DEVICES);
  const run = randomBytes(4).toString('hex');
  let n = 0;
  return () => {
    const device = n % DEVICES;
    const at = Math.max(Date.now(), lastTime[device] + 1);
    lastTime[device] = at;
    const devEui = devEuiOf(device);
    const body = JSON.stringify({
      deduplicationId: `${run.slice(0, 8)}-${(n >>> 16).toString(16).padStart(4, '0')}-4${(n & 0xfff).toString(16).padStart(3, '0')}-8b4d-${randomBytes(6).toString('hex')}`,
      time: `${new Date(at).toISOString().slice(0, -1)}${String(n % 1_000_000).padStart(6, '0')}+00:00`,
      deviceInfo: {
        tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
        tenantName: 'ChirpStack',
        applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
        applicationName: 'Environment sensors',
        deviceProfileId: '14855bf7-d10d-4aee-b618-ebfcb64dc7ad',
        deviceProfileName: 'Environment sensor EU868',
        deviceName: `env-${device}`,
        devEui,
        deviceClassEnabled: 'CLASS_A',
        tags: {},
      },
      devAddr: `0018${(0x9440 + device).toString(16).padStart(4, '0')}`,
      adr: true,
      dr: 5,
      fCnt: fCnt[device]++,
      fPort: 1,
      data: frame(n),
      rxInfo: [
        {
          gatewayId: '0016c001f153a14c',
          uplinkId: (n * 2654435761) >>> 0,
          rssi: -36 - (n % 60),
          snr: 10.5 - (n % 20) / 2,
          location: {},
          context: 'E3OWOQ==',
          metadata: { region_config_id: 'eu868', region_common_name: 'EU868' },
          crcStatus: 'CRC_OK',
        },
      ],
      txInfo: { frequency: 867100000 + (n % 8) * 200000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
    });
    n += 1;
    return body;
  };
}

/** A JSON API client of the service signed in as the platform admin. */
async function apiOf(url) {
  const call = async (method, path, body, headers = {}) => {
    const res = await fetch(`${url}${path}`, {
      method,
      headers: { 'Content-Type': 'application/json', ...(call.token ? { Authorization: `Bearer ${call.token}` } : {}), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${text.slice(0, 500)}`);
    return { body: text ? JSON.parse(text) : null, etag: res.headers.get('etag') };
  };
  call.token = (await call('POST', '/v1/auth/login', { identifier: ADMIN.username, password: ADMIN.password })).body.accessToken;
  return call;
}

/** The catalog by SQL (tenant, device type, fields, devices), the block, flow and credential through the API. */
async function seed(db, api) {
  const {
    rows: [tenant],
  } = await db.query(`INSERT INTO tenants (key, name) VALUES ('bench', 'Bench') RETURNING tenant_id, tenant_number`);
  await db.query(`INSERT INTO action_kill_switches (tenant_id) VALUES ($1)`, [tenant.tenant_id]);
  const {
    rows: [type],
  } = await db.query(`INSERT INTO device_types (tenant_id, key, name) VALUES ($1, 'env-sensor', 'Environment sensor') RETURNING device_type_id`, [tenant.tenant_id]);
  await db.query(
    `INSERT INTO device_field_definitions (tenant_id, device_type_id, key, name, schema_ref, storage_targets, measurement_type)
     SELECT $1, $2, key, initcap(key), 'platform://schemas/number/v1', '{current,timeseries}', 'gauge' FROM unnest($3::text[]) key`,
    [tenant.tenant_id, type.device_type_id, FIELDS],
  );
  await db.query(
    `INSERT INTO devices (tenant_id, device_type_id, dev_eui, name)
     SELECT $1, $2, upper(e), 'Sensor ' || e FROM unnest($3::text[]) e`,
    [tenant.tenant_id, type.device_type_id, Array.from({ length: DEVICES }, (_, i) => devEuiOf(i))],
  );

  const block = (await api('POST', `/v1/tenants/${tenant.tenant_number}/flow-blocks`, { key: 'env-sensor-ttn', name: 'Environment sensor (TTN codec)' })).body;
  const version = (
    await api('POST', `/v1/flow-blocks/${block.flowBlockId}/versions`, {
      sourceCode: CODEC,
      sampleInput: { payload: frame(1234), input: { connectionData: { fPort: 1 } } },
      notes: 'vendor formatter v1.0',
    })
  ).body;
  await api('POST', `/v1/flow-blocks/${block.flowBlockId}/versions/${version.flowBlockVersionId}/release`);

  const outputFields = FIELDS.map((fieldKey) => ({ fieldKey, schemaRef: 'platform://schemas/number/v1' }));
  const node = (kind, nodeId, blockRef, configuration, x) => ({ kind, nodeId, block: blockRef, name: nodeId, configuration, position: { x, y: 0 } });
  const graph = {
    schemaVersion: 'flow-graph.v2',
    deviceTypeId: type.device_type_id,
    nodes: [
      node('block', 'decode', { type: 'custom', flowBlockVersionId: version.flowBlockVersionId }, {}, 0),
      node('block', 'fields', { type: 'builtin', key: 'map-field', version: 1 }, { mappings: FIELDS.map((key) => ({ source: `payload.${key}`, fieldKey: key })) }, 200),
      node('current-output', 'current', null, { fields: outputFields }, 400),
      node('timeseries-output', 'history', null, { fields: outputFields }, 400),
    ],
    edges: [
      { fromNodeId: 'decode', toNodeId: 'fields' },
      { fromNodeId: 'fields', toNodeId: 'current' },
      { fromNodeId: 'fields', toNodeId: 'history' },
    ],
  };
  const flow = await api('POST', `/v1/device-types/${type.device_type_id}/flow`, { key: 'env-sensor', name: 'Environment sensor' });
  const flowVersion = (await api('POST', `/v1/flows/${flow.body.flowId}/versions`, { graph })).body;
  await api('POST', `/v1/flows/${flow.body.flowId}/versions/${flowVersion.flowVersionId}/release`);
  await api('POST', `/v1/flows/${flow.body.flowId}/activate`, { flowVersionId: flowVersion.flowVersionId }, { 'If-Match': flow.etag });
  return { tenantId: tenant.tenant_id, tenantNumber: tenant.tenant_number, deviceTypeId: type.device_type_id };
}

/** Bench credentials a side keeps active at most (a tenant holds at most 10); the oldest are revoked first. */
const ACTIVE_CREDENTIALS = 6;

/**
 * A new tenant ingestion credential of the side's tenant. Each run uses its own; the runs before it have ended, so the
 * oldest beyond ACTIVE_CREDENTIALS are revoked first.
 */
async function credential(side, api, name) {
  while (side.credentials.length >= ACTIVE_CREDENTIALS) {
    const oldest = side.credentials.shift();
    const { etag } = await api('GET', `/v1/ingestion-credentials/${oldest}`);
    await api('POST', `/v1/ingestion-credentials/${oldest}/revoke`, undefined, { 'If-Match': etag });
  }
  const { body } = await api('POST', `/v1/tenants/${side.tenantNumber}/ingestion-credentials`, { name });
  side.credentials.push(body.ingestionCredentialId);
  return { id: body.ingestionCredentialId, token: body.token };
}

/** POSTs bodies to one service over `connections` keep-alive sockets. */
function poster(serviceUrl, token, connections) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const { hostname, port } = new URL(serviceUrl);
  const authorization = `Bearer ${token}`;
  return {
    connections,
    close: () => agent.destroy(),
    post: (body) =>
      new Promise((done) => {
        const req = http.request(
          {
            agent,
            hostname,
            port,
            method: 'POST',
            path: '/v1/ingestion/chirpstack?event=up',
            headers: { authorization, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
          },
          (res) => {
            res.resume();
            res.on('end', () => done(res.statusCode));
            res.on('error', () => done(0));
          },
        );
        req.on('error', () => done(0));
        req.end(body);
      }),
  };
}

/** Sends from every connection of `posters` until `seconds` have passed; waits for the requests in flight. */
async function send(posters, next, seconds) {
  const latencies = [];
  const statuses = new Map();
  let firstAck = null;
  const started = now();
  const deadline = started + seconds * 1000;
  const loop = async (target) => {
    while (now() < deadline) {
      const t0 = now();
      const status = await target.post(next());
      const t1 = now();
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      if (status === 202) {
        latencies.push(t1 - t0);
        if (firstAck === null) firstAck = t1;
      }
    }
  };
  await Promise.all(posters.flatMap((target) => Array.from({ length: target.connections }, () => loop(target))));
  return { started, ended: now(), firstAck, latencies, statuses, acked: statuses.get(202) ?? 0 };
}

/** Statements this benchmark sent (each its own transaction), left out of the database work it reports. */
const benchStatements = new WeakMap();

/** Whether the side's schema keeps pending messages in a queue table (per client). */
const queued = new WeakMap();

async function backlog(db) {
  if (!queued.has(db)) queued.set(db, (await db.query(`SELECT to_regclass('raw_message_queue') IS NOT NULL AS q`)).rows[0].q);
  benchStatements.set(db, (benchStatements.get(db) ?? 0) + 1);
  // Pending messages: the queue's entries where there is one, else the raw rows of that status (a partial index).
  const {
    rows: [row],
  } = await db.query(
    queued.get(db)
      ? `SELECT count(*)::int AS pending,
                coalesce(extract(epoch FROM clock_timestamp() - (SELECT r.received_at FROM raw_message_queue q
                   JOIN raw_ingestion_messages r ON r.raw_ingestion_message_id = q.raw_ingestion_message_id
                  ORDER BY q.receipt_seq LIMIT 1)), 0)::float8 AS oldest
           FROM raw_message_queue`
      : `SELECT count(*)::int AS pending, coalesce(extract(epoch FROM clock_timestamp() - min(received_at)), 0)::float8 AS oldest
           FROM raw_ingestion_messages WHERE processing_status = 'pending'`,
  );
  return row;
}

/** Polls the pending count every `everyMs` until it is 0: the time it reached 0 (performance.now()). */
async function drained(db, everyMs = 50, timeoutMs = 600_000) {
  const deadline = now() + timeoutMs;
  for (;;) {
    const { pending } = await backlog(db);
    if (pending === 0) return now();
    if (now() > deadline) throw new Error(`${pending} raw messages still pending after ${timeoutMs / 1000} s`);
    await sleep(everyMs);
  }
}

/**
 * The same machine's plain batched INSERT: rows shaped like a raw message (same columns and sizes, primary key
 * only), 500 per multi-row INSERT, each INSERT its own committed transaction, from `connections` clients at once.
 */
async function plainInsertRate(url, sampleBody, seconds, connections) {
  const COLUMNS = 18;
  const ROWS = 500;
  const setup = new Client({ connectionString: url });
  await setup.connect();
  await setup.query(`DROP TABLE IF EXISTS bench_plain_raw`);
  await setup.query(`CREATE TABLE bench_plain_raw (
      id uuid PRIMARY KEY, received_at timestamptz(3) NOT NULL, source varchar(16) NOT NULL, event varchar(32) NOT NULL,
      credential_id uuid, tenant_id uuid, dedup_scope varchar(64), dedup_key varchar(300), dev_eui char(16), observed_at timestamptz(3),
      raw_payload jsonb, connection_data jsonb, correlation_id varchar(128), content_type varchar(200) NOT NULL, body bytea NOT NULL,
      size_bytes integer NOT NULL, processing_status varchar(16) NOT NULL, processing_reason varchar(64))`);
  const values = Array.from({ length: ROWS }, (_, r) => `(${Array.from({ length: COLUMNS }, (_, c) => `$${r * COLUMNS + c + 1}`).join(', ')})`).join(', ');
  const sql = `INSERT INTO bench_plain_raw VALUES ${values}`;
  const body = Buffer.from(sampleBody);
  const connectionData = JSON.stringify({ networkServer: 'chirpstack', ...JSON.parse(sampleBody) });
  const clients = await Promise.all(
    Array.from({ length: connections }, async () => {
      const client = new Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  let rows = 0;
  const run = async (client, until) => {
    while (now() < until) {
      const params = [];
      const at = new Date().toISOString();
      for (let r = 0; r < ROWS; r++) {
        params.push(randomUUID(), at, 'chirpstack', 'up', null, null, 'platform', randomUUID(), 'A840410000000001', at);
        params.push('{"encoding":"base64","data":"AQIDBAUGBwg="}', connectionData, randomUUID(), 'application/json', body, body.length, 'pending', null);
      }
      await client.query(sql, params);
      rows += ROWS;
    }
  };
  await Promise.all(clients.map((client) => run(client, now() + 1000))); // warm-up
  rows = 0;
  const started = now();
  await Promise.all(clients.map((client) => run(client, started + seconds * 1000)));
  const rate = rows / ((now() - started) / 1000);
  await Promise.all(clients.map((client) => client.end()));
  await setup.query(`DROP TABLE bench_plain_raw`);
  await setup.end();
  return rate;
}

/**
 * The database's transactions and row changes so far (pg_stat_database; the statistics of a backend reach it
 * within a second of its transaction, so read it after a pause).
 */
async function databaseWork(db) {
  await sleep(1100);
  benchStatements.set(db, (benchStatements.get(db) ?? 0) + 1);
  const {
    rows: [row],
  } = await db.query(
    `SELECT xact_commit + xact_rollback AS transactions, tup_inserted + tup_updated + tup_deleted AS changes
       FROM pg_stat_database WHERE datname = current_database()`,
  );
  return { transactions: Number(row.transactions) - (benchStatements.get(db) ?? 0), changes: Number(row.changes) };
}

const workPer = (before, after, n) => ({ transactions: (after.transactions - before.transactions) / n, changes: (after.changes - before.changes) / n });

/** What the run's credential left in the database. */
async function verify(db, credentialId, since) {
  const count = async (sql) => Number((await db.query(sql, [credentialId])).rows[0].n);
  const stored = await count(`SELECT count(*) AS n FROM raw_ingestion_messages WHERE credential_id = $1`);
  const { rows: statuses } = await db.query(
    `SELECT processing_status AS status, processing_reason AS reason, count(*)::int AS n FROM raw_ingestion_messages WHERE credential_id = $1 GROUP BY 1, 2`,
    [credentialId],
  );
  const processed = statuses.find((row) => row.status === 'processed')?.n ?? 0;
  const { rows: executions } = await db.query(
    `SELECT e.status, count(*)::int AS n, count(DISTINCT e.raw_ingestion_message_id)::int AS messages
       FROM flow_executions e JOIN raw_ingestion_messages r ON r.raw_ingestion_message_id = e.raw_ingestion_message_id
      WHERE r.credential_id = $1 GROUP BY 1`,
    [credentialId],
  );
  const succeeded = executions.find((row) => row.status === 'succeeded')?.n ?? 0;
  const executionRows = executions.reduce((sum, row) => sum + row.n, 0);
  const executedMessages = executions.reduce((sum, row) => sum + row.messages, 0);
  const { rows: failures } = await db.query(
    `SELECT e.status, e.error->>'code' AS code, left(e.error->>'message', 160) AS message, count(*)::int AS n
       FROM flow_executions e JOIN raw_ingestion_messages r ON r.raw_ingestion_message_id = e.raw_ingestion_message_id
      WHERE r.credential_id = $1 AND e.status <> 'succeeded' GROUP BY 1, 2, 3 ORDER BY 4 DESC LIMIT 5`,
    [credentialId],
  );
  const {
    rows: [measured],
  } = await db.query(`SELECT count(*)::int AS n FROM measurements WHERE raw_received_at >= $1`, [since]);
  return { stored, statuses, processed, succeeded, executionRows, executedMessages, failures, measurements: measured.n };
}

/** One measured run against `services` (the connections split between them). */
async function scenario(label, side, services) {
  const { db, api, postmaster } = side;
  const next = uplinks();
  const split = (token) => services.map((service, index) => poster(service.url, token, Math.floor(CONNECTIONS / services.length) + (index < CONNECTIONS % services.length ? 1 : 0)));

  // Warm-up (plans compiled, sandbox contexts created, JIT), on its own credential, then an empty backlog.
  const warm = await credential(side, api, `bench warm-up ${label}`);
  const warmPosters = split(warm.token);
  await send(warmPosters, next, WARM_UP);
  warmPosters.forEach((target) => target.close());
  await drained(db, 100);

  const plain = await plainInsertRate(side.url, next(), PLAIN_SECONDS, PLAIN_CONNECTIONS);
  const load = loadavg().map((n) => n.toFixed(2)).join(' ');
  const run = await credential(side, api, `bench ${label}`);
  const posters = split(run.token);
  const pids = Object.fromEntries([...services.map((service, index) => [`service${index}`, { pid: service.pid, children: true }]), ['bench', process.pid]]);
  const workBefore = await databaseWork(db);
  const cpuBefore = cpuSeconds(pids, 0);
  const pgBefore = await databaseTicks(db, postmaster);
  const since = new Date();
  const window = { from: monotonic(), to: 0 };
  const monitor = { stop: false, maxPending: 0 };
  const watching = (async () => {
    while (!monitor.stop) {
      monitor.maxPending = Math.max(monitor.maxPending, (await backlog(db)).pending);
      await sleep(1000);
    }
  })();
  const sent = await send(posters, next, DURATION);
  const atEnd = await backlog(db);
  monitor.stop = true;
  await watching;
  const drainedAt = await drained(db);
  window.to = monotonic();
  const cpuAfter = { ...cpuSeconds(pids, 0), postgres: databaseCpuSeconds(pgBefore, await databaseTicks(db, postmaster)) };
  cpuBefore.postgres = 0;
  posters.forEach((target) => target.close());
  const work = workPer(workBefore, await databaseWork(db), sent.acked);
  const checked = await verify(db, run.id, since);

  const sendSeconds = (sent.ended - sent.started) / 1000;
  const processSeconds = (drainedAt - sent.firstAck) / 1000;
  const cpu = (key) => cpuAfter[key] - cpuBefore[key];
  const serviceCpu = services.reduce((sum, _, index) => sum + cpu(`service${index}`), 0);
  const perThousand = (seconds) => (seconds / sent.acked) * 1000;
  const figures = {
    label,
    load,
    acked: sent.acked,
    ackPerSecond: sent.acked / sendSeconds,
    p50: percentile(sent.latencies, 0.5),
    p99: percentile(sent.latencies, 0.99),
    processedPerSecond: checked.processed / processSeconds,
    backlogAtEnd: atEnd.pending,
    maxPending: monitor.maxPending,
    oldestAtEnd: atEnd.oldest,
    drainSeconds: (drainedAt - sent.ended) / 1000,
    // Acknowledged but not stored, or stored but never processed (still pending): lost. A failed execution is
    // processed (and printed with its reason), not lost.
    lost: sent.acked - Math.min(sent.acked, checked.stored) + (checked.statuses.find((row) => row.status === 'pending')?.n ?? 0),
    failed: checked.executionRows - checked.succeeded,
    plain,
    ratio: checked.processed / processSeconds / plain,
    cpu: { service: perThousand(serviceCpu), postgres: perThousand(cpu('postgres')), bench: perThousand(cpu('bench')) },
    work,
    busy: { service: serviceCpu / processSeconds, postgres: cpu('postgres') / processSeconds, bench: cpu('bench') / processSeconds },
    window,
  };
  const others = [...sent.statuses].filter(([status]) => status !== 202).map(([status, n]) => `${n} x ${status || 'connection error'}`);
  const notProcessed = checked.statuses.filter((row) => row.status !== 'processed').map((row) => `${row.n} ${row.status}/${row.reason}`);
  const met = (ok) => (ok ? 'met' : 'NOT met');

  log(`${label}: ${CONNECTIONS} connections, ${DURATION} s, load average ${load}`);
  log(`  acknowledged        ${fmt(sent.acked)} in ${sendSeconds.toFixed(1)} s = ${fmt(figures.ackPerSecond)}/s; ack p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms${others.length ? `; also ${others.join(', ')}` : ''}`);
  log(`  processed           ${fmt(figures.processedPerSecond)}/s end to end (first ack -> backlog 0 in ${processSeconds.toFixed(1)} s); most pending seen ${fmt(monitor.maxPending)}`);
  log(`  lag at end of send  ${fmt(atEnd.pending)} pending, oldest ${atEnd.oldest.toFixed(2)} s; backlog 0 ${figures.drainSeconds.toFixed(2)} s later`);
  log(
    `  rows verified       202s ${fmt(sent.acked)} = stored ${fmt(checked.stored)} = processed ${fmt(checked.processed)} = executions succeeded ${fmt(checked.succeeded)}` +
      ` (${fmt(checked.executionRows)} executions for ${fmt(checked.executedMessages)} messages); measurement rows ${fmt(checked.measurements)} (${(checked.measurements / Math.max(1, sent.acked)).toFixed(2)} per uplink);` +
      ` lost ${figures.lost}${notProcessed.length ? `; not processed: ${notProcessed.join(', ')}` : ''}`,
  );
  for (const failure of checked.failures) log(`  NOT succeeded       ${failure.n} x ${failure.status} ${failure.code}: ${failure.message}`);
  log(`  plain batched INSERT ${fmt(plain)} rows/s (500-row INSERTs, ${PLAIN_CONNECTIONS} connections, just before); processed/plain ${figures.ratio.toFixed(3)}`);
  log(`  database work       ${work.transactions.toFixed(3)} transactions and ${work.changes.toFixed(1)} row changes per uplink (pg_stat_database)`);
  log(
    `  CPU per 1,000 uplinks service ${figures.cpu.service.toFixed(2)} s, PostgreSQL ${figures.cpu.postgres.toFixed(2)} s, load generator ${figures.cpu.bench.toFixed(2)} s` +
      ` (cores busy: ${figures.busy.service.toFixed(2)} / ${figures.busy.postgres.toFixed(2)} / ${figures.busy.bench.toFixed(2)} of 2)`,
  );
  log(
    `  goals               processed >= ${fmt(GOALS.processedPerSecond)}/s ${met(figures.processedPerSecond >= GOALS.processedPerSecond)}; ack p99 < ${GOALS.ackP99Ms} ms ${met(figures.p99 < GOALS.ackP99Ms)};` +
      ` >= ${GOALS.plainRatio} of plain ${met(figures.ratio >= GOALS.plainRatio)};` +
      ` zero lost ${met(figures.lost === 0 && checked.stored === sent.acked && checked.executionRows === checked.processed && checked.executedMessages === checked.processed)}`,
  );
  return figures;
}

/** EXPLAIN ANALYZE of the workers' claim (default batch size) on the backlog, in a transaction rolled back. */
async function explainClaim(db, root) {
  let CLAIM_SQL;
  try {
    ({ CLAIM_SQL } = require(join(root, 'dist', 'modules', 'processing', 'pipeline', 'routing.js')));
  } catch {
    return [];
  }
  if (!CLAIM_SQL) return [];
  const batch = Number(SERVICE_ENV.PROCESSING_BATCH_SIZE ?? 250);
  await db.query('BEGIN');
  try {
    const { plan, indexes, seqScans, time } = await explainPlan(db, CLAIM_SQL, [batch]);
    return [
      `  claim of ${batch} on the backlog: ${time}; ${indexes.join(', ') || 'no index'}${seqScans.length ? `; ${seqScans.length} Seq Scan(s)` : ''}`,
      ...(process.env.BENCH_EXPLAIN === '1' ? plan.map((line) => `    ${line}`) : []),
    ];
  } finally {
    await db.query('ROLLBACK');
  }
}

/**
 * The halves apart. `processes` processing services are started and paused (SIGSTOP); an ingest-only service
 * (processing off) acknowledges for DURATION seconds, leaving a backlog; then the processing services resume
 * (SIGCONT) together and drain it. Start-up is outside both measurements.
 */
async function backlogRun(label, side, processes) {
  const { db, ingestOnly, ingestApi: api, postmaster, start } = side;
  const workers = await Promise.all(Array.from({ length: processes }, () => start()));
  try {
    await drained(db, 100);
    for (const worker of workers) process.kill(worker.pid, 'SIGSTOP');
    const next = uplinks();
    const run = await credential(side, api, `bench ${label}`);
    const posters = [poster(ingestOnly.url, run.token, CONNECTIONS)];
    const ackPids = { ingest: { pid: ingestOnly.pid, children: true } };
    const ackWorkBefore = await databaseWork(db);
    const before = { ...cpuSeconds(ackPids, 0), pg: await databaseTicks(db, postmaster) };
    const ackWindow = { from: monotonic(), to: 0 };
    const sent = await send(posters, next, DURATION);
    ackWindow.to = monotonic();
    const after = { ...cpuSeconds(ackPids, 0), postgres: databaseCpuSeconds(before.pg, await databaseTicks(db, postmaster)) };
    const ackWork = workPer(ackWorkBefore, await databaseWork(db), sent.acked);
    before.postgres = 0;
    posters.forEach((target) => target.close());
    const { pending } = await backlog(db);

    const claimPlan = processes === 1 ? await explainClaim(db, side.root) : [];
    const workerPids = Object.fromEntries(workers.map((worker, index) => [`w${index}`, { pid: worker.pid, children: true }]));
    const pipeWorkBefore = await databaseWork(db);
    const cpuBefore = { ...cpuSeconds(workerPids, 0), pg: await databaseTicks(db, postmaster) };
    const resumed = now();
    const drainWindow = { from: monotonic(), to: 0 };
    for (const worker of workers) process.kill(worker.pid, 'SIGCONT');
    const drainedAt = await drained(db);
    drainWindow.to = monotonic();
    const cpuAfter = { ...cpuSeconds(workerPids, 0), postgres: databaseCpuSeconds(cpuBefore.pg, await databaseTicks(db, postmaster)) };
    cpuBefore.postgres = 0;
    const checked = await verify(db, run.id, new Date());
    const pipeWork = workPer(pipeWorkBefore, await databaseWork(db), Math.max(1, checked.processed));
    const { processed } = checked;
    const serviceCpu = workers.reduce((sum, _, index) => sum + cpuAfter[`w${index}`] - cpuBefore[`w${index}`], 0);
    const figures = {
      label,
      acked: sent.acked,
      ackPerSecond: sent.acked / ((sent.ended - sent.started) / 1000),
      p50: percentile(sent.latencies, 0.5),
      p99: percentile(sent.latencies, 0.99),
      ackCpu: { service: ((after.ingest - before.ingest) / sent.acked) * 1000, postgres: ((after.postgres - before.postgres) / sent.acked) * 1000 },
      backlog: pending,
      processed,
      ackWork,
      pipeWork,
      processedPerSecond: processed / ((drainedAt - resumed) / 1000),
      processCpu: { service: (serviceCpu / processed) * 1000, postgres: ((cpuAfter.postgres - cpuBefore.postgres) / processed) * 1000 },
      windows: [
        { label: `${label}: ack only`, window: ackWindow },
        { label: `${label}: pipeline only`, window: drainWindow },
      ],
    };
    log(`${label}: the ack path alone (processing off), then ${processes} paused processing process${processes > 1 ? 'es' : ''} resumed on the backlog; load average ${loadavg().map((n) => n.toFixed(2)).join(' ')}`);
    log(
      `  ack only            ${fmt(sent.acked)} = ${fmt(figures.ackPerSecond)}/s; p50 ${figures.p50.toFixed(1)} ms, p99 ${figures.p99.toFixed(1)} ms;` +
        ` CPU per 1,000: service ${figures.ackCpu.service.toFixed(2)} s, PostgreSQL ${figures.ackCpu.postgres.toFixed(2)} s;` +
        ` per uplink ${ackWork.transactions.toFixed(3)} transactions, ${ackWork.changes.toFixed(1)} row changes`,
    );
    log(
      `  pipeline only       backlog ${fmt(pending)} -> ${fmt(processed)} processed at ${fmt(figures.processedPerSecond)}/s;` +
        ` CPU per 1,000: service ${figures.processCpu.service.toFixed(2)} s, PostgreSQL ${figures.processCpu.postgres.toFixed(2)} s;` +
        ` per uplink ${pipeWork.transactions.toFixed(3)} transactions, ${pipeWork.changes.toFixed(1)} row changes`,
    );
    for (const line of claimPlan) log(line);
    log(`  rows verified       202s ${fmt(sent.acked)} = stored ${fmt(checked.stored)} = processed ${fmt(processed)} = executions succeeded ${fmt(checked.succeeded)} (${fmt(checked.executionRows)} executions)`);
    for (const failure of checked.failures) log(`  NOT succeeded       ${failure.n} x ${failure.status} ${failure.code}: ${failure.message}`);
    return figures;
  } finally {
    for (const worker of workers) process.kill(worker.pid, 'SIGCONT');
    await Promise.all(workers.map((worker) => worker.stop()));
  }
}

function printProfiles(dir, runs) {
  for (const file of readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'))) {
    for (const run of runs) {
      const summary = summarize(join(dir, file), run.window);
      if (summary.totalMs < 1000) continue;
      log(`profile ${file.slice(0, 40)} during "${run.label}" (self time, ${(summary.totalMs / 1000).toFixed(1)} s busy):`);
      log(`  by module:   ${summary.modules.slice(0, 10).map((row) => `${row.name} ${(row.share * 100).toFixed(1)}%`).join(', ')}`);
      for (const row of summary.functions.slice(0, 15)) log(`    ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.name}`);
    }
  }
}

/**
 * The checkout of `rev` the baseline runs from: `git archive` of that commit into a temp folder named after it, this
 * checkout's node_modules linked in, built with its own nest build. Kept between runs (a second run reuses the build).
 */
function baselineCheckout(rev) {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${rev}^{commit}`], { cwd: ROOT, encoding: 'utf8' }).trim();
  const dir = join(tmpdir(), `uplink-baseline-${sha.slice(0, 12)}`);
  if (existsSync(join(dir, 'dist', 'main.js'))) return { sha, dir };
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  log(`baseline: building ${rev} (${sha.slice(0, 12)}) in ${dir}`);
  execSync(`git archive --format=tar ${sha} | tar -x -C ${JSON.stringify(dir)}`, { cwd: ROOT, stdio: ['ignore', 'ignore', 'inherit'] });
  symlinkSync(realpathSync(join(ROOT, 'node_modules')), join(dir, 'node_modules'));
  execFileSync(process.execPath, [join(ROOT, 'node_modules', '@nestjs', 'cli', 'bin', 'nest.js'), 'build'], { cwd: dir, stdio: ['ignore', 'ignore', 'inherit'] });
  return { sha, dir };
}

/** One side of the comparison: its build, its throw-away database (seeded through its own service) and its services. */
async function prepareSide(name, root, label, profileDir, extraNodeArgs = []) {
  const database = await throwAwayDatabase(label);
  const nodeArgs = [...extraNodeArgs, ...(profileDir ? ['--cpu-prof', `--cpu-prof-dir=${join(profileDir, label)}`] : [])];
  // credentials: the ids of the side's active bench credentials, oldest first (see credential()).
  const side = { name, root, url: database.url, database, services: [], credentials: [], db: new Client({ connectionString: database.url }) };
  side.start = (env = {}) => startService(database.url, { root, env: { LOG_LEVEL: 'warn', ...SERVICE_ENV, ...env }, nodeArgs });
  side.services.push(await side.start()); // migrates the database
  await side.db.connect();
  side.api = await apiOf(side.services[0].url);
  ({ tenantId: side.tenantId, tenantNumber: side.tenantNumber } = await seed(side.db, side.api));
  side.postmaster = await postmasterOf(side.db);
  return side;
}

async function closeSide(side) {
  await side.db.end().catch(() => undefined);
  await Promise.all(side.services.splice(0).map((service) => service.stop()));
  await side.database.drop();
}

const mean = (values) => (values.length === 0 ? NaN : values.reduce((sum, value) => sum + value, 0) / values.length);
const plural = (n, word) => `${n} ${word}${n > 1 ? 'es' : ''}`;

/**
 * The sliced comparison (baseline mode): the load alternates between the two sides every SLICE_SECONDS, SLICES
 * times each, so both see the same machine (a busy minute hits both alike, which whole runs one after the other
 * cannot promise on a shared machine). Per slice: the 202s, the side's CPU (service processes with their sandbox
 * host; its database's PostgreSQL backends) and the change of its backlog, so processed = acknowledged + backlog
 * before - backlog after. First with processing on (one service process: end to end), then on an ingest-only
 * service (the ack path alone) while the processing service is paused (SIGSTOP), so neither its CPU nor its
 * statements fall into the ack path's slices; it resumes and drains the backlog afterwards.
 */
async function slicedComparison(sides) {
  const results = [];
  try {
    await slicedModes(sides, results);
  } finally {
    for (const side of sides) process.kill(side.services[0].pid, 'SIGCONT');
  }
  for (const side of sides) await drained(side.db);
  printSlices(sides, results);
}

/** One loaded server of the slices: a side's service, or a floor (`kind`; the bare one has no side, so no database). */
function slicePart(side, service, token, kind = undefined) {
  return { side, kind, service, posters: [poster(service.url, token, CONNECTIONS)], next: uplinks(), acked: 0, processed: 0, seconds: 0, service_cpu: 0, pg_cpu: 0, latencies: [] };
}

async function slicedModes(sides, results) {
  // The durable floor writes into the working tree's database, as its tenant through a credential of its own (made
  // before the processing service is paused; its rows are processed when that service resumes).
  const tree = sides[sides.length - 1];
  const durableCredential = FLOOR ? await credential(tree, tree.api, 'bench slices durable floor') : null;
  for (const mode of ['end to end, 1 process', 'ack path alone']) {
    const parts = [];
    for (const side of sides) {
      const service = mode === 'ack path alone' ? await side.start({ PROCESSING_ENABLED: 'false' }) : side.services[0];
      // side.api is the processing service's: the credential is made before it is paused.
      const run = await credential(side, side.api, `bench slices ${mode}`);
      if (mode === 'ack path alone') {
        await drained(side.db, 100);
        process.kill(side.services[0].pid, 'SIGSTOP');
      }
      const part = slicePart(side, service, run.token);
      await send(part.posters, part.next, WARM_UP);
      if (mode !== 'ack path alone') await drained(side.db, 100);
      parts.push(part);
    }
    if (mode === 'ack path alone' && FLOOR) {
      // The floor takes its slices among the ack path's: the same load, on the same machine at the same time.
      const service = await startBenchServer('bare-ack-server.js');
      const part = slicePart(null, service, 'floor', 'floor');
      await send(part.posters, part.next, WARM_UP);
      parts.push(part);
      // The durable floor: the same bare intake, each 202 after the service's own group commit of the raw row.
      const durableService = await startBenchServer('durable-ack-server.js', {
        env: { DATABASE_URL: tree.url, TENANT_ID: tree.tenantId, CREDENTIAL_ID: durableCredential.id, DIST: join(tree.root, 'dist') },
      });
      const durablePart = slicePart(tree, durableService, 'floor', 'durable floor');
      await send(durablePart.posters, durablePart.next, WARM_UP);
      parts.push(durablePart);
    }
    for (let slice = 0; slice < SLICES; slice += 1) {
      for (const part of slice % 2 === 0 ? parts : [...parts].reverse()) {
        const pids = { service: { pid: part.service.pid, children: true } };
        // The floor has no database: no backlog and no PostgreSQL CPU to read.
        const { db, postmaster } = part.side ?? { db: null, postmaster: 0 };
        const before = { pending: db ? (await backlog(db)).pending : 0, cpu: cpuSeconds(pids, 0).service, pg: db ? await databaseTicks(db, postmaster) : null };
        const sent = await send(part.posters, part.next, SLICE_SECONDS);
        const pending = db ? (await backlog(db)).pending : 0;
        part.service_cpu += cpuSeconds(pids, 0).service - before.cpu;
        if (db) part.pg_cpu += databaseCpuSeconds(before.pg, await databaseTicks(db, postmaster));
        part.acked += sent.acked;
        part.processed += mode === 'ack path alone' ? 0 : sent.acked + before.pending - pending;
        part.seconds += (sent.ended - sent.started) / 1000;
        part.latencies.push(...sent.latencies);
      }
    }
    for (const part of parts) {
      part.posters.forEach((target) => target.close());
      if (mode === 'ack path alone') await part.service.stop();
      else await drained(part.side.db);
      const count = mode === 'ack path alone' ? part.acked : part.processed;
      results.push({
        mode: part.kind === 'floor' ? FLOOR_MODE : part.kind === 'durable floor' ? DURABLE_FLOOR_MODE : mode,
        side: part.kind ?? part.side.name,
        perSecond: count / part.seconds,
        ackPerSecond: part.acked / part.seconds,
        p99: percentile(part.latencies, 0.99),
        service: (part.service_cpu / count) * 1000,
        postgres: (part.pg_cpu / count) * 1000,
      });
    }
  }
}

function printSlices(sides, results) {
  log();
  log(`alternating ${SLICE_SECONDS} s slices, ${SLICES} per side, ${CONNECTIONS} connections (CPU ms per uplink: service + PostgreSQL):`);
  log(`| figure | ${sides[0].name} | ${sides[1].name} | ratio | goal |`);
  log('| --- | ---: | ---: | ---: | --- |');
  const [a, b] = sides.map((side) => results.filter((r) => r.side === side.name));
  const floor = results.find((r) => r.side === 'floor');
  const durable = results.find((r) => r.side === 'durable floor');
  for (let i = 0; i < a.length; i += 1) {
    const [x, y] = [a[i], b[i]];
    const e2e = x.mode !== 'ack path alone';
    const ratio = (p, q) => `${(q / p).toFixed(2)}x`;
    log(`| ${x.mode}: ${e2e ? 'processed' : 'acknowledged'}/s | ${fmt(x.perSecond)} | ${fmt(y.perSecond)} | ${ratio(x.perSecond, y.perSecond)} | ${e2e ? 'at least 2.5x' : ''} |`);
    log(`| ${x.mode}: CPU ms per uplink | ${(x.service + x.postgres).toFixed(3)} | ${(y.service + y.postgres).toFixed(3)} | ${ratio(x.service + x.postgres, y.service + y.postgres)} | ${e2e ? 'at most 0.33x' : ''} |`);
    log(`| ${x.mode}: service / PostgreSQL CPU ms per uplink | ${x.service.toFixed(3)} / ${x.postgres.toFixed(3)} | ${y.service.toFixed(3)} / ${y.postgres.toFixed(3)} | ${ratio(x.service, y.service)} / ${ratio(x.postgres, y.postgres)} | |`);
    log(`| ${x.mode}: ack p99 ms | ${x.p99.toFixed(1)} | ${y.p99.toFixed(1)} | ${ratio(x.p99, y.p99)} | ${e2e ? 'under 50 ms' : ''} |`);
  }
  if (!floor) return;
  // The goal's budget: a third of the baseline's CPU per uplink end to end, in these same slices.
  const baselineEndToEnd = a.find((r) => r.mode !== 'ack path alone');
  const budget = (baselineEndToEnd.service + baselineEndToEnd.postgres) / 3;
  log();
  log(
    `floor (${FLOOR_MODE}, slices among the ack path's): ${fmt(floor.perSecond)} answers/s, ack p99 ${floor.p99.toFixed(1)} ms, CPU ${floor.service.toFixed(3)} ms per request;` +
      ` the goal's budget (a third of ${sides[0].name}'s end to end) ${budget.toFixed(3)} ms per uplink, of which the floor alone takes ${((floor.service / budget) * 100).toFixed(0)}%`,
  );
  if (!durable) return;
  // What any service pays with the working tree's rows: the durable floor's ack (its service and PostgreSQL CPU) and
  // the working tree's pipeline statements (its PostgreSQL CPU end to end less its ack path's).
  const [treeEndToEnd, treeAck] = [b.find((r) => r.mode !== 'ack path alone'), b.find((r) => r.mode === 'ack path alone')];
  const pipelinePostgres = Math.max(0, treeEndToEnd.postgres - treeAck.postgres);
  const durableAck = durable.service + durable.postgres;
  const fixed = durableAck + pipelinePostgres;
  const share = (ms) => `${((ms / budget) * 100).toFixed(0)}%`;
  log(
    `durable floor (${DURABLE_FLOOR_MODE}, slices among the ack path's): ${fmt(durable.perSecond)} acks/s, ack p99 ${durable.p99.toFixed(1)} ms, CPU ${durableAck.toFixed(3)} ms per uplink` +
      ` (${durable.service.toFixed(3)} + ${durable.postgres.toFixed(3)}; ${sides[1].name}'s ack path ${(treeAck.service + treeAck.postgres).toFixed(3)})`,
  );
  log(
    `with ${sides[1].name}'s rows: the durable floor's ack ${durableAck.toFixed(3)} + its pipeline's PostgreSQL CPU ${pipelinePostgres.toFixed(3)} = ${fixed.toFixed(3)} ms per uplink,` +
      ` ${share(fixed)} of the goal's budget before any of the pipeline's service work (${sides[1].name}: ${Math.max(0, treeEndToEnd.service - treeAck.service).toFixed(3)} ms) or the ack path's rules (${Math.max(0, treeAck.service - durable.service).toFixed(3)} ms);` +
      ` left for them: ${(budget - fixed).toFixed(3)} ms`,
  );
}

/** The baseline against the working tree: every figure as the mean of its runs, and the ratio. */
function printComparison(sides, runs, halves) {
  const [base, tree] = sides;
  const rows = [];
  const row = (figure, of, digits, goal = '') => {
    const b = of(base);
    const t = of(tree);
    rows.push(`| ${figure} | ${Number.isFinite(b) ? fmt(b, digits) : '-'} | ${Number.isFinite(t) ? fmt(t, digits) : '-'} | ${Number.isFinite(b) && b !== 0 ? `${(t / b).toFixed(2)}x` : '-'} | ${goal} |`);
  };
  const e2e = (processes, pick) => (side) => mean(runs.filter((r) => r.side === side.name && r.processes === processes).map(pick));
  const half = (processes, pick) => (side) => mean(halves.filter((h) => h.side === side.name && h.processes === processes).map(pick));
  const cpuMs = (r) => r.cpu.service + r.cpu.postgres; // s per 1,000 = ms per uplink
  for (const processes of [1, 2]) {
    if (!runs.some((r) => r.processes === processes)) continue;
    const n = plural(processes, 'process');
    row(`processed uplinks/s end to end, ${n}`, e2e(processes, (r) => r.processedPerSecond), 0, processes === 1 ? 'at least 2.5x' : 'more than with 1 process');
    row(`CPU ms per uplink end to end (service + PostgreSQL), ${n}`, e2e(processes, cpuMs), 3, 'at most 0.33x');
    row(`  service ms per uplink, ${n}`, e2e(processes, (r) => r.cpu.service), 3);
    row(`  PostgreSQL ms per uplink, ${n}`, e2e(processes, (r) => r.cpu.postgres), 3);
    row(`database transactions per uplink, ${n}`, e2e(processes, (r) => r.work.transactions), 3);
    row(`database row changes per uplink, ${n}`, e2e(processes, (r) => r.work.changes), 1);
    row(`ack p99 ms, ${n}`, e2e(processes, (r) => r.p99), 1, 'under 50 ms');
    row(`most pending seen while sending, ${n}`, e2e(processes, (r) => r.maxPending), 0, 'bounded');
    row(`lost, ${n}`, e2e(processes, (r) => r.lost), 0, '0');
  }
  if (halves.length > 0) {
    row('ack path alone: acks/s', half(1, (h) => h.ackPerSecond), 0);
    row('ack path alone: CPU ms per uplink (service + PostgreSQL)', half(1, (h) => h.ackCpu.service + h.ackCpu.postgres), 3);
    row('ack path alone: service CPU ms per uplink', half(1, (h) => h.ackCpu.service), 3);
    row('ack path alone: database transactions per uplink', half(1, (h) => h.ackWork.transactions), 3);
    for (const processes of [1, 2]) {
      row(`pipeline alone, ${plural(processes, 'process')}: processed/s`, half(processes, (h) => h.processedPerSecond), 0);
      row(`pipeline alone, ${plural(processes, 'process')}: CPU ms per uplink (service + PostgreSQL)`, half(processes, (h) => h.processCpu.service + h.processCpu.postgres), 3);
      row(`pipeline alone, ${plural(processes, 'process')}: database transactions per uplink`, half(processes, (h) => h.pipeWork.transactions), 3);
    }
  }
  log();
  log(`${base.name} against the working tree, same machine, same run, alternating (means of ${ROUNDS} round${ROUNDS > 1 ? 's' : ''}):`);
  log(`| figure | ${base.name} | working tree | working tree / baseline | goal |`);
  log('| --- | ---: | ---: | ---: | --- |');
  for (const line of rows) log(line);
}

async function main() {
  const profileDir = PROFILE ? (PROFILE_DIR ?? mkdtempSync(join(tmpdir(), 'uplink-bench-ingest-prof-'))) : null;
  const baseline = BASELINE ? baselineCheckout(BASELINE) : null;
  const sides = [];
  try {
    if (baseline) sides.push(await prepareSide(baseline.sha.startsWith(BASELINE) ? `baseline ${BASELINE}` : `baseline ${BASELINE} (${baseline.sha.slice(0, 7)})`, baseline.dir, 'ingest_base', profileDir));
    sides.push(await prepareSide(NODE_ARGS.length > 0 ? `working tree (${NODE_ARGS.join(' ')})` : 'working tree', ROOT, 'ingest', profileDir, NODE_ARGS));
    // Alternating: each round swaps which side goes first, so a machine getting busier or quieter hits both alike.
    const order = (round) => (round % 2 === 0 ? sides : [...sides].reverse());
    log(`bench:ingest: ChirpStack v4 up webhooks of ${DEVICES} devices -> custom decodeUplink codec -> 4 fields (current + time series)`);
    if (sides.length > 1 && PARTS.has('slices')) await slicedComparison(sides);
    const runs = [];
    if (PARTS.has('e2e')) {
      for (const processes of [1, 2]) {
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const side of order(round + processes - 1)) {
            while (side.services.length < processes) side.services.push(await side.start());
            const label = `${sides.length > 1 ? `${side.name}: ` : ''}${processes} service process${processes > 1 ? 'es' : ''}`;
            runs.push({ side: side.name, processes, ...(await scenario(label, side, side.services)) });
          }
        }
      }
    }

    const halves = [];
    if (PARTS.has('halves')) {
      for (const side of sides) {
        await Promise.all(side.services.splice(0).map((service) => service.stop()));
        side.ingestOnly = await side.start({ PROCESSING_ENABLED: 'false' });
        side.services.push(side.ingestOnly);
        side.ingestApi = await apiOf(side.ingestOnly.url);
      }
      log();
      for (const processes of [1, 2]) {
        for (let round = 0; round < ROUNDS; round += 1) {
          for (const side of order(round + processes - 1)) {
            const label = `${sides.length > 1 ? `${side.name}: ` : ''}backlog, ${plural(processes, 'process')}`;
            halves.push({ side: side.name, processes, ...(await backlogRun(label, side, processes)) });
          }
        }
      }
    }

    if (runs.length + halves.length > 0) log();
    if (runs.length + halves.length > 0) log('| run | acked/s | ack p50 / p99 ms | processed/s | backlog at end (oldest s) | lost / failed | plain INSERT rows/s | ratio | CPU s per 1,000: service / PostgreSQL / load gen | load avg |');
    if (runs.length + halves.length > 0) log('| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |');
    for (const r of runs) {
      log(
        `| ${r.label} | ${fmt(r.ackPerSecond)} | ${r.p50.toFixed(0)} / ${r.p99.toFixed(0)} | ${fmt(r.processedPerSecond)} | ${fmt(r.backlogAtEnd)} (${r.oldestAtEnd.toFixed(1)}) | ${r.lost} / ${r.failed} |` +
          ` ${fmt(r.plain)} | ${r.ratio.toFixed(3)} | ${r.cpu.service.toFixed(2)} / ${r.cpu.postgres.toFixed(2)} / ${r.cpu.bench.toFixed(2)} | ${r.load} |`,
      );
    }
    for (const h of halves) {
      log(
        `| ${h.label}: ack only / pipeline only | ${fmt(h.ackPerSecond)} | ${h.p50.toFixed(0)} / ${h.p99.toFixed(0)} | ${fmt(h.processedPerSecond)} | ${fmt(h.backlog)} | | | |` +
          ` ack ${h.ackCpu.service.toFixed(2)} / ${h.ackCpu.postgres.toFixed(2)}; pipeline ${h.processCpu.service.toFixed(2)} / ${h.processCpu.postgres.toFixed(2)} | |`,
      );
    }
    if (sides.length > 1 && runs.length + halves.length > 0) printComparison(sides, runs, halves);
    if (profileDir) {
      for (const side of sides) await Promise.all(side.services.splice(0).map((service) => service.stop()));
      for (const side of sides) {
        log();
        log(`profiles of ${side.name}:`);
        const dir = join(profileDir, side === sides[sides.length - 1] ? 'ingest' : 'ingest_base');
        if (existsSync(dir)) printProfiles(dir, [...runs, ...halves.flatMap((h) => h.windows)].filter((r) => !r.side || r.side === side.name));
      }
    }
  } finally {
    await Promise.all(sides.map((side) => closeSide(side)));
    if (profileDir && !PROFILE_DIR) rmSync(profileDir, { recursive: true, force: true });
  }
}

main().catch(fail('bench:ingest'));
