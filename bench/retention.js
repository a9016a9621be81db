// bench:retention: what the hourly retention costs at scale, on a throw-away database.
//
// Fills BENCH_RAW_ROWS raw messages (default 2,000,000) received over the last 60 days in receipt order (so half are
// past the 30-day RAW_RETENTION_DAYS), with BENCH_PINNED of the old ones pinned, and BENCH_EXECUTIONS flow
// executions (default 1,000,000) started over the last 28 days (half past the 14-day window), then runs the real
// RetentionSweeper of the built service (dist/) and prints rows deleted per second, the batches, and the cost of the
// run that follows, when nothing is old: that path must be an index probe, never a scan (its EXPLAIN is printed).
// Prints figures, never fails on them.
require('reflect-metadata');
const { join } = require('node:path');
const { Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { Client } = require('pg');
const { ROOT, explainPlan, fail, percentile, throwAwayDatabase } = require('./support');

const dist = (path) => require(join(ROOT, 'dist', path));
const { AppConfig } = dist('config/app-config');
const { AppConfigModule } = dist('config/config.module');
const { DatabaseModule } = dist('database/database.module');
const { RetentionSweeper, RETENTION_BATCH_SIZE, retentionBatchSql } = dist('modules/ingestion/retention/retention-sweeper');
const { ExecutionRetentionSweeper, EXECUTION_RETENTION_BATCH_SQL } = dist('modules/processing/retention/execution-retention-sweeper');
const batchSql = (kind) => (kind === 'executions' ? EXECUTION_RETENTION_BATCH_SQL : retentionBatchSql(kind));

const RAW_ROWS = Number(process.env.BENCH_RAW_ROWS ?? 2_000_000);
const EXECUTIONS = Number(process.env.BENCH_EXECUTIONS ?? 1_000_000);
const PINNED = Number(process.env.BENCH_PINNED ?? 1_000);
const CHUNK = 250_000;
const NOOP_RUNS = 20;

const say = (line) => process.stdout.write(`${line}\n`);

// A ChirpStack-sized stored body (the raw table keeps the exact request bytes).
const BODY = JSON.stringify({
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2026-03-14T09:15:00.512345678+00:00',
  deviceInfo: { tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242', applicationId: 'ca739e26-7b67-4f14-b69e-d568c22a5a75', devEui: '0101010101010101', deviceName: 'sensor' },
  devAddr: '00189440', adr: true, dr: 5, fCnt: 10, fPort: 2, confirmed: false, data: 'AOQ=',
  rxInfo: [{ gatewayId: '0016c001f153a14c', uplinkId: 4217106255, rssi: -36, snr: 10.5, context: 'EFwMtA==' }],
  txInfo: { frequency: 868300000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
});

async function timed(fn) {
  const started = process.hrtime.bigint();
  const value = await fn();
  return { value, ms: Number(process.hrtime.bigint() - started) / 1e6 };
}

async function fill(sql) {
  await sql.query(`INSERT INTO tenants (key, name) VALUES ('bench', 'Bench') RETURNING tenant_id`);
  const [{ tenant_id: tenantId }] = (await sql.query(`SELECT tenant_id FROM tenants WHERE key = 'bench'`)).rows;
  const [{ device_type_id: typeId }] = (await sql.query(`INSERT INTO device_types (tenant_id, key, name) VALUES ($1, 'bench', 'Bench') RETURNING device_type_id`, [tenantId])).rows;
  const [{ flow_id: flowId }] = (await sql.query(`INSERT INTO flows (tenant_id, device_type_id, key, name) VALUES ($1, $2, 'bench', 'Bench') RETURNING flow_id`, [tenantId, typeId])).rows;
  const [{ flow_version_id: versionId }] = (
    await sql.query(`INSERT INTO flow_versions (flow_id, tenant_id, version_number, graph) VALUES ($1, $2, 1, '{}') RETURNING flow_version_id`, [flowId, tenantId])
  ).rows;

  const { ms: rawMs } = await timed(async () => {
    for (let from = 1; from <= RAW_ROWS; from += CHUNK) {
      const to = Math.min(from + CHUNK - 1, RAW_ROWS);
      // Row i is received 60 days × (1 - i/N) ago: oldest first, as they arrive.
      await sql.query(
        `INSERT INTO raw_ingestion_messages
           (raw_ingestion_message_id, received_at, source, event, tenant_id, dev_eui, observed_at, raw_payload, connection_data,
            correlation_id, content_type, body, size_bytes, processing_status, device_id)
         SELECT gen_random_uuid(), at, 'chirpstack', 'up', $1, upper(lpad(to_hex(i % 1000), 16, '0')), at,
                '{"encoding":"base64","data":"AOQ="}', '{"networkServer":"chirpstack","fCnt":10}', 'bench-' || i,
                'application/json', $2::bytea, octet_length($2::bytea), 'processed', md5((i % 1000)::text)::uuid
           FROM generate_series($3::int, $4::int) AS i,
                LATERAL (SELECT now() - interval '60 days' * (1 - i::float8 / $5)) AS t(at)`,
        [tenantId, Buffer.from(BODY), from, to, RAW_ROWS],
      );
      process.stdout.write(`\r  raw messages: ${to.toLocaleString('en')} / ${RAW_ROWS.toLocaleString('en')}`);
    }
  });
  process.stdout.write('\n');
  // Pinned (fixture-referenced) messages scattered over the old half.
  await sql.query(
    `UPDATE raw_ingestion_messages SET pinned = true
      WHERE raw_ingestion_message_id IN (SELECT raw_ingestion_message_id FROM raw_ingestion_messages
                                          WHERE received_at < now() - interval '31 days' ORDER BY random() LIMIT $1)`,
    [PINNED],
  );
  const { ms: executionMs } = await timed(async () => {
    for (let from = 1; from <= EXECUTIONS; from += CHUNK) {
      const to = Math.min(from + CHUNK - 1, EXECUTIONS);
      await sql.query(
        `INSERT INTO flow_executions (flow_execution_id, tenant_id, flow_id, flow_version_id, version_number, device_id, mode,
                                      raw_ingestion_message_id, raw_received_at, observed_at, correlation_id, status, started_at,
                                      duration_ms, current, timeseries, trace)
         SELECT gen_random_uuid(), $1, $2, $3, 1, md5((i % 1000)::text)::uuid, 'live', gen_random_uuid(), at, at, 'bench-' || i,
                'succeeded', at, 0.8, '{"level":25.5}', '{"level":25.5}', '[["decode","ok",0.1],["scale","ok",0.05]]'
           FROM generate_series($4::int, $5::int) AS i,
                LATERAL (SELECT now() - interval '28 days' * (1 - i::float8 / $6)) AS t(at)`,
        [tenantId, flowId, versionId, from, to, EXECUTIONS],
      );
      process.stdout.write(`\r  executions: ${to.toLocaleString('en')} / ${EXECUTIONS.toLocaleString('en')}`);
    }
  });
  process.stdout.write('\n');
  // The steady state autovacuum keeps: statistics current, visibility map set.
  await sql.query('VACUUM ANALYZE raw_ingestion_messages');
  await sql.query('VACUUM ANALYZE flow_executions');
  return { rawMs, executionMs };
}

async function sizes(sql) {
  const { rows } = await sql.query(
    `SELECT (SELECT count(*) FROM raw_ingestion_messages)::int AS raw, (SELECT count(*) FROM flow_executions)::int AS executions,
            pg_size_pretty(pg_total_relation_size('raw_ingestion_messages')) AS raw_size,
            pg_size_pretty(pg_total_relation_size('flow_executions')) AS execution_size`,
  );
  return rows[0];
}

/** EXPLAIN ANALYZE of one batch of `kind`, in a transaction rolled back afterwards (an analysed DELETE deletes). */
async function explain(sql, kind, days) {
  await sql.query('BEGIN');
  try {
    const { rows: [{ cutoff }] } = await sql.query(`SELECT (clock_timestamp() - make_interval(days => $1))::text AS cutoff`, [days]);
    const { plan } = await explainPlan(sql, batchSql(kind), ['-infinity', cutoff, RETENTION_BATCH_SIZE]);
    return plan.map((line) => `    ${line}`).join('\n');
  } finally {
    await sql.query('ROLLBACK');
  }
}

async function main() {
  const database = await throwAwayDatabase('retention');
  const config = AppConfig.fromEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: database.url, DB_STATEMENT_TIMEOUT_MS: '0' });
  class BenchModule {}
  Module({ imports: [AppConfigModule.forRoot(config), DatabaseModule], providers: [RetentionSweeper, ExecutionRetentionSweeper] })(BenchModule);
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  const sql = new Client({ connectionString: database.url });
  try {
    await app.init();
    await sql.connect();
    say(`bench:retention: ${RAW_ROWS.toLocaleString('en')} raw messages over 60 days (${PINNED} old ones pinned), ` +
      `${EXECUTIONS.toLocaleString('en')} executions over 28 days; retention ${config.rawRetentionDays} / ${config.executionRetentionDays} days, batches of ${RETENTION_BATCH_SIZE}`);
    const filled = await fill(sql);
    const before = await sizes(sql);
    say(`  filled in ${(filled.rawMs / 1000).toFixed(1)} s + ${(filled.executionMs / 1000).toFixed(1)} s: raw ${before.raw_size}, executions ${before.execution_size}`);

    say('\n  one raw batch (EXPLAIN ANALYZE, rolled back):');
    say(await explain(sql, 'rawMessages', config.rawRetentionDays));

    // Ingestion's sweep (raw messages, dedup keys), then processing's (executions): what the two hourly jobs do.
    const ingestion = app.get(RetentionSweeper);
    const executions = app.get(ExecutionRetentionSweeper);
    const sweeper = {
      async run() {
        const raw = await ingestion.run();
        const exec = await executions.run();
        return { ...raw, executions: exec.executions, batches: raw.batches + exec.batches };
      },
    };
    const { value: run, ms } = await timed(() => sweeper.run());
    const deleted = run.rawMessages + run.executions + run.dedupKeys;
    const after = await sizes(sql);
    say(`\n  sweep: ${run.rawMessages.toLocaleString('en')} raw messages + ${run.executions.toLocaleString('en')} executions deleted in ${(ms / 1000).toFixed(2)} s ` +
      `= ${Math.round(deleted / (ms / 1000)).toLocaleString('en')} rows/s, ${run.batches} batches (${(ms / run.batches).toFixed(1)} ms each)`);
    say(`  left: ${after.raw.toLocaleString('en')} raw messages (pinned kept: ${before.raw - run.rawMessages - after.raw === 0 ? 'yes' : 'NO'}), ${after.executions.toLocaleString('en')} executions`);

    const { ms: firstNoop } = await timed(() => sweeper.run());
    // Autovacuum reclaims the deleted rows' space and index entries soon after; measure that steady state.
    await sql.query('VACUUM ANALYZE raw_ingestion_messages');
    await sql.query('VACUUM ANALYZE flow_executions');
    const noop = [];
    for (let i = 0; i < NOOP_RUNS; i++) noop.push((await timed(() => sweeper.run())).ms);
    say(`\n  nothing old: the run right after the sweep ${firstNoop.toFixed(1)} ms; after VACUUM a whole run (3 kinds, 3 transactions) ` +
      `p50 ${percentile(noop, 0.5).toFixed(2)} ms, max ${Math.max(...noop).toFixed(2)} ms`);
    say('  its raw batch (EXPLAIN ANALYZE):');
    say(await explain(sql, 'rawMessages', config.rawRetentionDays));
    say('  its execution batch (EXPLAIN ANALYZE):');
    say(await explain(sql, 'executions', config.executionRetentionDays));
  } finally {
    await sql.end().catch(() => undefined);
    await app.close();
    await database.drop();
  }
}

main().catch(fail('bench:retention'));
