import { Column, Entity, PrimaryColumn } from 'typeorm';

export const EMAIL_DELIVERY_STATUSES = ['queued', 'held', 'sent', 'suppressed', 'failed', 'dead_lettered'] as const;
export type EmailDeliveryStatus = (typeof EMAIL_DELIVERY_STATUSES)[number];

export const SUPPRESSION_REASONS = ['recipient_out_of_scope', 'no_active_version', 'actions_paused', 'cooldown', 'tenant_rate_limit'] as const;
export type SuppressionReason = (typeof SUPPRESSION_REASONS)[number];

/** One attempt to hand a delivery to the SMTP server: its reply (code and text) or the connection error. */
export interface DeliveryAttempt {
  at: string;
  smtpCode?: number;
  smtpReply?: string;
  error?: { code: string; message: string };
}

/**
 * One e-mail to one recipient, from an `email-action` request of a live execution: the delivery log row and its
 * send schedule. `queued` waits for its first attempt, `failed` for a retry (`nextAttemptAt`), `held` for the
 * tenant's resume; `sent`, `suppressed` and `dead_lettered` are final (a redriven dead letter may still turn it
 * `sent`).
 */
@Entity({ name: 'email_deliveries' })
export class EmailDeliveryEntity {
  @PrimaryColumn('uuid', { name: 'email_delivery_id' })
  emailDeliveryId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'action_request_id', type: 'uuid', nullable: true })
  actionRequestId!: string | null;

  @Column({ name: 'flow_id', type: 'uuid', nullable: true })
  flowId!: string | null;

  @Column({ name: 'flow_execution_id', type: 'uuid', nullable: true })
  flowExecutionId!: string | null;

  @Column({ name: 'node_id', type: 'varchar', length: 120, nullable: true })
  nodeId!: string | null;

  @Column({ name: 'device_id', type: 'uuid', nullable: true })
  deviceId!: string | null;

  @Column({ name: 'email_template_id', type: 'uuid' })
  emailTemplateId!: string;

  @Column({ name: 'email_template_version_id', type: 'uuid', nullable: true })
  emailTemplateVersionId!: string | null;

  @Column({ name: 'recipient_binding_id', type: 'uuid', nullable: true })
  recipientBindingId!: string | null;

  @Column({ name: 'recipient_user_id', type: 'uuid', nullable: true })
  recipientUserId!: string | null;

  @Column({ name: 'recipient_email', type: 'varchar', length: 320 })
  recipientEmail!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: EmailDeliveryStatus;

  @Column({ name: 'suppression_reason', type: 'varchar', length: 32, nullable: true })
  suppressionReason!: SuppressionReason | null;

  @Column({ name: 'message_id', type: 'varchar', length: 400 })
  messageId!: string;

  @Column({ type: 'varchar', length: 1000, nullable: true })
  subject!: string | null;

  @Column({ name: 'body_text', type: 'text', nullable: true })
  bodyText!: string | null;

  @Column({ name: 'body_html', type: 'text', nullable: true })
  bodyHtml!: string | null;

  @Column({ type: 'jsonb', default: () => `'[]'` })
  attempts!: DeliveryAttempt[];

  @Column({ name: 'attempt_count', type: 'int', default: 0 })
  attemptCount!: number;

  @Column({ name: 'next_attempt_at', type: 'timestamptz', precision: 3, nullable: true })
  nextAttemptAt!: Date | null;

  @Column({ name: 'claim_token', type: 'uuid', nullable: true })
  claimToken!: string | null;

  @Column({ name: 'claimed_until', type: 'timestamptz', precision: 3, nullable: true })
  claimedUntil!: Date | null;

  @Column({ name: 'dead_letter_id', type: 'uuid', nullable: true })
  deadLetterId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;

  @Column({ name: 'sent_at', type: 'timestamptz', precision: 3, nullable: true })
  sentAt!: Date | null;

  @Column({ name: 'ended_at', type: 'timestamptz', precision: 3, nullable: true })
  endedAt!: Date | null;
}
