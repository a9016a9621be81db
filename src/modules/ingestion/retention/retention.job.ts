import { Injectable, Logger } from '@nestjs/common';
import { JobContext, JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { RetentionSweeper } from './retention-sweeper';

export const RETENTION_JOB = 'ingestion.retention';
export const RETENTION_INTERVAL_MS = 3_600_000;

/**
 * Every hour, one instance across replicas: deletes raw messages and dedup keys past retention
 * (RetentionSweeper). Stops between batches when the worker shuts down; the next run continues where it left off.
 */
@Injectable()
@JobHandler({ name: RETENTION_JOB, everyMs: RETENTION_INTERVAL_MS })
export class RetentionJob implements JobHandlerInstance {
  private readonly logger = new Logger('Retention');

  constructor(private readonly sweeper: RetentionSweeper) {}

  async handle(_payload: object, context: JobContext): Promise<void> {
    const result = await this.sweeper.run({ signal: context.signal });
    if (result.rawMessages + result.dedupKeys === 0 && !result.yielded && !result.aborted) return;
    this.logger.log(
      `Deleted ${result.rawMessages} raw messages, ${result.dedupKeys} dedup keys in ${result.durationMs} ms` +
        (result.yielded ? ' (another replica is sweeping)' : '') +
        (result.aborted ? ' (stopped by shutdown)' : ''),
    );
  }
}
