// bench:jobs: throughput of durable background jobs (enqueue in a command's transaction + claim + complete) with 1
// and 4 workers, and the claim latency (from a job's runAt to its start), on a throw-away database.
//
// Each "replica" is the real JobsModule + UnitOfWork of the built service (dist/) in a Nest application context;
// producers enqueue one job per transaction through UnitOfWork.run + scope.enqueue, like a command's side effect.
// BENCH_JOBS (default 5000) jobs per throughput figure. Prints figures, never fails on them.
require('reflect-metadata');
const { join } = require('node:path');
const { Injectable, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const { CqrsModule } = require('@nestjs/cqrs');
const { ROOT, fail, throwAwayDatabase } = require('./support');

const dist = (path) => require(join(ROOT, 'dist', path));
const { AppConfig } = dist('config/app-config');
const { AppConfigModule } = dist('config/config.module');
const { DatabaseModule } = dist('database/database.module');
const { CoreModule } = dist('shared/core.module');
const { JobsModule } = dist('shared/jobs/jobs.module');
const { JobHandler } = dist('shared/jobs/job');
const { JobWorker } = dist('shared/jobs/job-worker');
const { UnitOfWork } = dist('shared/events/unit-of-work');

const JOBS = Number(process.env.BENCH_JOBS ?? 5000);
const PRODUCERS = 4;
const JOB = 'bench.noop';

/** Counts finished runs; `expect(n)` resolves once n more have finished. */
const runs = { done: 0, target: Infinity, resolve: () => undefined };
function expectRuns(n) {
  return new Promise((resolve) => {
    runs.target = runs.done + n;
    runs.resolve = resolve;
  });
}

class NoopJob {
  async handle() {
    runs.done += 1;
    if (runs.done === runs.target) runs.resolve();
  }
}
Injectable()(NoopJob);
JobHandler({ name: JOB })(NoopJob);

async function startReplica(url, env) {
  const config = AppConfig.fromEnv({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATABASE_URL: url, DB_POOL_MAX: '10', ...env });
  class BenchModule {}
  Module({
    imports: [AppConfigModule.forRoot(config), CqrsModule.forRoot(), DatabaseModule, CoreModule, JobsModule],
    providers: [NoopJob],
  })(BenchModule);
  const app = await NestFactory.createApplicationContext(BenchModule, { logger: false });
  await app.init();
  return app;
}

/** `count` jobs, one transaction each, from PRODUCERS concurrent producers; `runAt(i)` schedules job i. */
async function enqueue(unitOfWork, count, runAt = () => undefined) {
  let next = 0;
  const producer = async () => {
    while (next < count) {
      const i = next++;
      await unitOfWork.run((scope) => scope.enqueue({ name: JOB, payload: { i }, runAt: runAt(i) }));
    }
  };
  await Promise.all(Array.from({ length: PRODUCERS }, producer));
}

async function latency(dataSource, sinceJobId) {
  const [row] = await dataSource.query(
    `SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS p50, percentile_cont(0.99) WITHIN GROUP (ORDER BY ms) AS p99
       FROM (SELECT extract(epoch FROM started_at - run_at) * 1000 AS ms FROM jobs WHERE name = $1 AND job_id > $2) s`,
    [JOB, sinceJobId],
  );
  return { p50: Number(row.p50).toFixed(1), p99: Number(row.p99).toFixed(1) };
}

async function lastJobId(dataSource) {
  const [row] = await dataSource.query(`SELECT coalesce(max(job_id), 0)::text AS id FROM jobs`);
  return row.id;
}

/** One figure: `replicas` processes' worth of workers, `concurrency` jobs at a time each. */
async function throughput(url, label, replicas, concurrency) {
  const apps = [];
  for (let i = 0; i < replicas; i++) apps.push(await startReplica(url, { JOBS_CONCURRENCY: String(concurrency) }));
  try {
    const { DataSource } = require('typeorm');
    const dataSource = apps[0].get(DataSource);
    const unitOfWork = apps[0].get(UnitOfWork);
    // Warm-up (connections, JIT), not counted.
    let finished = expectRuns(200);
    await enqueue(unitOfWork, 200);
    await finished;

    const since = await lastJobId(dataSource);
    finished = expectRuns(JOBS);
    const started = process.hrtime.bigint();
    await enqueue(unitOfWork, JOBS);
    const enqueuedMs = Number(process.hrtime.bigint() - started) / 1e6;
    await finished;
    const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
    const { p50, p99 } = await latency(dataSource, since);
    process.stdout.write(
      `${label.padEnd(30)} ${String(Math.round(JOBS / (totalMs / 1000))).padStart(6)} jobs/s end to end   ` +
        `(enqueue alone ${Math.round(JOBS / (enqueuedMs / 1000))}/s)   runAt->start p50 ${p50} ms, p99 ${p99} ms\n`,
    );
  } finally {
    for (const app of apps) await app.close();
  }
}

/** Claim + complete alone: JOBS jobs already queued, then `concurrency` workers start on them. */
async function drain(url, label, concurrency) {
  const app = await startReplica(url, { JOBS_ENABLED: 'false', JOBS_CONCURRENCY: String(concurrency) });
  try {
    await enqueue(app.get(UnitOfWork), JOBS);
    const finished = expectRuns(JOBS);
    const started = process.hrtime.bigint();
    app.get(JobWorker).start();
    await finished;
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    process.stdout.write(`${label.padEnd(30)} ${String(Math.round(JOBS / (ms / 1000))).padStart(6)} jobs/s claimed and completed\n`);
  } finally {
    await app.close();
  }
}

/** Claim latency without a backlog: one job every 20 ms (NOTIFY wakes the worker), then jobs due later (polling). */
async function idleLatency(url) {
  const app = await startReplica(url, { JOBS_CONCURRENCY: '4' });
  try {
    const { DataSource } = require('typeorm');
    const dataSource = app.get(DataSource);
    const unitOfWork = app.get(UnitOfWork);
    let since = await lastJobId(dataSource);
    let finished = expectRuns(300);
    for (let i = 0; i < 300; i++) {
      await unitOfWork.run((scope) => scope.enqueue({ name: JOB, payload: { i } }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await finished;
    let figures = await latency(dataSource, since);
    process.stdout.write(`${'due now, no backlog (NOTIFY)'.padEnd(30)} runAt->start p50 ${figures.p50} ms, p99 ${figures.p99} ms\n`);

    since = await lastJobId(dataSource);
    finished = expectRuns(200);
    const base = Date.now() + 500;
    await enqueue(unitOfWork, 200, (i) => new Date(base + i * 20));
    await finished;
    figures = await latency(dataSource, since);
    process.stdout.write(
      `${'scheduled runAt (poll 2000 ms)'.padEnd(30)} runAt->start p50 ${figures.p50} ms, p99 ${figures.p99} ms\n`,
    );
  } finally {
    await app.close();
  }
}

async function main() {
  const database = await throwAwayDatabase('jobs');
  try {
    process.stdout.write(`bench:jobs: ${JOBS} jobs per figure, ${PRODUCERS} producers, one transaction per job\n`);
    // The first replica migrates the database.
    await (await startReplica(database.url, { JOBS_ENABLED: 'false' })).close();
    await throughput(database.url, '1 worker', 1, 1);
    await throughput(database.url, '4 workers (1 replica x 4)', 1, 4);
    await throughput(database.url, '4 workers (2 replicas x 2)', 2, 2);
    await drain(database.url, 'drain a backlog, 1 worker', 1);
    await drain(database.url, 'drain a backlog, 4 workers', 4);
    await idleLatency(database.url);
  } finally {
    await database.drop();
  }
}

main().catch(fail('bench:jobs'));
