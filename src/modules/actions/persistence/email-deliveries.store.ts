import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JsonRows } from '../../../shared/database/json-rows';
import type { DeliveryAttempt, SuppressionReason } from './email-delivery.entity';

/** A delivery to create for one recipient of an action request. */
export interface NewDelivery {
  tenantId: string;
  actionRequestId: string | null;
  flowId: string | null;
  flowExecutionId: string | null;
  nodeId: string | null;
  deviceId: string | null;
  emailTemplateId: string;
  emailTemplateVersionId: string | null;
  recipientBindingId: string | null;
  recipientUserId: string | null;
  recipientEmail: string;
  suppressionReason: SuppressionReason | null;
  /** From the delivery's id, see `messageIdOf`. */
  messageId: (deliveryId: string) => string;
}

/** A delivery as the sender claimed it. */
export interface ClaimedDelivery {
  email_delivery_id: string;
  tenant_id: string;
  flow_id: string | null;
  flow_execution_id: string | null;
  device_id: string | null;
  email_template_id: string;
  email_template_version_id: string | null;
  recipient_email: string;
  message_id: string;
  subject: string | null;
  body_text: string | null;
  body_html: string | null;
  attempt_count: number;
  first_attempt_at: Date | null;
  /** The tenant's e-mail is paused. */
  paused: boolean;
  /** The version's texts, to render at the first attempt. */
  version_subject: string;
  version_body_text: string;
  version_body_html: string | null;
}

/** The columns of a delivery row as the batch insert sends them. */
const DELIVERY_ROWS = new JsonRows([
  ['email_delivery_id', 'uuid'],
  ['tenant_id', 'uuid'],
  ['action_request_id', 'uuid'],
  ['flow_id', 'uuid'],
  ['flow_execution_id', 'uuid'],
  ['node_id', 'varchar'],
  ['device_id', 'uuid'],
  ['email_template_id', 'uuid'],
  ['email_template_version_id', 'uuid'],
  ['recipient_binding_id', 'uuid'],
  ['recipient_user_id', 'uuid'],
  ['recipient_email', 'varchar'],
  ['status', 'varchar'],
  ['suppression_reason', 'varchar'],
  ['message_id', 'varchar'],
] as const);

/** The one writer of `email_deliveries` and `dead_letters`. */
@Injectable()
export class EmailDeliveriesStore {
  /** Inserts the deliveries (`queued`, or `suppressed` with their reason) and answers their ids in order. */
  async create(manager: EntityManager, deliveries: readonly NewDelivery[]): Promise<string[]> {
    if (deliveries.length === 0) return [];
    const rows = deliveries.map((d) => {
      const id = randomUUID();
      return {
        email_delivery_id: id,
        tenant_id: d.tenantId,
        action_request_id: d.actionRequestId,
        flow_id: d.flowId,
        flow_execution_id: d.flowExecutionId,
        node_id: d.nodeId,
        device_id: d.deviceId,
        email_template_id: d.emailTemplateId,
        email_template_version_id: d.emailTemplateVersionId,
        recipient_binding_id: d.recipientBindingId,
        recipient_user_id: d.recipientUserId,
        recipient_email: d.recipientEmail,
        status: d.suppressionReason === null ? 'queued' : 'suppressed',
        suppression_reason: d.suppressionReason,
        message_id: d.messageId(id),
      };
    });
    await manager.query(
      `INSERT INTO email_deliveries (email_delivery_id, tenant_id, action_request_id, flow_id, flow_execution_id, node_id, device_id,
              email_template_id, email_template_version_id, recipient_binding_id, recipient_user_id, recipient_email, status,
              suppression_reason, message_id, next_attempt_at, ended_at)
       SELECT x.*, CASE WHEN x.status = 'queued' THEN clock_timestamp() END, CASE WHEN x.status = 'suppressed' THEN clock_timestamp() END
         FROM (SELECT ${DELIVERY_ROWS.select} FROM ${DELIVERY_ROWS.from('$1')}) AS x`,
      [DELIVERY_ROWS.encode(rows)],
    );
    return rows.map((row) => row.email_delivery_id);
  }

  /**
   * Takes the delivery for one attempt: only a `queued` one, or a `failed` one whose next attempt is due, whose row
   * no other transaction has locked
   * (the caller keeps this transaction open over the SMTP exchange, so its row lock is the claim). Null when it is
   * not to be sent now by this worker. Answers with it whether the tenant is paused and the version's texts, so an
   * attempt needs one statement before the send.
   */
  async claim(manager: EntityManager, deliveryId: string, token: string, leaseMs: number): Promise<ClaimedDelivery | null> {
    // An UPDATE ... RETURNING answers [rows, count] through TypeORM.
    const [rows] = await manager.query<[ClaimedDelivery[], number]>(
      `UPDATE email_deliveries d
          SET claim_token = $2, claimed_until = clock_timestamp() + make_interval(secs => $3::double precision)
         FROM email_template_versions v,
             (SELECT email_delivery_id FROM email_deliveries
               WHERE email_delivery_id = $1 AND status IN ('queued', 'failed')
                 AND (status = 'queued' OR next_attempt_at IS NULL OR next_attempt_at <= clock_timestamp())
                 AND (claimed_until IS NULL OR claimed_until < clock_timestamp())
                 FOR UPDATE SKIP LOCKED) free
        WHERE d.email_delivery_id = free.email_delivery_id
          AND v.email_template_version_id = d.email_template_version_id
       RETURNING d.email_delivery_id, d.tenant_id, d.flow_id, d.flow_execution_id, d.device_id, d.email_template_id,
                 d.email_template_version_id, d.recipient_email, d.message_id, d.subject, d.body_text, d.body_html, d.attempt_count,
                 (SELECT min((a->>'at')::timestamptz) FROM jsonb_array_elements(d.attempts) a) AS first_attempt_at,
                 coalesce((SELECT k.state = 'paused' FROM action_kill_switches k WHERE k.tenant_id = d.tenant_id), false) AS paused,
                 v.subject AS version_subject, v.body_text AS version_body_text, v.body_html AS version_body_html`,
      [deliveryId, token, leaseMs / 1000],
    );
    return rows[0] ?? null;
  }

  /** Why `claim` found nothing: the row's status, whether another worker's lease is live and whether a retry is due. */
  async stateOf(manager: EntityManager, deliveryId: string): Promise<{ status: string; claimed: boolean; due: boolean } | null> {
    const [row] = await manager.query<{ status: string; claimed: boolean; due: boolean }[]>(
      `SELECT status, coalesce(claimed_until >= clock_timestamp(), false) AS claimed,
              (next_attempt_at IS NULL OR next_attempt_at <= clock_timestamp()) AS due
         FROM email_deliveries WHERE email_delivery_id = $1`,
      [deliveryId],
    );
    return row ?? null;
  }

  /** Back to waiting without an attempt (the tenant paused meanwhile): `held`. */
  async hold(manager: EntityManager, deliveryId: string, token: string): Promise<void> {
    await manager.query(
      `UPDATE email_deliveries SET status = 'held', claim_token = NULL, claimed_until = NULL, next_attempt_at = NULL, updated_at = clock_timestamp()
        WHERE email_delivery_id = $1 AND claim_token = $2`,
      [deliveryId, token],
    );
  }

  /** Records an attempt and the resulting state; false when the lease was lost meanwhile. */
  async recordAttempt(
    manager: EntityManager,
    deliveryId: string,
    token: string | null,
    attempt: DeliveryAttempt,
    next: { status: 'sent' } | { status: 'failed'; nextAttemptAt: Date } | { status: 'dead_lettered'; deadLetterId: string },
    rendered: { subject: string; text: string; html: string | null } | null = null,
  ): Promise<boolean> {
    const [, count] = await manager.query<[unknown[], number]>(
      `UPDATE email_deliveries
          SET attempts = attempts || jsonb_build_array($3::jsonb), attempt_count = attempt_count + 1, status = $4::varchar,
              next_attempt_at = $5::timestamptz, dead_letter_id = coalesce($6::uuid, dead_letter_id),
              sent_at = CASE WHEN $4::varchar = 'sent' THEN clock_timestamp() ELSE sent_at END,
              ended_at = CASE WHEN $4::varchar = 'sent' THEN clock_timestamp() ELSE NULL END,
              claim_token = NULL, claimed_until = NULL, updated_at = clock_timestamp(),
              subject = coalesce(subject, $7::varchar), body_text = coalesce(body_text, $8::text),
              body_html = CASE WHEN body_text IS NULL THEN $9::text ELSE body_html END
        WHERE email_delivery_id = $1 AND ($2::uuid IS NULL OR claim_token = $2)
       RETURNING 1`,
      [
        deliveryId,
        token,
        JSON.stringify(attempt),
        next.status,
        next.status === 'failed' ? next.nextAttemptAt.toISOString() : null,
        next.status === 'dead_lettered' ? next.deadLetterId : null,
        rendered?.subject ?? null,
        rendered?.text ?? null,
        rendered?.html ?? null,
      ],
    );
    return count > 0;
  }

  /** A dead letter of a claimed delivery, holding its rendered message and last error; answers its id. */
  async createDeadLetter(
    manager: EntityManager,
    delivery: ClaimedDelivery,
    rendered: { versionId: string; subject: string; text: string; html: string | null },
    attempts: number,
    lastError: { code: string; message: string },
    firstAttemptAt: Date,
  ): Promise<string> {
    const [row] = await manager.query<{ dead_letter_id: string }[]>(
      `INSERT INTO dead_letters (tenant_id, email_delivery_id, email_template_id, email_template_version_id, flow_id, flow_execution_id,
              device_id, recipient_email, message_id, subject, body_text, body_html, attempts, last_error, first_attempt_at, last_attempt_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14::jsonb, $15, clock_timestamp())
       RETURNING dead_letter_id`,
      [
        delivery.tenant_id,
        delivery.email_delivery_id,
        delivery.email_template_id,
        rendered.versionId,
        delivery.flow_id,
        delivery.flow_execution_id,
        delivery.device_id,
        delivery.recipient_email,
        delivery.message_id,
        rendered.subject,
        rendered.text,
        rendered.html,
        attempts,
        JSON.stringify(lastError),
        firstAttemptAt.toISOString(),
      ],
    );
    return row!.dead_letter_id;
  }
}
