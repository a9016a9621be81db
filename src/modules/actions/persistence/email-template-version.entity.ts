import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const EMAIL_TEMPLATE_VERSION_STATUSES = ['draft', 'released', 'deprecated'] as const;
export type EmailTemplateVersionStatus = (typeof EMAIL_TEMPLATE_VERSION_STATUSES)[number];

/** An immutable version of an e-mail template (only its status and the release/deprecation times move). */
@Entity({ name: 'email_template_versions' })
export class EmailTemplateVersionEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'email_template_version_id' })
  emailTemplateVersionId!: string;

  @Column({ name: 'email_template_id', type: 'uuid' })
  emailTemplateId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'version_number', type: 'int' })
  versionNumber!: number;

  @Column({ type: 'varchar', length: 16, default: 'draft' })
  status!: EmailTemplateVersionStatus;

  @Column({ type: 'varchar', length: 200 })
  subject!: string;

  @Column({ name: 'body_text', type: 'varchar', length: 20000 })
  bodyText!: string;

  @Column({ name: 'body_html', type: 'text', nullable: true })
  bodyHtml!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'released_at', type: 'timestamptz', precision: 3, nullable: true })
  releasedAt!: Date | null;

  @Column({ name: 'deprecated_at', type: 'timestamptz', precision: 3, nullable: true })
  deprecatedAt!: Date | null;
}
