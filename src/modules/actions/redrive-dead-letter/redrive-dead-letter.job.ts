import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter } from 'prom-client';
import { DataSource } from 'typeorm';
import { SmtpFailure } from '../domain/delivery-schedule';
import { JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { EMAIL_DELIVERIES_TOTAL } from '../mail/delivery-metrics';
import { MailTransport } from '../mail/mail-transport';
import { DeadLetterEntity } from '../persistence/dead-letter.entity';
import type { DeliveryAttempt } from '../persistence/email-delivery.entity';
import { attemptOfFailure } from '../send-email-deliveries/delivery-sender';

export const REDRIVE_DEAD_LETTER_JOB = 'actions.dead-letter.redrive';

/**
 * The one attempt of a redrive: the dead letter's rendered message, with the delivery's `Message-ID`. Accepted:
 * the dead letter is `redriven` and its delivery `sent`; refused: back to `open` with `attempts` + 1 and the new
 * error. Both record the attempt in the delivery log.
 */
@Injectable()
@JobHandler({ name: REDRIVE_DEAD_LETTER_JOB, queue: 'email', maxAttempts: 10 })
export class RedriveDeadLetterJob implements JobHandlerInstance<{ deadLetterId: string }> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly transport: MailTransport,
    @InjectMetric(EMAIL_DELIVERIES_TOTAL) private readonly outcomes: Counter<string>,
  ) {}

  async handle({ deadLetterId }: { deadLetterId: string }): Promise<void> {
    const letter = await this.dataSource.getRepository(DeadLetterEntity).findOneBy({ deadLetterId });
    if (!letter || letter.status !== 'redrive_pending') return;
    const at = new Date();
    let attempt: DeliveryAttempt;
    let failure: SmtpFailure | null = null;
    try {
      const accepted = await this.transport.send({
        to: letter.recipientEmail,
        messageId: letter.messageId,
        subject: letter.subject,
        text: letter.bodyText,
        html: letter.bodyHtml,
      });
      attempt = { at: at.toISOString(), smtpCode: accepted.smtpCode, smtpReply: accepted.smtpReply };
    } catch (error) {
      failure = error instanceof SmtpFailure ? error : new SmtpFailure('send_error', String(error).slice(0, 500), true, null, null);
      attempt = attemptOfFailure(at, failure);
    }
    await this.dataSource.transaction(async (manager) => {
      if (failure === null) {
        await manager.query(
          `UPDATE dead_letters SET status = 'redriven', redriven_at = clock_timestamp(), last_attempt_at = $2 WHERE dead_letter_id = $1`,
          [deadLetterId, attempt.at],
        );
      } else {
        await manager.query(
          `UPDATE dead_letters SET status = 'open', attempts = attempts + 1, last_error = $2::jsonb, last_attempt_at = $3 WHERE dead_letter_id = $1`,
          [deadLetterId, JSON.stringify({ code: failure.code, message: failure.message }), attempt.at],
        );
      }
      await manager.query(
        `UPDATE email_deliveries
            SET attempts = attempts || jsonb_build_array($2::jsonb), attempt_count = attempt_count + 1, updated_at = clock_timestamp(),
                status = CASE WHEN $3::boolean THEN 'sent' ELSE status END,
                sent_at = CASE WHEN $3::boolean THEN clock_timestamp() ELSE sent_at END,
                ended_at = CASE WHEN $3::boolean THEN clock_timestamp() ELSE ended_at END
          WHERE email_delivery_id = $1`,
        [letter.emailDeliveryId, JSON.stringify(attempt), failure === null],
      );
    });
    this.outcomes.inc({ outcome: failure === null ? 'sent' : 'dead_lettered' });
  }
}
