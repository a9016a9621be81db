import { Injectable, Logger } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobContext, JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';

export const ACTIONS_RETENTION_JOB = 'actions.retention';
/** Deliveries and dead letters are kept this long after they end (sent, suppressed, redriven). */
export const DELIVERY_RETENTION_DAYS = 30;
const BATCH = 1000;

/**
 * Every hour, one instance across replicas: deletes deliveries 30 days after they ended and dead letters 30 days
 * after they left `open` (redriven), in batches. An open dead letter and its delivery are kept until redriven.
 */
@Injectable()
@JobHandler({ name: ACTIONS_RETENTION_JOB, everyMs: 3_600_000 })
export class ActionsRetentionJob implements JobHandlerInstance {
  private readonly logger = new Logger('Retention');

  constructor(private readonly dataSource: DataSource) {}

  async handle(_payload: object, context: JobContext): Promise<void> {
    const deliveries = await this.sweep(
      `DELETE FROM email_deliveries WHERE email_delivery_id IN (
         SELECT email_delivery_id FROM email_deliveries
          WHERE ended_at < clock_timestamp() - make_interval(days => $1) LIMIT $2)`,
      context,
    );
    const deadLetters = await this.sweep(
      `DELETE FROM dead_letters WHERE dead_letter_id IN (
         SELECT dead_letter_id FROM dead_letters
          WHERE status = 'redriven' AND redriven_at < clock_timestamp() - make_interval(days => $1) LIMIT $2)`,
      context,
    );
    if (deliveries + deadLetters > 0) this.logger.log(`Deleted ${deliveries} e-mail deliveries, ${deadLetters} dead letters`);
  }

  private async sweep(sql: string, context: JobContext): Promise<number> {
    let total = 0;
    while (!context.signal.aborted) {
      const [, count] = (await this.dataSource.query(sql, [DELIVERY_RETENTION_DAYS, BATCH])) as [unknown, number];
      total += count;
      if (count < BATCH) break;
    }
    return total;
  }
}
