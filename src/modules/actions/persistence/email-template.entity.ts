import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A tenant's e-mail template: key and name, and the pointer to the version `email-action` nodes send. */
@Entity({ name: 'email_templates' })
export class EmailTemplateEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'email_template_id' })
  emailTemplateId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  description!: string;

  /** Null until the first activation; a released (or since deprecated) version of this template. */
  @Column({ name: 'active_version_id', type: 'uuid', nullable: true })
  activeVersionId!: string | null;

  @Column({ name: 'lock_version', type: 'int', default: 1 })
  lockVersion!: number;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
