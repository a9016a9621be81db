import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import { BeforeApplicationShutdown, Injectable, Logger, OnApplicationBootstrap, Optional } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Client, Pool, PoolClient } from 'pg';
import { Counter, Gauge, Histogram } from 'prom-client';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { reportConnectionLoss, ShutdownState } from '../lifecycle/shutdown-state';
import { JOBS_CHANNEL, JobContext, retryDelayMs } from './job';
import { JOB_CLAIM_LATENCY, JOB_DURATION, JOBS_PROCESSED_TOTAL, JOBS_QUEUE_DEPTH } from './job-metrics';
import { JobRegistry, RegisteredJob } from './job-registry';

interface ClaimedJob {
  job_id: string;
  queue: string;
  name: string;
  payload: Record<string, unknown>;
  attempts: number;
  max_attempts: number;
  waited_s: number;
}

type Outcome = 'completed' | 'retried' | 'dead';

const DEPTH_SAMPLE_MS = 15_000;
const RECURRING_CHECK_MS = 30_000;
const LISTEN_RETRY_MS = 1_000;
const REAP_BATCH = 100;
const MAX_ERROR_LENGTH = 4_000;

/** The dedup key that keeps one pending or running instance of a recurring job across replicas. */
export function recurringKey(name: string): string {
  return `recurring:${name}`;
}

/**
 * Runs the registered jobs of this process, at most JOBS_CONCURRENCY at a time.
 *
 * - Claims: one statement takes due pending jobs with `FOR UPDATE SKIP LOCKED`, so concurrent workers on any
 *   replica never take the same job, and marks them running under a lease of JOBS_LEASE_MS that this process
 *   renews while the handler runs. A job whose lease runs out (its process died or hung) is put back, or is dead
 *   if it had used its last attempt.
 * - Wake-ups: PostgreSQL NOTIFY from the enqueueing transaction (delivered at COMMIT) on a dedicated LISTEN
 *   connection, polling every JOBS_POLL_INTERVAL_MS as the fallback and for jobs scheduled later.
 * - Results are recorded only while the lease is still this attempt's (same owner and attempt number), so a
 *   worker that lost its lease never overwrites the newer attempt.
 * - Graceful stop: on shutdown nothing more is claimed and running jobs get SHUTDOWN_TIMEOUT_MS to finish; after
 *   that their abort signal fires and their leases expire, so another replica retries them.
 */
@Injectable()
export class JobWorker implements OnApplicationBootstrap, BeforeApplicationShutdown {
  readonly workerId = `${hostname().slice(0, 60)}:${process.pid}:${randomBytes(4).toString('hex')}`;
  private readonly logger = new Logger('Jobs');
  private state: 'idle' | 'running' | 'stopping' | 'stopped' = 'idle';
  private readonly active = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private readonly timers: NodeJS.Timeout[] = [];
  private heartbeat: NodeJS.Timeout | null = null;
  private ticking: Promise<void> | null = null;
  private tickAgain = false;
  /** The last claim filled every free slot, so a finishing job should look for more at once. */
  private saturated = false;
  private listener: Client | null = null;
  private pool: Pool | null = null;
  private lastRecurringCheck = 0;
  private reapDue = true;
  private lastClaimFailureLog = 0;
  private queues: string[] = [];
  private names: string[] = [];

  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: JobRegistry,
    private readonly config: AppConfig,
    @InjectMetric(JOBS_PROCESSED_TOTAL) private readonly processed: Counter<string>,
    @InjectMetric(JOB_DURATION) private readonly duration: Histogram<string>,
    @InjectMetric(JOB_CLAIM_LATENCY) private readonly claimLatency: Histogram<string>,
    @InjectMetric(JOBS_QUEUE_DEPTH) private readonly depth: Gauge<string>,
    @Optional() private readonly shutdown?: ShutdownState,
  ) {}

  onApplicationBootstrap(): void {
    if (this.config.jobsEnabled) this.start();
  }

  async beforeApplicationShutdown(): Promise<void> {
    await this.stop(this.config.shutdownTimeoutMs);
  }

  get isRunning(): boolean {
    return this.state === 'running';
  }

  /** The notification connection is up (otherwise only polling finds new jobs). */
  get isListening(): boolean {
    return this.listener !== null;
  }

  /** An idle connection of the pool was ended by the server or the network; the pool opens a new one when needed. */
  private connectionLost(error: unknown): void {
    reportConnectionLoss(this.logger, `Job worker connection lost: ${describe(error)}`, () => this.state !== 'running' || this.shutdown?.isShuttingDown === true);
  }

  /** Jobs this process is running now. */
  get activeCount(): number {
    return this.active.size;
  }

  start(): void {
    if (this.state !== 'idle') return;
    const url = this.databaseUrl();
    // The worker's own bookkeeping (claims, results, leases) commits without waiting for the WAL flush: a
    // database crash can lose only its last moments, which puts a job back to an earlier state (pending, or
    // running under a lease that expires), and so at worst runs it again, which at-least-once delivery allows.
    // Jobs are enqueued by the application's transactions, which keep the server's synchronous commit.
    this.pool = new Pool({
      connectionString: url,
      max: this.config.jobsConcurrency + 2,
      application_name: 'uplink-jobs',
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
      statement_timeout: this.config.dbStatementTimeoutMs || undefined,
      options: '-c synchronous_commit=off',
    });
    this.pool.on('error', (error) => this.connectionLost(error));
    const jobs = this.registry.all();
    this.names = jobs.map((job) => job.name);
    this.queues = [...new Set(jobs.map((job) => job.queue))];
    this.state = 'running';
    this.every(this.config.jobsPollIntervalMs, () => {
      this.reapDue = true;
      this.wake();
    });
    this.every(DEPTH_SAMPLE_MS, () => void this.sampleDepth());
    this.heartbeat = setInterval(() => void this.renewLeases(), Math.max(Math.floor(this.config.jobsLeaseMs / 3), 20));
    this.heartbeat.unref();
    void this.listen();
    void this.sampleDepth();
    this.wake();
    this.logger.log(
      `Worker ${this.workerId} started: ${this.names.length} job types, concurrency ${this.config.jobsConcurrency}, ` +
        `poll ${this.config.jobsPollIntervalMs} ms, lease ${this.config.jobsLeaseMs} ms`,
    );
  }

  /**
   * Stops claiming, then waits up to `timeoutMs` for running jobs. Jobs still running after that are told to
   * abort and left to their leases.
   */
  async stop(timeoutMs: number): Promise<void> {
    if (this.state !== 'running') {
      if (this.state === 'idle') this.state = 'stopped';
      return;
    }
    this.state = 'stopping';
    for (const timer of this.timers.splice(0)) clearInterval(timer);
    const listener = this.listener;
    this.listener = null;
    await listener?.end().catch(() => undefined);
    await this.ticking;
    const running = [...this.active.values()];
    if (running.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      const finished = await Promise.race([
        Promise.allSettled(running.map((job) => job.done)).then(() => true),
        new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs))),
      ]);
      clearTimeout(timer);
      if (!finished) {
        this.logger.warn(`${this.active.size} job(s) still running after ${timeoutMs} ms; aborting, their leases will expire`);
        for (const job of this.active.values()) job.abort.abort(new Error('worker stopping'));
      }
    }
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.state = 'stopped';
    await this.pool?.end().catch(() => undefined);
    this.logger.log(`Worker ${this.workerId} stopped`);
  }

  /** Looks for due jobs now (a notification, a poll, a freed slot). Calls made while a look is running coalesce. */
  wake(): void {
    if (this.state !== 'running') return;
    if (this.ticking) {
      this.tickAgain = true;
      return;
    }
    this.ticking = this.tick()
      .catch((error: unknown) => {
        // A database that is down (or not migrated yet) fails every poll: say so once a minute, not every time.
        if (Date.now() - this.lastClaimFailureLog < 60_000) return;
        this.lastClaimFailureLog = Date.now();
        this.logger.warn(`Claiming jobs failed: ${describe(error)}`);
      })
      .finally(() => {
        this.ticking = null;
        if (this.tickAgain) {
          this.tickAgain = false;
          this.wake();
        }
      });
  }

  private readonly sql: Sql = async <T>(text: string, values: unknown[] = []): Promise<T[]> => {
    if (!this.pool) throw new Error('job worker not started');
    return (await this.pool.query(text, values)).rows as T[];
  };

  private async transaction<T>(work: (sql: Sql) => Promise<T>): Promise<T> {
    if (!this.pool) throw new Error('job worker not started');
    const client: PoolClient = await this.pool.connect();
    // A checked-out client has no pool listener: a connection lost between statements would be an unhandled
    // 'error' event. The failing statement reports it; the listener only keeps the process up.
    let broken = false;
    const swallow = (): void => {
      broken = true;
    };
    client.on('error', swallow);
    try {
      await client.query('BEGIN');
      const result = await work(async <R>(text: string, values: unknown[] = []) => (await client.query(text, values)).rows as R[]);
      await client.query('COMMIT');
      return result;
    } catch (error) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      client.off('error', swallow);
      // A lost connection is destroyed rather than handed to the next claim.
      client.release(broken);
    }
  }

  private databaseUrl(): string {
    const url = (this.dataSource.options as { url?: string }).url;
    if (!url) throw new Error('The job worker needs the database URL of the data source');
    return url;
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }

  private async tick(): Promise<void> {
    if (Date.now() - this.lastRecurringCheck >= RECURRING_CHECK_MS) await this.ensureRecurring();
    // Expired leases are looked for once per poll, not on every wake-up.
    if (this.reapDue) {
      this.reapDue = false;
      await this.reapExpiredLeases();
    }
    while (this.state === 'running') {
      const free = this.config.jobsConcurrency - this.active.size;
      if (free <= 0) {
        this.saturated = true;
        return;
      }
      const claimed = await this.claim(free);
      for (const job of claimed) this.launch(job);
      this.saturated = claimed.length === free;
      if (!this.saturated) return;
    }
  }

  /**
   * `run_at <= now()` (the statement's start time, a stable value) bounds the index scan of jobs_due_idx, so
   * jobs scheduled for later are never read; queue and name are filters on the rows found.
   */
  private async claim(limit: number): Promise<ClaimedJob[]> {
    if (this.names.length === 0) return [];
    return this.sql<ClaimedJob>(
      `WITH due AS (
         SELECT job_id FROM jobs
          WHERE state = 'pending' AND run_at <= now() AND queue = ANY($1) AND name = ANY($2)
          ORDER BY run_at, job_id
          LIMIT $3
          FOR UPDATE SKIP LOCKED)
       UPDATE jobs j
          SET state = 'running', attempts = j.attempts + 1, locked_by = $4, started_at = clock_timestamp(),
              locked_until = clock_timestamp() + make_interval(secs => $5::double precision)
         FROM due
        WHERE j.job_id = due.job_id
       RETURNING j.job_id::text AS job_id, j.queue, j.name, j.payload, j.attempts, j.max_attempts,
                 extract(epoch FROM j.started_at - j.run_at)::float8 AS waited_s`,
      [this.queues, this.names, limit, this.workerId, this.config.jobsLeaseMs / 1000],
    );
  }

  private launch(job: ClaimedJob): void {
    const abort = new AbortController();
    const done = this.execute(job, this.registry.get(job.name), abort.signal)
      .catch((error: unknown) => this.logger.error(`Job ${job.name} #${job.job_id}: ${describe(error)}`))
      .finally(() => {
        this.active.delete(job.job_id);
        if (this.saturated) this.wake();
      });
    this.active.set(job.job_id, { done, abort });
  }

  private async execute(job: ClaimedJob, registered: RegisteredJob, signal: AbortSignal): Promise<void> {
    this.claimLatency.observe({ queue: job.queue }, Math.max(0, job.waited_s));
    const context: JobContext = {
      jobId: job.job_id,
      name: job.name,
      attempt: job.attempts,
      maxAttempts: job.max_attempts,
      signal,
    };
    const started = process.hrtime.bigint();
    let failure: unknown = null;
    try {
      await registered.handler.handle(job.payload, context);
    } catch (error) {
      failure = error ?? new Error('job failed');
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const outcome = failure === null ? await this.complete(job, registered) : await this.fail(job, registered, failure);
    if (outcome === null) {
      this.logger.warn(`Job ${job.name} #${job.job_id}: lease lost before its result was recorded; another attempt owns it`);
      return;
    }
    const labels = { queue: job.queue, name: job.name, outcome };
    this.processed.inc(labels);
    this.duration.observe(labels, seconds);
    if (outcome === 'dead') this.logger.error(`Job ${job.name} #${job.job_id} is dead after ${job.attempts} attempts: ${describe(failure)}`);
    else if (outcome === 'retried') this.logger.warn(`Job ${job.name} #${job.job_id} attempt ${job.attempts} failed: ${describe(failure)}`);
  }

  /** Null when this attempt no longer holds the lease. */
  private async complete(job: ClaimedJob, registered: RegisteredJob): Promise<Outcome | null> {
    const recordCompletion = async (sql: Sql): Promise<Outcome | null> => {
      const rows = await sql(
        `UPDATE jobs SET state = 'completed', finished_at = clock_timestamp(), locked_by = NULL, locked_until = NULL,
                last_error = NULL
          WHERE job_id = $1 AND state = 'running' AND locked_by = $2 AND attempts = $3
         RETURNING 1`,
        [job.job_id, this.workerId, job.attempts],
      );
      if (rows.length === 0) return null;
      if (registered.everyMs !== null) await this.scheduleNext(sql, registered);
      return 'completed';
    };
    return registered.everyMs === null ? recordCompletion(this.sql) : this.transaction(recordCompletion);
  }

  private async fail(job: ClaimedJob, registered: RegisteredJob, error: unknown): Promise<Outcome | null> {
    const recordFailure = async (sql: Sql): Promise<Outcome | null> => {
      const rows = await sql<{ state: 'pending' | 'dead' }>(
        `UPDATE jobs
            SET state = CASE WHEN attempts >= max_attempts THEN 'dead' ELSE 'pending' END,
                run_at = CASE WHEN attempts >= max_attempts THEN run_at
                              ELSE clock_timestamp() + make_interval(secs => $4::double precision) END,
                finished_at = CASE WHEN attempts >= max_attempts THEN clock_timestamp() END,
                locked_by = NULL, locked_until = NULL, last_error = $5
          WHERE job_id = $1 AND state = 'running' AND locked_by = $2 AND attempts = $3
         RETURNING state`,
        [job.job_id, this.workerId, job.attempts, retryDelayMs(job.attempts, registered.backoffBaseMs) / 1000, describe(error, true)],
      );
      const state = rows[0]?.state;
      if (state === undefined) return null;
      if (state === 'dead' && registered.everyMs !== null) await this.scheduleNext(sql, registered);
      return state === 'dead' ? 'dead' : 'retried';
    };
    return registered.everyMs === null ? recordFailure(this.sql) : this.transaction(recordFailure);
  }

  private async scheduleNext(sql: Sql, registered: RegisteredJob): Promise<void> {
    await sql(
      `INSERT INTO jobs (queue, name, dedup_key, max_attempts, run_at)
       VALUES ($1, $2, $3, $4, clock_timestamp() + make_interval(secs => $5::double precision))
       ON CONFLICT (dedup_key) WHERE state IN ('pending', 'running') DO NOTHING`,
      [registered.queue, registered.name, recurringKey(registered.name), registered.maxAttempts, registered.everyMs! / 1000],
    );
  }

  /** Keeps one instance of each recurring job scheduled; the dedup key makes this a no-op when one exists. */
  private async ensureRecurring(): Promise<void> {
    this.lastRecurringCheck = Date.now();
    for (const job of this.registry.all()) {
      if (job.everyMs === null) continue;
      await this.sql(
        `INSERT INTO jobs (queue, name, dedup_key, max_attempts) VALUES ($1, $2, $3, $4)
         ON CONFLICT (dedup_key) WHERE state IN ('pending', 'running') DO NOTHING`,
        [job.queue, job.name, recurringKey(job.name), job.maxAttempts],
      );
    }
  }

  /** Jobs whose worker stopped renewing the lease: back to pending, or dead when that was the last attempt. */
  private async reapExpiredLeases(): Promise<void> {
    const rows = await this.sql<{ job_id: string; queue: string; name: string; state: string; owner: string }>(
      `WITH expired AS (
         SELECT job_id, locked_by FROM jobs
          WHERE state = 'running' AND locked_until < clock_timestamp()
          LIMIT ${REAP_BATCH}
          FOR UPDATE SKIP LOCKED)
       UPDATE jobs j
          SET state = CASE WHEN j.attempts >= j.max_attempts THEN 'dead' ELSE 'pending' END,
              finished_at = CASE WHEN j.attempts >= j.max_attempts THEN clock_timestamp() END,
              run_at = clock_timestamp(), locked_by = NULL, locked_until = NULL,
              last_error = 'lease expired: worker ' || expired.locked_by || ' stopped renewing it'
         FROM expired
        WHERE j.job_id = expired.job_id
       RETURNING j.job_id::text AS job_id, j.queue, j.name, j.state, expired.locked_by AS owner`,
    );
    for (const row of rows) {
      this.processed.inc({ queue: row.queue, name: row.name, outcome: 'lease_expired' });
      this.logger.warn(`Job ${row.name} #${row.job_id}: lease of ${row.owner} expired; now ${row.state}`);
    }
  }

  private async renewLeases(): Promise<void> {
    if (this.active.size === 0) return;
    await this.sql(
        `UPDATE jobs SET locked_until = clock_timestamp() + make_interval(secs => $3::double precision)
          WHERE job_id = ANY($1::bigint[]) AND state = 'running' AND locked_by = $2`,
        [[...this.active.keys()], this.workerId, this.config.jobsLeaseMs / 1000],
      )
      .catch((error: unknown) => this.logger.warn(`Renewing job leases failed: ${describe(error)}`));
  }

  private async sampleDepth(): Promise<void> {
    try {
      const rows = await this.sql<{ queue: string; state: string; count: number }>(
        `SELECT queue, state, count(*)::int AS count FROM jobs WHERE state IN ('pending', 'running') GROUP BY queue, state`,
      );
      this.depth.reset();
      for (const queue of this.queues) for (const state of ['pending', 'running']) this.depth.set({ queue, state }, 0);
      for (const row of rows) this.depth.set({ queue: row.queue, state: row.state }, row.count);
    } catch (error) {
      this.logger.debug(`Sampling the job queue depth failed: ${describe(error)}`);
    }
  }

  /** A dedicated connection LISTENing for enqueue notifications; reconnects while the worker runs. */
  private async listen(): Promise<void> {
    if (this.state !== 'running') return;
    const client = new Client({
      connectionString: this.databaseUrl(),
      application_name: 'uplink-jobs',
      connectionTimeoutMillis: this.config.dbConnectTimeoutMs,
    });
    let lost = false;
    const reconnect = (): void => {
      if (lost) return;
      lost = true;
      if (this.listener === client) this.listener = null;
      client.end().catch(() => undefined);
      if (this.state !== 'running') return;
      const timer = setTimeout(() => void this.listen(), LISTEN_RETRY_MS);
      timer.unref();
    };
    client.on('error', reconnect);
    client.on('end', reconnect);
    client.on('notification', (message) => {
      if (message.payload !== undefined && this.queues.includes(message.payload)) this.wake();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${JOBS_CHANNEL}`);
    } catch (error) {
      this.logger.debug(`Job notifications unavailable, polling only until reconnected: ${describe(error)}`);
      reconnect();
      return;
    }
    if (this.state !== 'running') {
      lost = true;
      await client.end().catch(() => undefined);
      return;
    }
    this.listener = client;
    // Anything enqueued while the connection was down is found now rather than at the next poll.
    this.wake();
  }
}

type Sql = <T = unknown>(text: string, values?: unknown[]) => Promise<T[]>;

function describe(error: unknown, withStack = false): string {
  const text = error instanceof Error ? (withStack && error.stack) || `${error.name}: ${error.message}` : String(error);
  return text.slice(0, MAX_ERROR_LENGTH);
}
