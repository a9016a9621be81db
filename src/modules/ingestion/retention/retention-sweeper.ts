import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { DEDUP_EXPIRY } from '../ingest/deduplication';

/** Rows deleted per batch: each batch is one short transaction. */
export const RETENTION_BATCH_SIZE = 5000;
/** The advisory lock every batch holds for its transaction: two replicas never delete at the same time. */
export const RETENTION_LOCK_KEY = 4_711_2028;

export interface RetentionCounts {
  rawMessages: number;
  executions: number;
  dedupKeys: number;
}

export interface RetentionResult extends RetentionCounts {
  /** Another replica held the retention lock, so this run stopped early and left the rest to it. */
  yielded: boolean;
  /** The abort signal fired and the run stopped between batches. */
  aborted: boolean;
  /** Batch transactions run. */
  batches: number;
  durationMs: number;
}

export interface RetentionOptions {
  signal?: AbortSignal;
  batchSize?: number;
}

/** One kind of old row: those whose `column` is before the cutoff, except those matching `kept`. */
interface Target {
  kind: keyof RetentionCounts;
  table: string;
  column: string;
  /** Old rows that stay anyway. */
  kept?: string;
  /** Whether a row exactly at the cutoff is old. */
  inclusive: boolean;
}

const TARGETS: Target[] = [
  // A pinned message stays while a fixture references it; a pending one stays until it is processed, so an
  // acknowledged uplink is never dropped unprocessed (a backlog that old shows in ingestion_lag_seconds).
  { kind: 'rawMessages', table: 'raw_ingestion_messages', column: 'received_at', kept: `pinned OR processing_status = 'pending'`, inclusive: false },
  // Their e-mail requests go with them (ON DELETE CASCADE).
  { kind: 'executions', table: 'flow_executions', column: 'started_at', inclusive: false },
  { kind: 'dedupKeys', ...DEDUP_EXPIRY },
];

/**
 * The batch of one target: up to $3 old rows picked in `column` order from the cursor $1 on (the index on
 * `column` is walked, never the table), deleted by physical address. The delete repeats the conditions: a row
 * changed since it was picked (pinned by a fixture, a dedup key taken over) is rechecked under its row lock
 * and kept. The next batch starts at the last picked time, so rows kept on the way and the index entries of
 * rows just deleted are passed once per run, not once per batch.
 */
function batchSql(target: Target): string {
  const before = `${target.column} ${target.inclusive ? '<=' : '<'} $2::timestamptz`;
  const kept = target.kept ? ` AND NOT (${target.kept})` : '';
  // The delete must find its rows by address alone (a TID scan): with the time condition as written, the
  // planner may prefer the time index and filter every old row by address, in each batch. `IS TRUE` makes the
  // recheck unusable for an index without changing its meaning (the column is never null).
  const recheck = `(${before}) IS TRUE${kept}`;
  return `
    WITH picked AS MATERIALIZED (
      SELECT ctid AS row_address, ${target.column} AS at
        FROM ${target.table}
       WHERE ${target.column} >= $1::timestamptz AND ${before}${kept}
       ORDER BY ${target.column}
       LIMIT $3
    ), gone AS (
      DELETE FROM ${target.table}
       WHERE ctid = ANY (ARRAY(SELECT row_address FROM picked)) AND ${recheck}
      RETURNING 1
    )
    SELECT (SELECT count(*) FROM picked)::int AS picked,
           (SELECT count(*) FROM gone)::int AS deleted,
           (SELECT max(at) FROM picked)::text AS last`;
}

const BATCH_SQL = new Map(TARGETS.map((target) => [target.kind, batchSql(target)]));

/** The batch statement of one kind of row ($1 cursor, $2 cutoff, $3 batch size), for EXPLAIN in bench:retention. */
export const retentionBatchSql = (kind: keyof RetentionCounts): string => BATCH_SQL.get(kind)!;

/**
 * Deletes what is past retention: raw messages received more than RAW_RETENTION_DAYS ago (except pinned and
 * pending ones), flow executions started more than EXECUTION_RETENTION_DAYS ago, and expired dedup keys.
 *
 * In batches of RETENTION_BATCH_SIZE rows walking the time index, each batch its own short transaction (locks
 * are held briefly, autovacuum can reclaim as it goes, and an interrupted run loses at most one batch), until a
 * batch finds fewer rows than its size. Each batch first takes a transaction-level advisory lock without
 * waiting; if another replica holds it, that replica is sweeping and this run stops.
 */
@Injectable()
export class RetentionSweeper {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async run(options: RetentionOptions = {}): Promise<RetentionResult> {
    const started = performance.now();
    const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
    const result: RetentionResult = { rawMessages: 0, executions: 0, dedupKeys: 0, yielded: false, aborted: false, batches: 0, durationMs: 0 };
    const [cutoffs] = await this.dataSource.query<Record<keyof RetentionCounts, string>[]>(
      `SELECT (clock_timestamp() - make_interval(days => $1))::text AS "rawMessages",
              (clock_timestamp() - make_interval(days => $2))::text AS "executions",
              clock_timestamp()::text AS "dedupKeys"`,
      [this.config.rawRetentionDays, this.config.executionRetentionDays],
    );
    targets: for (const target of TARGETS) {
      let cursor = '-infinity';
      for (;;) {
        if (options.signal?.aborted) {
          result.aborted = true;
          break targets;
        }
        const batch = await this.batch(target, cursor, cutoffs![target.kind], batchSize);
        if (batch === null) {
          result.yielded = true;
          break targets;
        }
        result.batches += 1;
        result[target.kind] += batch.deleted;
        if (batch.picked < batchSize || batch.deleted === 0) break;
        cursor = batch.last!;
      }
    }
    result.durationMs = Math.round(performance.now() - started);
    return result;
  }

  /** One batch in its own transaction; null when another replica holds the retention lock. */
  private batch(target: Target, cursor: string, cutoff: string, batchSize: number) {
    return this.dataSource.transaction(async (manager) => {
      const [{ locked }] = await manager.query<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock($1) AS locked', [RETENTION_LOCK_KEY]);
      if (!locked) return null;
      const [row] = await manager.query<{ picked: number; deleted: number; last: string | null }[]>(BATCH_SQL.get(target.kind)!, [cursor, cutoff, batchSize]);
      return row!;
    });
  }
}
