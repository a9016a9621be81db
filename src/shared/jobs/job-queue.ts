import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { JOBS_CHANNEL, JobSpec } from './job';
import { JobRegistry } from './job-registry';

/**
 * Writes jobs. Inside a command use `scope.enqueue` (the UnitOfWork's transaction): the job row commits or rolls
 * back with the command, so its side effect runs only after COMMIT. `enqueue` without a manager commits the job
 * on its own, for work started outside a command.
 */
@Injectable()
export class JobQueue {
  constructor(
    private readonly dataSource: DataSource,
    private readonly registry: JobRegistry,
  ) {}

  /**
   * Inserts the job through `manager` (its transaction when it has one) and notifies the workers, which
   * PostgreSQL delivers only at COMMIT. Returns the job id, or null when a job with the same key is already
   * pending or running.
   */
  async enqueue<P extends object>(spec: JobSpec<P>, manager: EntityManager = this.dataSource.manager): Promise<string | null> {
    const job = this.registry.get(spec.name);
    const payload = spec.payload ?? {};
    if (typeof payload !== 'object' || Array.isArray(payload)) throw new Error(`Job ${spec.name}: payload must be a JSON object`);
    if (spec.key !== undefined && (spec.key === '' || spec.key.length > 200)) {
      throw new Error(`Job ${spec.name}: key must have 1..200 characters`);
    }
    const runAt = spec.runAt ?? null;
    if (runAt !== null && Number.isNaN(runAt.getTime())) throw new Error(`Job ${spec.name}: runAt is not a valid date`);
    // A future job is found by polling; waking the workers for it now would find nothing due.
    const notify = runAt === null || runAt.getTime() <= Date.now();
    const rows = await manager.query<{ job_id: string }[]>(
      `WITH inserted AS (
         INSERT INTO jobs (queue, name, payload, dedup_key, max_attempts, run_at)
         VALUES ($1, $2, $3::jsonb, $4, $5, coalesce($6::timestamptz, clock_timestamp()))
         ON CONFLICT (dedup_key) WHERE state IN ('pending', 'running') DO NOTHING
         RETURNING job_id)
       SELECT job_id::text AS job_id, CASE WHEN $7::boolean THEN pg_notify('${JOBS_CHANNEL}', $1) END AS notified
         FROM inserted`,
      [job.queue, job.name, JSON.stringify(payload), spec.key ?? null, job.maxAttempts, runAt?.toISOString() ?? null, notify],
    );
    return rows[0]?.job_id ?? null;
  }
}
