import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const DEAD_LETTER_STATUSES = ['open', 'redrive_pending', 'redriven'] as const;
export type DeadLetterStatus = (typeof DEAD_LETTER_STATUSES)[number];

/** A delivery that failed permanently or five times, with the rendered message and the last error. */
@Entity({ name: 'dead_letters' })
export class DeadLetterEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'dead_letter_id' })
  deadLetterId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'email_delivery_id', type: 'uuid' })
  emailDeliveryId!: string;

  @Column({ name: 'email_template_id', type: 'uuid' })
  emailTemplateId!: string;

  @Column({ name: 'email_template_version_id', type: 'uuid' })
  emailTemplateVersionId!: string;

  @Column({ name: 'flow_id', type: 'uuid', nullable: true })
  flowId!: string | null;

  @Column({ name: 'flow_execution_id', type: 'uuid', nullable: true })
  flowExecutionId!: string | null;

  @Column({ name: 'device_id', type: 'uuid', nullable: true })
  deviceId!: string | null;

  @Column({ name: 'recipient_email', type: 'varchar', length: 320 })
  recipientEmail!: string;

  @Column({ name: 'message_id', type: 'varchar', length: 400 })
  messageId!: string;

  @Column({ type: 'varchar', length: 1000 })
  subject!: string;

  @Column({ name: 'body_text', type: 'text' })
  bodyText!: string;

  @Column({ name: 'body_html', type: 'text', nullable: true })
  bodyHtml!: string | null;

  @Column({ type: 'int' })
  attempts!: number;

  @Column({ name: 'last_error', type: 'jsonb' })
  lastError!: { code: string; message: string };

  @Column({ type: 'varchar', length: 16, default: 'open' })
  status!: DeadLetterStatus;

  @Column({ name: 'first_attempt_at', type: 'timestamptz', precision: 3 })
  firstAttemptAt!: Date;

  @Column({ name: 'last_attempt_at', type: 'timestamptz', precision: 3 })
  lastAttemptAt!: Date;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'redriven_at', type: 'timestamptz', precision: 3, nullable: true })
  redrivenAt!: Date | null;
}
