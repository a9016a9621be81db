import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { RetentionOptions, retentionBatchSql as batchSql, RetentionTarget, SweepOutcome, sweepRetention } from '../../../shared/retention/retention-sweep';
import { DEDUP_EXPIRY } from '../ingest/deduplication';

export { RETENTION_BATCH_SIZE, type RetentionOptions } from '../../../shared/retention/retention-sweep';

/** The advisory lock every batch holds for its transaction: two replicas never delete at the same time. */
export const RETENTION_LOCK_KEY = 4_711_2028;

export interface RetentionCounts {
  rawMessages: number;
  dedupKeys: number;
}

export type RetentionResult = RetentionCounts & SweepOutcome;

const TARGETS: RetentionTarget<keyof RetentionCounts>[] = [
  // A pinned message stays while a fixture references it; a pending one stays until it is processed, so an
  // acknowledged uplink is never dropped unprocessed (a backlog that old shows in ingestion_lag_seconds).
  { kind: 'rawMessages', table: 'raw_ingestion_messages', column: 'received_at', kept: `pinned OR processing_status = 'pending'`, inclusive: false },
  { kind: 'dedupKeys', ...DEDUP_EXPIRY },
];

const BATCH_SQL = new Map(TARGETS.map((target) => [target.kind, batchSql(target)]));

/** The batch statement of one kind of row ($1 cursor, $2 cutoff, $3 batch size), for EXPLAIN in bench:retention. */
export const retentionBatchSql = (kind: keyof RetentionCounts): string => BATCH_SQL.get(kind)!;

/**
 * Deletes ingestion's rows past retention: raw messages received more than RAW_RETENTION_DAYS ago (except pinned
 * and pending ones) and expired dedup keys, in short batches under the retention lock (see sweepRetention).
 * Flow executions are processing's (ExecutionRetentionSweeper).
 */
@Injectable()
export class RetentionSweeper {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async run(options: RetentionOptions = {}): Promise<RetentionResult> {
    const [cutoffs] = await this.dataSource.query<Record<keyof RetentionCounts, string>[]>(
      `SELECT (clock_timestamp() - make_interval(days => $1))::text AS "rawMessages", clock_timestamp()::text AS "dedupKeys"`,
      [this.config.rawRetentionDays],
    );
    return sweepRetention(
      this.dataSource,
      RETENTION_LOCK_KEY,
      TARGETS.map((target) => ({ target, sql: BATCH_SQL.get(target.kind)!, cutoff: cutoffs![target.kind] })),
      options,
    );
  }
}
