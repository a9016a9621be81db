import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobContext, JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { JobQueue } from '../../../shared/jobs/job-queue';
import { SEND_EMAIL_JOB } from '../send-email-deliveries/delivery-sender';

export const RELEASE_HELD_DELIVERIES_JOB = 'actions.email.release';
const BATCH = 200;

/** After a resume: the tenant's `held` deliveries back to `queued`, each with its send job, while the switch stays `running`. */
@Injectable()
@JobHandler({ name: RELEASE_HELD_DELIVERIES_JOB, maxAttempts: 20 })
export class ReleaseHeldDeliveriesJob implements JobHandlerInstance<{ tenantId: string }> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly jobs: JobQueue,
  ) {}

  async handle({ tenantId }: { tenantId: string }, context: JobContext): Promise<void> {
    while (!context.signal.aborted) {
      const released = await this.dataSource.transaction(async (manager) => {
        const [rows] = await manager.query<[{ email_delivery_id: string }[], number]>(
          `UPDATE email_deliveries d SET status = 'queued', next_attempt_at = clock_timestamp(), updated_at = clock_timestamp()
            WHERE d.email_delivery_id IN (
                    SELECT email_delivery_id FROM email_deliveries WHERE tenant_id = $1 AND status = 'held'
                     ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED)
              AND EXISTS (SELECT 1 FROM action_kill_switches k WHERE k.tenant_id = $1 AND k.state = 'running')
           RETURNING d.email_delivery_id`,
          [tenantId, BATCH],
        );
        for (const row of rows) await this.jobs.enqueue({ name: SEND_EMAIL_JOB, payload: { emailDeliveryId: row.email_delivery_id } }, manager);
        return rows.length;
      });
      if (released < BATCH) return;
    }
  }
}
