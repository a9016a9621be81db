import { Injectable, Logger } from '@nestjs/common';
import { JobContext, JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { ExecutionRetentionSweeper } from './execution-retention-sweeper';

export const EXECUTION_RETENTION_JOB = 'processing.execution-retention';
export const EXECUTION_RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Every hour, one instance across replicas: deletes flow executions past EXECUTION_RETENTION_DAYS
 * (ExecutionRetentionSweeper). Stops between batches when the worker shuts down; the next run continues.
 */
@Injectable()
@JobHandler({ name: EXECUTION_RETENTION_JOB, everyMs: EXECUTION_RETENTION_INTERVAL_MS })
export class ExecutionRetentionJob implements JobHandlerInstance {
  private readonly logger = new Logger('Retention');

  constructor(private readonly sweeper: ExecutionRetentionSweeper) {}

  async handle(_payload: object, context: JobContext): Promise<void> {
    const result = await this.sweeper.run({ signal: context.signal });
    if (result.executions === 0 && !result.yielded && !result.aborted) return;
    this.logger.log(
      `Deleted ${result.executions} flow executions in ${result.durationMs} ms` +
        (result.yielded ? ' (another replica is sweeping)' : '') +
        (result.aborted ? ' (stopped by shutdown)' : ''),
    );
  }
}
