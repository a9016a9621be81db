/*
 * `npm run bench:devices`, in one run, on a throw-away database (DATABASE_URL's server, else an embedded PostgreSQL):
 *  1. authenticated GET /v1/devices/{id}/current-values (10 fields) req/s for a platform admin and a unit-scoped
 *     viewer, from the service with its authorization cache and from a second one with AUTH_CACHE_TTL_MS=0, against
 *     a bare Express "hello" server and a hand-written Express + pg peer doing the same work for a platform admin
 *     (bench/current-values-peer.js; goal: Uplink with the cache >= 1.0x the peer), with the CPU split between the
 *     service, PostgreSQL and the load generator, the database statements per request, GET /v1/auth/me and
 *     GET /v1/devices/{id} for comparison, and a CPU profile summary of a third, profiled service (node --cpu-prof)
 *     under the viewer's load: self time by module and by function;
 *  2. the write API: measurement rows/s through TelemetryWriter.writeMeasurements (batches of BENCH_BATCH rows) against
 *     a plain batched INSERT … SELECT FROM unnest of the same arrays into an unindexed table (goal: ratio >= 0.5);
 *  3. reads at scale: one device with 10 fields x hourly points over 366 days (87,840 rows), first among
 *     BENCH_SMALL_ROWS (100,000) then BENCH_ROWS (10,000,000) measurement rows loaded with generate_series (the large
 *     load in arrival order: every device's points of an hour, hour after hour). p50 over BENCH_RUNS (50) HTTP
 *     requests of a 31-day raw page and of a 366-day `1d` bucketed page; goal: growth <= 1.5x. Also the p50 of the
 *     same SQL alone and of a control request (GET /v1/devices/{id}: its growth is machine noise), and the plans.
 * Quick run: BENCH_ROWS=1000000 BENCH_DURATION=5 npm run bench:devices; BENCH_PARTS=1 runs part 1 only.
 * Prints figures; never fails on a number.
 */
const { mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { Client } = require('pg');
const { summarize } = require('./cpu-profile');
const { ADMIN, ROOT, cpuSeconds, explainPlan, fail, load: loadRun, measure, p50: medianOf, postmasterOf, startHello, startPeer, startService, throwAwayDatabase } = require('./support');

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const RUNS = Number(process.env.BENCH_RUNS ?? 50);
const BIG_ROWS = Number(process.env.BENCH_ROWS ?? 10_000_000);
const SMALL_ROWS = Number(process.env.BENCH_SMALL_ROWS ?? 100_000);
const BATCH = Number(process.env.BENCH_BATCH ?? 1000);
const WRITE_ROWS = Number(process.env.BENCH_WRITE_ROWS ?? 200_000);
const PARTS = new Set((process.env.BENCH_PARTS ?? '1,2,3').split(',').map((part) => part.trim()));
const FIELDS = 10;
const HOURS = 366 * 24;
const READ_DEVICE_ROWS = HOURS * FIELDS;
const START = Date.parse('2025-01-01T00:00:00.000Z');
const END = START + HOURS * 3600_000;
const VIEWER = { username: 'bench-viewer', password: 'bench-viewer-password-1' };
const log = (line) => process.stdout.write(`${line}\n`);
const p50 = (fn) => medianOf(fn, RUNS);

async function login(url, identifier, password) {
  const res = await fetch(`${url}/v1/auth/login`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
  if (res.status !== 200) throw new Error(`login of ${identifier} answered ${res.status}`);
  return (await res.json()).accessToken;
}

async function seedCatalog(db) {
  const {
    rows: [tenant],
  } = await db.query(`INSERT INTO tenants (key, name) VALUES ('bench', 'Bench') RETURNING tenant_id`);
  await db.query(`INSERT INTO action_kill_switches (tenant_id) VALUES ($1)`, [tenant.tenant_id]);
  const {
    rows: [type],
  } = await db.query(`INSERT INTO device_types (tenant_id, key, name) VALUES ($1, 'sensor', 'Sensor') RETURNING device_type_id`, [tenant.tenant_id]);
  const { rows: fields } = await db.query(
    `INSERT INTO device_field_definitions (tenant_id, device_type_id, key, name, schema_ref, storage_targets, measurement_type, created_at)
     SELECT $1, $2, 'field' || i, 'Field ' || i, 'platform://schemas/number/v1', '{current,timeseries}', 'gauge', now() + i * interval '1 ms'
       FROM generate_series(1, ${FIELDS}) i RETURNING field_no`,
    [tenant.tenant_id, type.device_type_id],
  );
  const {
    rows: [unit],
  } = await db.query(
    `INSERT INTO organization_units (tenant_id, depth, key, name) VALUES ($1, 1, 'site', 'Site') RETURNING organization_unit_id`,
    [tenant.tenant_id],
  );
  return { tenantId: tenant.tenant_id, deviceTypeId: type.device_type_id, fieldNos: fields.map((row) => row.field_no), unitId: unit.organization_unit_id };
}

async function seedDevices(db, catalog, count, prefix) {
  const { rows } = await db.query(
    `INSERT INTO devices (tenant_id, device_type_id, dev_eui, name)
     SELECT $1, $2, upper(lpad(to_hex($3::int * 1000000 + i), 16, '0')), 'Device ' || i FROM generate_series(1, $4::int) i
     RETURNING device_id`,
    [catalog.tenantId, catalog.deviceTypeId, prefix, count],
  );
  // Every device sits in the one unit since before the data (the viewer's grant covers it).
  await db.query(
    `INSERT INTO device_assignments (tenant_id, device_id, organization_unit_id, valid_from)
     SELECT $1, d, $2, $3 FROM unnest($4::uuid[]) d`,
    [catalog.tenantId, catalog.unitId, new Date(START - 3600_000), rows.map((row) => row.device_id)],
  );
  return rows.map((row) => row.device_id);
}

async function seedViewer(db, service, catalog) {
  const bcrypt = require('bcrypt');
  const {
    rows: [user],
  } = await db.query(
    `INSERT INTO users (username, email, display_name, status, password_hash, password_change_required)
     VALUES ($1, $2, 'Viewer', 'active', $3, false) RETURNING user_id`,
    [VIEWER.username, `${VIEWER.username}@example.com`, await bcrypt.hash(VIEWER.password, 4)],
  );
  await db.query(
    `INSERT INTO memberships (tenant_id, user_id, role, organization_unit_id, include_descendants) VALUES ($1, $2, 'tenant_viewer', $3, true)`,
    [catalog.tenantId, user.user_id, catalog.unitId],
  );
  return login(service.url, VIEWER.username, VIEWER.password);
}

async function transactions(db) {
  const {
    rows: [row],
  } = await db.query(`SELECT xact_commit::bigint AS n FROM pg_stat_database WHERE datname = current_database()`);
  return Number(row.n);
}

async function cpuProfile(databaseUrl, path, token) {
  const dir = mkdtempSync(join(tmpdir(), 'uplink-bench-prof-'));
  const profiled = await startService(databaseUrl, { nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${dir}`] });
  const now = () => Number(process.hrtime.bigint() / 1000n);
  const window = { from: 0, to: 0 };
  try {
    // The warm-up run of `measure` is left out of the summary, like the start-up.
    await loadRun({ url: `${profiled.url}${path}`, headers: { Authorization: `Bearer ${token}` }, connections, duration: Math.min(3, duration) });
    window.from = now();
    await measure('current-values as unit viewer, profiled', {
      url: `${profiled.url}${path}`,
      headers: { Authorization: `Bearer ${token}` },
      connections,
      duration,
    });
    window.to = now();
  } finally {
    await profiled.stop();
  }
  const [file] = readdirSync(dir).filter((name) => name.endsWith('.cpuprofile'));
  if (!file) {
    log('   no CPU profile written');
    return;
  }
  const summary = summarize(join(dir, file), window);
  rmSync(dir, { recursive: true, force: true });
  log(`   where the service's CPU goes under that load (self time, ${(summary.totalMs / 1000).toFixed(1)} s busy):`);
  log(`   by module:   ${summary.modules.slice(0, 12).map((row) => `${row.name} ${(row.share * 100).toFixed(1)}%`).join(', ')}`);
  log('   by function:');
  for (const row of summary.functions.slice(0, 12)) log(`     ${(row.share * 100).toFixed(1).padStart(5)}%  ${row.name}`);
}

async function currentValues(db, database, services, hello, peer, catalog, readDevice, tokens) {
  log(`1) GET /v1/devices/{id}/current-values (${FIELDS} fields): ${connections} connections, ${duration} s per target`);
  const now = new Date();
  await db.query(
    `INSERT INTO device_current_values (device_id, field_no, value, observed_at, raw_received_at)
     SELECT $1, f, to_jsonb(f * 1.5), $2, $2 FROM unnest($3::int[]) f`,
    [readDevice, now, catalog.fieldNos],
  );
  const postmaster = await postmasterOf(db);
  const path = `/v1/devices/${readDevice}/current-values`;
  /**
   * One target under load, with the CPU its server process (`pid`), PostgreSQL and autocannon used meanwhile. On a
   * machine shared with other work, requests per CPU-second of the server process compare better than req/s.
   */
  const run = async (name, options, pid) => {
    const before = { cpu: cpuSeconds({ server: pid, bench: process.pid }, postmaster), xacts: await transactions(db) };
    const result = await measure(name, options);
    const after = { cpu: cpuSeconds({ server: pid, bench: process.pid }, postmaster), xacts: await transactions(db) };
    const seconds = duration + Math.min(3, duration); // the warm-up run is included in the deltas
    const cpu = (key) => (after.cpu[key] - before.cpu[key]) / seconds;
    const perCpuSecond = result.reqPerSec / Math.max(0.01, cpu('server'));
    return { ...result, cpu, perCpuSecond, statements: (after.xacts - before.xacts) / (result.reqPerSec * seconds) };
  };
  const helloFigures = await run('bare Express GET /', { url: hello.url, connections, duration }, hello.pid);
  // The peer serves a platform admin only; its figure is the reference for both callers (a viewer's scope check
  // costs Uplink a grant lookup the peer never makes).
  const peerFigures = await run(
    'peer (Express + pg) as platform admin',
    { url: `${peer.url}${path}`, headers: { Authorization: `Bearer ${tokens.tokens['platform admin']}` }, connections, duration },
    peer.pid,
  );
  log(`   peer: ${Math.round(peerFigures.perCpuSecond)} requests per CPU-second of its process; hello: ${Math.round(helloFigures.perCpuSecond)}`);
  const figures = {};
  for (const [label, service, which] of [
    ['cache on', services.cached, 'tokens'],
    ['cache off', services.uncached, 'uncachedTokens'],
  ]) {
    for (const [who, token] of Object.entries(tokens[which])) {
      const options = { url: `${service.url}${path}`, headers: { Authorization: `Bearer ${token}` }, connections, duration };
      const result = await run(`Uplink (${label}) as ${who}`, options, service.pid);
      figures[`${label}/${who}`] = result.reqPerSec;
      const peerRatio = result.reqPerSec / peerFigures.reqPerSec;
      log(
        `   req/s vs hello ${(result.reqPerSec / helloFigures.reqPerSec).toFixed(2)}, vs peer ${peerRatio.toFixed(2)}` +
          (label === 'cache on' ? ` (goal >= 1.00: ${peerRatio >= 1 ? 'met' : 'NOT met'})` : '') +
          `; per CPU-second ${Math.round(result.perCpuSecond)}, vs peer ${(result.perCpuSecond / peerFigures.perCpuSecond).toFixed(2)}`,
      );
      log(
        `   CPU (cores busy, of 2): service ${result.cpu('server').toFixed(2)}, postgres ${result.cpu('postgres').toFixed(2)}, autocannon ${result.cpu('bench').toFixed(2)};` +
          ` ~${result.statements.toFixed(1)} database statements per request`,
      );
    }
  }
  for (const who of Object.keys(tokens.tokens)) {
    log(`   ${who}: cache on / cache off x${(figures[`cache on/${who}`] / figures[`cache off/${who}`]).toFixed(2)}`);
  }
  // Where the time goes: the same pipeline without telemetry (session check + user), and with the device resolve only.
  const headers = { Authorization: `Bearer ${tokens.tokens['unit viewer']}` };
  for (const [name, route] of [
    ['GET /v1/auth/me as unit viewer', '/v1/auth/me'],
    ['GET /v1/devices/{id} as unit viewer', `/v1/devices/${readDevice}`],
  ]) {
    const result = await measure(name, { url: `${services.cached.url}${route}`, headers, connections, duration }).catch((error) => {
      log(`   ${name} not measured: ${error.message}`);
      return null;
    });
    if (result) log(`   vs hello ${(result.reqPerSec / helloFigures.reqPerSec).toFixed(2)}`);
  }
  await cpuProfile(database.url, path, tokens.tokens['unit viewer']);
  const { CURRENT_VALUES_SQL } = require(join(ROOT, 'dist', 'modules', 'telemetry', 'get-current-values', 'get-current-values.handler.js'));
  const { time } = await explainPlan(db, CURRENT_VALUES_SQL, [readDevice]);
  log(`   device + scope + fields + values query (the handler's one statement): ${time}`);
}

async function writes(db, catalog) {
  log(`2) write API: ${WRITE_ROWS} measurement rows in batches of ${BATCH}`);
  const { TelemetryWriter } = require(join(ROOT, 'dist', 'modules', 'telemetry', 'persistence', 'telemetry-writer.js'));
  const { FieldContractReader } = require(join(ROOT, 'dist', 'modules', 'device-types', 'persistence', 'field-contract.reader.js'));
  const manager = { query: (sql, params) => db.query(sql, params).then((result) => result.rows) };
  const writer = new TelemetryWriter(new FieldContractReader({ manager }));
  const devices = await seedDevices(db, catalog, 100, 9);
  await db.query(`CREATE TABLE bench_plain_measurements (device_id uuid, field_no int, observed_at timestamptz, raw_received_at timestamptz,
                  value_num double precision, value_json jsonb)`);
  const base = Date.parse('2020-01-01T00:00:00Z'); // before the read data, so the read bench is not affected
  const batches = [];
  for (let start = 0; start < WRITE_ROWS; start += BATCH) {
    const rows = [];
    for (let i = start; i < Math.min(WRITE_ROWS, start + BATCH); i++) {
      const observed = base + Math.floor(i / (devices.length * FIELDS)) * 1000;
      rows.push({
        deviceId: devices[Math.floor(i / FIELDS) % devices.length],
        fieldNo: catalog.fieldNos[i % FIELDS],
        observedAt: new Date(observed),
        rawReceivedAt: new Date(observed + 500),
        value: (i % 1000) / 8,
      });
    }
    batches.push(rows);
  }
  const plainSql = `INSERT INTO bench_plain_measurements (device_id, field_no, observed_at, raw_received_at, value_num, value_json)
                    SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::float8[], $6::jsonb[])`;
  const plain = async (rows) => {
    // The same column arrays the writer sends (built the same way), without the check, the dedupe and the index.
    const params = [[], [], [], [], [], []];
    for (const row of rows) {
      params[0].push(row.deviceId);
      params[1].push(row.fieldNo);
      params[2].push(row.observedAt.toISOString());
      params[3].push(row.rawReceivedAt.toISOString());
      params[4].push(row.value);
      params[5].push(null);
    }
    await db.query(plainSql, params);
  };
  const run = async (name, write) => {
    const started = process.hrtime.bigint();
    for (const rows of batches) await write(rows);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const rate = WRITE_ROWS / seconds;
    log(`${name.padEnd(50)} ${String(Math.round(rate)).padStart(9)} rows/s`);
    return rate;
  };
  // Warm-up of both paths on a throw-away slice (then removed).
  await plain(batches[0]);
  await writer.writeMeasurements(manager, batches[0]);
  await db.query(`TRUNCATE bench_plain_measurements; DELETE FROM measurements`);
  const plainRate = await run('plain INSERT … unnest, unindexed table', plain);
  const writerRate = await run('TelemetryWriter.writeMeasurements (upsert)', (rows) => writer.writeMeasurements(manager, rows));
  const resendRate = await run('TelemetryWriter.writeMeasurements (re-send, no-op)', (rows) => writer.writeMeasurements(manager, rows));
  const ratio = writerRate / plainRate;
  log(`   ratio ${ratio.toFixed(2)} (goal >= 0.50: ${ratio >= 0.5 ? 'met' : 'NOT met'}); re-send ratio ${(resendRate / plainRate).toFixed(2)}`);
  await db.query(`DROP TABLE bench_plain_measurements`);
  await db.query(`DELETE FROM measurements`);
}

/**
 * Loads `total` measurement rows: the read device's 87,840 and the rest over other devices with the same hourly
 * grid, written hour by hour across devices (arrival order). The primary key is rebuilt after the load (faster
 * than maintaining it row by row); VACUUM ANALYZE as autovacuum would eventually.
 */
async function load(db, catalog, readDevice, others, total) {
  const started = Date.now();
  await db.query(`TRUNCATE measurements`);
  const {
    rows: [pk],
  } = await db.query(`SELECT conname FROM pg_constraint WHERE conrelid = 'measurements'::regclass AND contype = 'p'`);
  await db.query(`ALTER TABLE measurements DROP CONSTRAINT ${pk.conname}`);
  // Devices with the read device's full history (the read device first), then the remainder on one more device.
  const full = Math.max(1, Math.min(others.length, Math.floor(total / READ_DEVICE_ROWS)));
  const devices = [readDevice, ...others.slice(0, full - 1)];
  const perHour = devices.length * FIELDS;
  // i -> hour i / perHour, device (i / FIELDS) % devices, field i % FIELDS: one series, so insertion is in time order.
  await db.query(
    `INSERT INTO measurements (device_id, field_no, observed_at, raw_received_at, value_num)
     SELECT ($1::uuid[])[1 + (i / ${FIELDS}) % ${devices.length}], ($2::int[])[1 + i % ${FIELDS}],
            $3::timestamptz + (i / ${perHour}) * interval '1 hour', $3::timestamptz + (i / ${perHour}) * interval '1 hour' + interval '2 s',
            (i % 997)::float8 / 4
       FROM generate_series(0::bigint, $4::bigint - 1) i`,
    [devices, catalog.fieldNos, new Date(START), HOURS * perHour],
  );
  const remainder = total - HOURS * perHour;
  if (remainder > 0) {
    await db.query(
      `INSERT INTO measurements (device_id, field_no, observed_at, raw_received_at, value_num)
       SELECT $1::uuid, ($2::int[])[1 + i % ${FIELDS}], $3::timestamptz + (i / ${FIELDS}) * interval '1 minute',
              $3::timestamptz + (i / ${FIELDS}) * interval '1 minute', i::float8
         FROM generate_series(0::bigint, $4::bigint - 1) i`,
      [others[full - 1], catalog.fieldNos, new Date(START), remainder],
    );
  }
  await db.query(`ALTER TABLE measurements ADD PRIMARY KEY (device_id, observed_at, field_no) INCLUDE (value_num)`);
  await db.query(`VACUUM ANALYZE measurements`);
  await db.query(`CHECKPOINT`); // the load's dirty pages are written now, not during the measurements
  const {
    rows: [{ count, size }],
  } = await db.query(`SELECT count(*)::bigint AS count, pg_size_pretty(pg_total_relation_size('measurements')) AS size FROM measurements`);
  log(`   loaded ${Number(count).toLocaleString('en')} rows (${size}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

async function reads(db, service, token, catalog, readDevice, label) {
  const get = (path) => async () => {
    const res = await fetch(`${service.url}${path}`, { headers: { Authorization: `Bearer ${token}` } });
    if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
    const body = await res.json();
    if (body.items && body.items.length === 0) throw new Error(`${path}: empty page`);
  };
  const measurements = (query) => get(`/v1/devices/${readDevice}/measurements?${query}`);
  const { rawPageSql, bucketedPageSql, firstBucketWindow } = require(join(ROOT, 'dist', 'modules', 'telemetry', 'domain', 'measurement-query.js'));
  const dailyWindow = firstBucketWindow(new Date(START), new Date(END), '1d', 101);
  const fields = catalog.fieldNos.map((fieldNo, index) => ({ fieldNo, key: `field${index + 1}` }));
  const sql = (statement) => () => db.query(statement.sql, statement.params);
  const rawFrom = new Date(END - 31 * 86400_000);
  const to = new Date(END).toISOString();
  const figures = {
    control: await p50(get(`/v1/devices/${readDevice}`)),
    raw100: await p50(measurements(`from=${rawFrom.toISOString()}&to=${to}`)),
    raw1000: await p50(measurements(`from=${rawFrom.toISOString()}&to=${to}&limit=1000`)),
    daily: await p50(measurements(`from=${new Date(START).toISOString()}&to=${to}&bucket=1d`)),
    dailyLast: await p50(measurements(`from=${new Date(START).toISOString()}&to=${to}&bucket=1d&aggregation=last`)),
    sqlRaw100: await p50(sql(rawPageSql({ deviceId: readDevice, fields, intervals: [{ from: rawFrom, to: new Date(END) }], take: 101, after: null }))),
    sqlDaily: await p50(
      sql(bucketedPageSql({ deviceId: readDevice, fields, intervals: [{ from: new Date(START), to: new Date(END) }], take: 101, after: null }, '1d', 'avg', dailyWindow)),
    ),
  };
  log(
    `   ${label.padEnd(12)} p50 over HTTP: 31-day raw page of 100 ${figures.raw100.toFixed(2)} ms, of 1000 ${figures.raw1000.toFixed(2)} ms;` +
      ` 366-day 1d avg ${figures.daily.toFixed(2)} ms, 1d last ${figures.dailyLast.toFixed(2)} ms`,
  );
  log(
    `   ${''.padEnd(12)} p50 of the SQL alone: raw page of 100 ${figures.sqlRaw100.toFixed(2)} ms, 1d avg ${figures.sqlDaily.toFixed(2)} ms;` +
      ` control GET /v1/devices/{id} over HTTP ${figures.control.toFixed(2)} ms (machine noise)`,
  );
  return figures;
}

async function explain(db, title, sql, params) {
  const { indexes, seqScans, time, heapFetches } = await explainPlan(db, sql, params);
  const seq = seqScans.some((line) => line.includes('Seq Scan on measurements'));
  log(`   EXPLAIN ${title}: ${indexes.join(', ') || 'no index'}${seq ? ' + Seq Scan' : ''}; ${time}${heapFetches ? `; ${heapFetches}` : ''}`);
}

async function explainReads(db, catalog, readDevice) {
  const { rawPageSql, bucketedPageSql, firstBucketWindow } = require(join(ROOT, 'dist', 'modules', 'telemetry', 'domain', 'measurement-query.js'));
  const dailyWindow = firstBucketWindow(new Date(START), new Date(END), '1d', 101);
  const fields = catalog.fieldNos.map((fieldNo, index) => ({ fieldNo, key: `field${index + 1}` }));
  const raw = rawPageSql({ deviceId: readDevice, fields, intervals: [{ from: new Date(END - 31 * 86400_000), to: new Date(END) }], take: 101, after: null });
  await explain(db, 'raw page', raw.sql, raw.params);
  const daily = bucketedPageSql({ deviceId: readDevice, fields, intervals: [{ from: new Date(START), to: new Date(END) }], take: 101, after: null }, '1d', 'avg', dailyWindow);
  await explain(db, '1d avg page', daily.sql, daily.params);
}

async function main() {
  const database = await throwAwayDatabase('devices');
  const db = new Client({ connectionString: database.url });
  let service;
  let uncached;
  let hello;
  let peer;
  try {
    service = await startService(database.url); // migrates the database
    uncached = await startService(database.url, { env: { AUTH_CACHE_TTL_MS: '0' } });
    hello = await startHello();
    peer = await startPeer(database.url);
    await db.connect();
    const catalog = await seedCatalog(db);
    const [readDevice] = await seedDevices(db, catalog, 1, 1);
    const others = await seedDevices(db, catalog, Math.max(2, Math.floor(BIG_ROWS / READ_DEVICE_ROWS)), 2);
    const adminToken = await login(service.url, ADMIN.username, ADMIN.password);
    const viewerToken = await seedViewer(db, service, catalog);
    const uncachedTokens = {
      'platform admin': await login(uncached.url, ADMIN.username, ADMIN.password),
      'unit viewer': await login(uncached.url, VIEWER.username, VIEWER.password),
    };

    const tokens = { tokens: { 'platform admin': adminToken, 'unit viewer': viewerToken }, uncachedTokens };
    if (PARTS.has('1')) await currentValues(db, database, { cached: service, uncached }, hello, peer, catalog, readDevice, tokens);
    if (PARTS.has('2')) await writes(db, catalog);
    if (!PARTS.has('3')) return;

    log(`3) reads of one device (${READ_DEVICE_ROWS} rows: ${FIELDS} fields, hourly, 366 days), p50 of ${RUNS} requests, as the unit viewer`);
    await load(db, catalog, readDevice, others, SMALL_ROWS);
    const small = await reads(db, service, viewerToken, catalog, readDevice, `${SMALL_ROWS.toLocaleString('en')} rows`);
    await explainReads(db, catalog, readDevice);
    await load(db, catalog, readDevice, others, BIG_ROWS);
    const big = await reads(db, service, viewerToken, catalog, readDevice, `${BIG_ROWS.toLocaleString('en')} rows`);
    await explainReads(db, catalog, readDevice);
    for (const [name, key] of [
      ['control GET device', 'control'],
      ['31-day raw page (100)', 'raw100'],
      ['31-day raw page (1000)', 'raw1000'],
      ['366-day 1d avg', 'daily'],
      ['366-day 1d last', 'dailyLast'],
      ['SQL raw page (100)', 'sqlRaw100'],
      ['SQL 1d avg', 'sqlDaily'],
    ]) {
      const growth = big[key] / small[key];
      const goal = key === 'control' ? '' : ` (goal <= 1.5: ${growth <= 1.5 ? 'met' : 'NOT met'})`;
      log(`   growth ${name.padEnd(24)} x${growth.toFixed(2)}${goal}`);
    }
  } finally {
    await db.end().catch(() => undefined);
    await service?.stop();
    await uncached?.stop();
    await hello?.stop();
    await peer?.stop();
    await database.drop();
  }
}

main().catch(fail('bench:devices'));
