import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { JobQueue } from '../../../shared/jobs/job-queue';
import { RENDER_CONTEXT_SOURCE, RenderContextSource } from '../domain/delivery-ports';
import { retryDelayAfter, SmtpFailure } from '../domain/delivery-schedule';
import { EmailRenderContext, renderEmail } from '../domain/template-syntax';
import { EMAIL_DELIVERIES_TOTAL } from '../mail/delivery-metrics';
import { MailTransport } from '../mail/mail-transport';
import { ClaimedDelivery, EmailDeliveriesStore } from '../persistence/email-deliveries.store';
import type { DeliveryAttempt } from '../persistence/email-delivery.entity';

export const SEND_EMAIL_JOB = 'actions.email.send';

/** Another worker is sending the delivery right now: the job tries again later. */
export class DeliveryBusyError extends Error {}

export type AttemptOutcome = 'sent' | 'retried' | 'dead_lettered' | 'held' | 'skipped';

interface Rendered {
  versionId: string;
  subject: string;
  text: string;
  html: string | null;
}

/** The values a delivery renders when its execution is gone (retention) or never existed. */
export function emptyRenderContext(): EmailRenderContext {
  return {
    tenant: { name: '' },
    device: { name: null, devEui: null, metadata: {} },
    organizationUnit: null,
    values: {},
    observedAt: null,
    flow: { name: '' },
    parameters: {},
  };
}

/**
 * One attempt of one delivery, in one transaction: the delivery is claimed by locking its row (skipping a row
 * another worker holds, so two workers never both send it), rendered once from its template version (kept, so every
 * retry and the dead letter carry the same message), sent, and the attempt recorded before the commit releases the
 * lock. A process that dies between the server's acceptance and that commit leaves the delivery as it was: it is sent
 * again with the same `Message-ID` (at-least-once).
 */
@Injectable()
export class DeliverySender {
  private readonly logger = new Logger('EmailDelivery');

  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EmailDeliveriesStore,
    private readonly transport: MailTransport,
    private readonly jobs: JobQueue,
    private readonly config: AppConfig,
    @InjectMetric(EMAIL_DELIVERIES_TOTAL) private readonly outcomes: Counter<string>,
    @Inject(RENDER_CONTEXT_SOURCE) private readonly contexts: RenderContextSource,
  ) {}

  /** How long a claim protects a delivery being sent: beyond any SMTP exchange and the job's own lease. */
  get leaseMs(): number {
    return Math.max(this.config.jobsLeaseMs, 3 * this.config.smtpTimeoutMs);
  }

  async attempt(deliveryId: string): Promise<AttemptOutcome> {
    const token = randomUUID();
    // The whole attempt runs in one transaction holding the delivery's row lock, released only by its commit or by
    // the death of its connection: while this worker lives no other can take the delivery, however long the SMTP
    // exchange or an event-loop stall lasts. A process that dies after the server's acceptance and before the
    // commit leaves the row as it was: the delivery is sent again with its same Message-ID (at-least-once).
    const result = await this.quickly(async (tx) => {
      const delivery = await this.store.claim(tx, deliveryId, token, this.leaseMs);
      if (!delivery) return null;
      if (delivery.paused) {
        await this.store.hold(tx, deliveryId, token);
        return 'held' as const;
      }
      const rendered = await this.rendered(tx, delivery);
      const at = new Date();
      let attempt: DeliveryAttempt;
      let failure: SmtpFailure | null = null;
      try {
        const accepted = await this.transport.send({
          to: delivery.recipient_email,
          messageId: delivery.message_id,
          subject: rendered.subject,
          text: rendered.text,
          html: rendered.html,
        });
        attempt = { at: at.toISOString(), smtpCode: accepted.smtpCode, smtpReply: accepted.smtpReply };
      } catch (error) {
        failure = error instanceof SmtpFailure ? error : new SmtpFailure('send_error', String(error).slice(0, 500), true, null, null);
        attempt = attemptOfFailure(at, failure);
      }
      return this.record(tx, delivery, token, rendered, attempt, failure);
    });
    if (result === null) {
      const state = await this.store.stateOf(this.dataSource.manager, deliveryId);
      // A failed delivery whose retry is not due yet has its own job at that time: a second job (doubled, or an
      // early redelivery) leaves it alone rather than retrying it before its back-off.
      if (state && (state.status === 'queued' || (state.status === 'failed' && state.due))) {
        throw new DeliveryBusyError(`E-mail delivery ${deliveryId} is being sent by another worker`);
      }
      return 'skipped';
    }
    if (result !== 'skipped') this.outcomes.inc({ outcome: result });
    return result;
  }

  private async record(
    manager: EntityManager,
    delivery: ClaimedDelivery,
    token: string,
    rendered: Rendered,
    attempt: DeliveryAttempt,
    failure: SmtpFailure | null,
  ): Promise<AttemptOutcome> {
    const id = delivery.email_delivery_id;
    if (failure === null) {
      const recorded = await this.store.recordAttempt(manager, id, token, attempt, { status: 'sent' }, rendered);
      return recorded ? 'sent' : 'skipped';
    }
    const attempts = delivery.attempt_count + 1;
    const delay = failure.transient ? retryDelayAfter(attempts) : null;
    if (delay === null) {
      const firstAttemptAt = delivery.first_attempt_at ?? new Date(attempt.at);
      const lastError = { code: failure.code, message: failure.message };
      const deadLetterId = await this.store.createDeadLetter(manager, delivery, rendered, attempts, lastError, firstAttemptAt);
      const recorded = await this.store.recordAttempt(manager, id, token, attempt, { status: 'dead_lettered', deadLetterId }, rendered);
      if (!recorded) throw new DeliveryBusyError(`E-mail delivery ${id}: claim lost before its dead letter was recorded`);
      this.logger.warn(`E-mail delivery ${id} dead-lettered after ${attempts} attempt(s): ${failure.code}`);
      return 'dead_lettered';
    }
    const nextAttemptAt = new Date(Date.now() + delay);
    const recorded = await this.store.recordAttempt(manager, id, token, attempt, { status: 'failed', nextAttemptAt }, rendered);
    if (!recorded) return 'skipped';
    await this.jobs.enqueue({ name: SEND_EMAIL_JOB, payload: { emailDeliveryId: id }, runAt: nextAttemptAt }, manager);
    return 'retried';
  }

  /**
   * The delivery's message: kept from its first attempt, else rendered now from its version and its execution's
   * values (stored with the attempt's record, so every later attempt and the dead letter carry the same text).
   */
  private async rendered(manager: EntityManager, delivery: ClaimedDelivery): Promise<Rendered> {
    const versionId = delivery.email_template_version_id!;
    if (delivery.subject !== null && delivery.body_text !== null) {
      return { versionId, subject: delivery.subject, text: delivery.body_text, html: delivery.body_html };
    }
    const context =
      (delivery.flow_execution_id ? await this.contexts.forExecution(manager, delivery.tenant_id, delivery.flow_execution_id) : null) ??
      emptyRenderContext();
    const email = renderEmail(
      { subject: delivery.version_subject, bodyText: delivery.version_body_text, bodyHtml: delivery.version_body_html },
      context,
    );
    return { versionId, subject: email.subject, text: email.text, html: email.html };
  }

  /**
   * The claim and the record of an attempt commit without waiting for the WAL flush: a database crash can lose only
   * their last moments, which at worst sends a delivery again with its same Message-ID (at-least-once).
   */
  private quickly<T>(work: (manager: EntityManager) => Promise<T>): Promise<T> {
    return this.dataSource.transaction(async (manager) => {
      await manager.query(`SET LOCAL synchronous_commit = off`);
      return work(manager);
    });
  }
}

export function attemptOfFailure(at: Date, failure: SmtpFailure): DeliveryAttempt {
  return failure.smtpCode !== null
    ? { at: at.toISOString(), smtpCode: failure.smtpCode, smtpReply: failure.smtpReply ?? failure.message }
    : { at: at.toISOString(), error: { code: failure.code, message: failure.message } };
}
