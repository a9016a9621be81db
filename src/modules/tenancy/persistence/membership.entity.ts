import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { TenantRole } from '../../../shared/access/permissions';

export type MembershipStatus = 'active' | 'disabled';

/** A grant: (user, tenant, role, target, includeDescendants, status); target null = the tenant itself. */
@Entity({ name: 'memberships' })
export class MembershipEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'membership_id' })
  membershipId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'varchar', length: 32 })
  role!: TenantRole;

  @Column({ name: 'organization_unit_id', type: 'uuid', nullable: true })
  organizationUnitId!: string | null;

  @Column({ name: 'include_descendants', type: 'boolean', default: true })
  includeDescendants!: boolean;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: MembershipStatus;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
