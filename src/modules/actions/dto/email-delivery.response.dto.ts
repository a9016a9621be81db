import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';
import {
  DeliveryAttempt,
  EMAIL_DELIVERY_STATUSES,
  EmailDeliveryEntity,
  EmailDeliveryStatus,
  SUPPRESSION_REASONS,
  SuppressionReason,
} from '../persistence/email-delivery.entity';

export class DeliveryAttemptErrorResponse {
  @ApiProperty({ description: '`connection_refused`, `connection_reset`, `timeout`, `dns_error`, `tls_error`, `authentication_failed`, `connection_error`, `mail_not_configured`.' })
  code!: string;

  @ApiProperty()
  message!: string;
}

/** One attempt: the SMTP server's reply, or the connection error when there was none. */
export class DeliveryAttemptResponse {
  @ApiProperty({ format: 'date-time' })
  at!: string;

  @ApiPropertyOptional({ type: 'integer', description: 'The reply code (250 accepted, 4xx temporary, 5xx permanent).' })
  smtpCode?: number;

  @ApiPropertyOptional({ description: 'The reply text as the server sent it.' })
  smtpReply?: string;

  @ApiPropertyOptional({ type: DeliveryAttemptErrorResponse })
  error?: DeliveryAttemptErrorResponse;
}

/** One e-mail to one recipient, as the delivery log lists it (no bodies). */
export class EmailDeliveryResponse {
  @ApiProperty({ format: 'uuid' })
  emailDeliveryId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ enum: EMAIL_DELIVERY_STATUSES, description: '`queued` waits for its first attempt, `failed` for its retry (`nextAttemptAt`), `held` for the tenant\'s resume; `sent`, `suppressed`, `dead_lettered` are final.' })
  status!: EmailDeliveryStatus;

  @ApiProperty({ enum: SUPPRESSION_REASONS, nullable: true, type: String })
  suppressionReason!: SuppressionReason | null;

  @ApiProperty({ format: 'email' })
  recipientEmail!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  recipientUserId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  recipientBindingId!: string | null;

  @ApiProperty({ format: 'uuid' })
  emailTemplateId!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'The active version when the e-mail was requested; null when there was none.' })
  emailTemplateVersionId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  flowId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  flowExecutionId!: string | null;

  @ApiProperty({ nullable: true, type: String })
  nodeId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  deviceId!: string | null;

  @ApiProperty({ description: 'The `Message-ID` header, derived from the delivery id: a resent copy carries the same one.' })
  messageId!: string;

  @ApiProperty({ nullable: true, type: String, description: 'Rendered at the first attempt.' })
  subject!: string | null;

  @ApiProperty({ type: 'integer' })
  attemptCount!: number;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  nextAttemptAt!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  deadLetterId!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  sentAt!: string | null;

  static of(row: EmailDeliveryEntity): EmailDeliveryResponse {
    return {
      emailDeliveryId: row.emailDeliveryId,
      tenantId: row.tenantId,
      status: row.status,
      suppressionReason: row.suppressionReason,
      recipientEmail: row.recipientEmail,
      recipientUserId: row.recipientUserId,
      recipientBindingId: row.recipientBindingId,
      emailTemplateId: row.emailTemplateId,
      emailTemplateVersionId: row.emailTemplateVersionId,
      flowId: row.flowId,
      flowExecutionId: row.flowExecutionId,
      nodeId: row.nodeId,
      deviceId: row.deviceId,
      messageId: row.messageId,
      subject: row.subject,
      attemptCount: row.attemptCount,
      nextAttemptAt: row.nextAttemptAt?.toISOString() ?? null,
      deadLetterId: row.deadLetterId,
      createdAt: row.createdAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
    };
  }
}

/** A delivery with its attempts and rendered bodies. */
export class EmailDeliveryDetailResponse extends EmailDeliveryResponse {
  @ApiProperty({ type: [DeliveryAttemptResponse], description: 'Oldest first.' })
  attempts!: DeliveryAttempt[];

  @ApiProperty({ nullable: true, type: String })
  bodyText!: string | null;

  @ApiProperty({ nullable: true, type: String })
  bodyHtml!: string | null;

  static detailOf(row: EmailDeliveryEntity): EmailDeliveryDetailResponse {
    return { ...EmailDeliveryResponse.of(row), attempts: row.attempts, bodyText: row.bodyText, bodyHtml: row.bodyHtml };
  }
}

export class EmailDeliveryPage extends NewestFirstPageResponse(EmailDeliveryResponse) {}
