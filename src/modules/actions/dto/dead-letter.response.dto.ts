import { ApiProperty } from '@nestjs/swagger';
import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';
import { DEAD_LETTER_STATUSES, DeadLetterEntity, DeadLetterStatus } from '../persistence/dead-letter.entity';

export class DeadLetterErrorResponse {
  @ApiProperty({ description: '`smtp_<code>` for a server reply, else the connection error (`connection_refused`, `timeout`, ...).' })
  code!: string;

  @ApiProperty()
  message!: string;
}

/** A delivery that failed permanently or five times (list: no bodies). */
export class DeadLetterResponse {
  @ApiProperty({ format: 'uuid' })
  deadLetterId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  emailDeliveryId!: string;

  @ApiProperty({ format: 'uuid' })
  emailTemplateId!: string;

  @ApiProperty({ format: 'uuid' })
  emailTemplateVersionId!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  flowId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  flowExecutionId!: string | null;

  @ApiProperty({ format: 'uuid', nullable: true, type: String })
  deviceId!: string | null;

  @ApiProperty({ format: 'email' })
  recipientEmail!: string;

  @ApiProperty()
  subject!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  attempts!: number;

  @ApiProperty({ type: DeadLetterErrorResponse })
  lastError!: DeadLetterErrorResponse;

  @ApiProperty({ enum: DEAD_LETTER_STATUSES, description: '`open` → `redrive_pending` → `redriven`, or back to `open` when the redrive fails.' })
  status!: DeadLetterStatus;

  @ApiProperty({ format: 'date-time' })
  firstAttemptAt!: string;

  @ApiProperty({ format: 'date-time' })
  lastAttemptAt!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time', nullable: true, type: String })
  redrivenAt!: string | null;

  static of(row: DeadLetterEntity): DeadLetterResponse {
    return {
      deadLetterId: row.deadLetterId,
      tenantId: row.tenantId,
      emailDeliveryId: row.emailDeliveryId,
      emailTemplateId: row.emailTemplateId,
      emailTemplateVersionId: row.emailTemplateVersionId,
      flowId: row.flowId,
      flowExecutionId: row.flowExecutionId,
      deviceId: row.deviceId,
      recipientEmail: row.recipientEmail,
      subject: row.subject,
      attempts: row.attempts,
      lastError: row.lastError,
      status: row.status,
      firstAttemptAt: row.firstAttemptAt.toISOString(),
      lastAttemptAt: row.lastAttemptAt.toISOString(),
      createdAt: row.createdAt.toISOString(),
      redrivenAt: row.redrivenAt?.toISOString() ?? null,
    };
  }
}

/** A dead letter with the rendered message. */
export class DeadLetterDetailResponse extends DeadLetterResponse {
  @ApiProperty()
  bodyText!: string;

  @ApiProperty({ nullable: true, type: String })
  bodyHtml!: string | null;

  @ApiProperty({ description: 'The `Message-ID` the redrive sends again.' })
  messageId!: string;

  static detailOf(row: DeadLetterEntity): DeadLetterDetailResponse {
    return { ...DeadLetterResponse.of(row), bodyText: row.bodyText, bodyHtml: row.bodyHtml, messageId: row.messageId };
  }
}

export class DeadLetterPage extends NewestFirstPageResponse(DeadLetterResponse) {}
