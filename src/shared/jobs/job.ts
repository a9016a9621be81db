import { DiscoveryService } from '@nestjs/core';

/** A payload is a JSON object: it is stored as jsonb and handed to the handler as parsed JSON. */
export type JobPayload = Record<string, unknown>;

/** What a caller asks to run. */
export interface JobSpec<P extends object = JobPayload> {
  /** The registered handler's name. */
  name: string;
  payload?: P;
  /** Not before this time; now when absent. */
  runAt?: Date;
  /**
   * Dedup key: while a job with this key is pending or running, enqueueing another one with the same key
   * does nothing (enqueue returns null).
   */
  key?: string;
}

/** What a handler sees of the job it runs. */
export interface JobContext {
  readonly jobId: string;
  readonly name: string;
  /** 1 on the first run. */
  readonly attempt: number;
  readonly maxAttempts: number;
  /** Aborted when a graceful stop runs out of time; a long handler should give up when it fires. */
  readonly signal: AbortSignal;
}

export interface JobHandlerOptions {
  /** Lower-case, dotted: `identity.login-throttle.prune`. Unique across the process. */
  name: string;
  /** Groups jobs for metrics and claims; `default` when absent. */
  queue?: string;
  /** Runs before the job is dead; JOBS_MAX_ATTEMPTS when absent. */
  maxAttempts?: number;
  /** First retry delay, doubled on each further failure; JOBS_BACKOFF_BASE_MS when absent. */
  backoffBaseMs?: number;
  /**
   * Recurring housekeeping: the job is kept scheduled every `everyMs` milliseconds, with at most one pending or
   * running instance across all replicas.
   */
  everyMs?: number;
}

/**
 * A provider that runs one kind of job. A thrown error fails the attempt: the job is retried with exponential
 * backoff, and is dead after its last attempt. Handlers must be idempotent: a job whose worker died after the
 * work but before recording it runs again.
 */
export interface JobHandlerInstance<P extends object = JobPayload> {
  handle(payload: P, context: JobContext): Promise<void>;
}

/**
 * Marks a provider as the handler of the named job. The provider must be listed in its feature module's
 * providers; the worker discovers it at start.
 */
export const JobHandler = DiscoveryService.createDecorator<JobHandlerOptions>();

export const JOB_NAME_PATTERN = /^[a-z][a-z0-9_.:-]{0,99}$/;
export const DEFAULT_QUEUE = 'default';
/** The channel workers LISTEN on; the payload is the queue name. */
export const JOBS_CHANNEL = 'uplink_jobs';

/** First retry after `baseMs`, doubling per failed attempt, capped at one hour. */
export function retryDelayMs(failedAttempt: number, baseMs: number): number {
  const exponent = Math.min(Math.max(failedAttempt - 1, 0), 30);
  return Math.min(baseMs * 2 ** exponent, 3_600_000);
}
