import { Injectable } from '@nestjs/common';
import { JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { DeliverySender, SEND_EMAIL_JOB } from './delivery-sender';

export { SEND_EMAIL_JOB } from './delivery-sender';

/**
 * One attempt of one e-mail delivery (`{ emailDeliveryId }`). SMTP failures are the delivery's own schedule (the
 * sender records them and enqueues the next attempt); a thrown error (database trouble, another worker sending
 * the same delivery right now) retries the job itself.
 */
@Injectable()
@JobHandler({ name: SEND_EMAIL_JOB, queue: 'email', maxAttempts: 30 })
export class SendEmailDeliveryJob implements JobHandlerInstance<{ emailDeliveryId: string }> {
  constructor(private readonly sender: DeliverySender) {}

  async handle(payload: { emailDeliveryId: string }): Promise<void> {
    await this.sender.attempt(payload.emailDeliveryId);
  }
}
