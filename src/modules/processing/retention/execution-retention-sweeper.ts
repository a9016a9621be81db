import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { RetentionOptions, retentionBatchSql, RetentionTarget, SweepOutcome, sweepRetention } from '../../../shared/retention/retention-sweep';

/** The advisory lock of this sweep's batches: two replicas never delete executions at the same time. */
export const EXECUTION_RETENTION_LOCK_KEY = 4_711_2029;

export type ExecutionRetentionResult = { executions: number } & SweepOutcome;

// Their e-mail requests go with them (ON DELETE CASCADE).
const TARGET: RetentionTarget<'executions'> = { kind: 'executions', table: 'flow_executions', column: 'started_at', inclusive: false };

/** The batch statement ($1 cursor, $2 cutoff, $3 batch size), for EXPLAIN in bench:retention. */
export const EXECUTION_RETENTION_BATCH_SQL = retentionBatchSql(TARGET);

/**
 * Deletes flow executions (live and replay) started more than EXECUTION_RETENTION_DAYS ago, in short batches
 * under its own lock (see sweepRetention).
 */
@Injectable()
export class ExecutionRetentionSweeper {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  async run(options: RetentionOptions = {}): Promise<ExecutionRetentionResult> {
    const [{ cutoff }] = await this.dataSource.query<{ cutoff: string }[]>(`SELECT (clock_timestamp() - make_interval(days => $1))::text AS cutoff`, [
      this.config.executionRetentionDays,
    ]);
    return sweepRetention(this.dataSource, EXECUTION_RETENTION_LOCK_KEY, [{ target: TARGET, sql: EXECUTION_RETENTION_BATCH_SQL, cutoff }], options);
  }
}
