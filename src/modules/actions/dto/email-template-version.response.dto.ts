import { ApiProperty } from '@nestjs/swagger';
import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';
import { EMAIL_TEMPLATE_VERSION_STATUSES, type EmailTemplateVersionStatus } from '../persistence/email-template-version.entity';

const iso = (value: unknown): string | null => (value === null || value === undefined ? null : new Date(value as string).toISOString());

/** A version in a list: everything but the bodies. */
export class EmailTemplateVersionSummary {
  @ApiProperty({ format: 'uuid' })
  emailTemplateVersionId!: string;

  @ApiProperty({ format: 'uuid' })
  emailTemplateId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;

  @ApiProperty({ enum: EMAIL_TEMPLATE_VERSION_STATUSES })
  status!: EmailTemplateVersionStatus;

  @ApiProperty({ minLength: 1, maxLength: 200, description: 'The subject template.' })
  subject!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  releasedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deprecatedAt!: string | null;

  /** From the row as PostgreSQL returned it (snake_case columns). */
  static summaryOf(row: Record<string, unknown>): EmailTemplateVersionSummary {
    return {
      emailTemplateVersionId: String(row.email_template_version_id),
      emailTemplateId: String(row.email_template_id),
      tenantId: String(row.tenant_id),
      versionNumber: Number(row.version_number),
      status: row.status as EmailTemplateVersionStatus,
      subject: String(row.subject),
      createdAt: iso(row.created_at)!,
      releasedAt: iso(row.released_at),
      deprecatedAt: iso(row.deprecated_at),
    };
  }
}

/** A version with its bodies. */
export class EmailTemplateVersionResponse extends EmailTemplateVersionSummary {
  @ApiProperty({ minLength: 1, maxLength: 20000 })
  bodyText!: string;

  @ApiProperty({ type: String, nullable: true, maxLength: 100000 })
  bodyHtml!: string | null;

  static of(row: Record<string, unknown>): EmailTemplateVersionResponse {
    return {
      ...EmailTemplateVersionSummary.summaryOf(row),
      bodyText: String(row.body_text),
      bodyHtml: row.body_html === null || row.body_html === undefined ? null : String(row.body_html),
    };
  }
}

export class EmailTemplateVersionPage extends NewestFirstPageResponse(EmailTemplateVersionSummary) {}

/** What a version renders to; nothing is sent. */
export class RenderedEmailResponse {
  @ApiProperty({ description: 'Line breaks removed.' })
  subject!: string;

  @ApiProperty()
  bodyText!: string;

  @ApiProperty({ type: String, nullable: true, description: 'Values HTML-escaped; null when the version has no HTML body.' })
  bodyHtml!: string | null;
}
