import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { StatusColumn, TenantIdColumn, TimestampedRow } from '../../../shared/database/columns';

export const RECIPIENT_TYPES = ['user', 'email'] as const;
export type RecipientType = (typeof RECIPIENT_TYPES)[number];
export const RECIPIENT_BINDING_STATUSES = ['active', 'disabled'] as const;
export type RecipientBindingStatus = (typeof RECIPIENT_BINDING_STATUSES)[number];

/**
 * A recipient of a template's e-mail: a tenant member (`userId`; the address is the user's current one, `email` is
 * null here) or a plain address, narrowed to a device type and a unit when set.
 */
@Entity({ name: 'recipient_bindings' })
export class RecipientBindingEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'recipient_binding_id' })
  recipientBindingId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'email_template_id', type: 'uuid' })
  emailTemplateId!: string;

  @Column({ name: 'recipient_type', type: 'varchar', length: 8 })
  recipientType!: RecipientType;

  @Column({ name: 'user_id', type: 'uuid', nullable: true })
  userId!: string | null;

  @Column({ type: 'varchar', length: 254, nullable: true })
  email!: string | null;

  @Column({ name: 'device_type_id', type: 'uuid', nullable: true })
  deviceTypeId!: string | null;

  @Column({ name: 'organization_unit_id', type: 'uuid', nullable: true })
  organizationUnitId!: string | null;

  @Column({ name: 'include_descendants', type: 'boolean', default: true })
  includeDescendants!: boolean;

  @StatusColumn()
  status!: RecipientBindingStatus;
}
