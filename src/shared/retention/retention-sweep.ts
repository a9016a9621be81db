import type { DataSource } from 'typeorm';

/** Rows deleted per batch: each batch is one short transaction. */
export const RETENTION_BATCH_SIZE = 5000;

/** One kind of old row: those whose `column` is before the cutoff, except those matching `kept`. */
export interface RetentionTarget<Kind extends string> {
  kind: Kind;
  table: string;
  column: string;
  /** Old rows that stay anyway. */
  kept?: string;
  /** Whether a row exactly at the cutoff is old. */
  inclusive: boolean;
}

export interface RetentionOptions {
  signal?: AbortSignal;
  batchSize?: number;
}

export interface SweepOutcome {
  /** Another replica held the sweep's lock, so this run stopped early and left the rest to it. */
  yielded: boolean;
  /** The abort signal fired and the run stopped between batches. */
  aborted: boolean;
  /** Batch transactions run. */
  batches: number;
  durationMs: number;
}

/**
 * The batch of one target: up to $3 old rows picked in `column` order from the cursor $1 on (the index on
 * `column` is walked, never the table), deleted by physical address. The delete repeats the conditions: a row
 * changed since it was picked (pinned by a fixture, a dedup key taken over) is rechecked under its row lock
 * and kept. The next batch starts at the last picked time, so rows kept on the way and the index entries of
 * rows just deleted are passed once per run, not once per batch.
 */
export function retentionBatchSql(target: RetentionTarget<string>): string {
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

/**
 * Deletes the old rows of each target (its cutoff an instant as text), target after target, in batches of
 * `batchSize` rows walking the time index, each batch its own short transaction (locks are held briefly,
 * autovacuum can reclaim as it goes, and an interrupted run loses at most one batch), until a batch finds fewer
 * rows than its size. Each batch first takes the transaction-level advisory lock `lockKey` without waiting; if
 * another replica holds it, that replica is sweeping and this run stops.
 */
export async function sweepRetention<Kind extends string>(
  dataSource: DataSource,
  lockKey: number,
  targets: readonly { target: RetentionTarget<Kind>; sql: string; cutoff: string }[],
  options: RetentionOptions = {},
): Promise<Record<Kind, number> & SweepOutcome> {
  const started = performance.now();
  const batchSize = options.batchSize ?? RETENTION_BATCH_SIZE;
  const counts = Object.fromEntries(targets.map(({ target }) => [target.kind, 0])) as Record<Kind, number>;
  const outcome: SweepOutcome = { yielded: false, aborted: false, batches: 0, durationMs: 0 };
  targets: for (const { target, sql, cutoff } of targets) {
    let cursor = '-infinity';
    for (;;) {
      if (options.signal?.aborted) {
        outcome.aborted = true;
        break targets;
      }
      const batch = await dataSource.transaction(async (manager) => {
        const [{ locked }] = await manager.query<{ locked: boolean }[]>('SELECT pg_try_advisory_xact_lock($1) AS locked', [lockKey]);
        if (!locked) return null;
        const [row] = await manager.query<{ picked: number; deleted: number; last: string | null }[]>(sql, [cursor, cutoff, batchSize]);
        return row!;
      });
      if (batch === null) {
        outcome.yielded = true;
        break targets;
      }
      outcome.batches += 1;
      counts[target.kind] += batch.deleted;
      if (batch.picked < batchSize || batch.deleted === 0) break;
      cursor = batch.last!;
    }
  }
  outcome.durationMs = Math.round(performance.now() - started);
  return { ...counts, ...outcome };
}
