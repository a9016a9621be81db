import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import type { TenantRole } from '../../../shared/access/permissions';
import { StatusColumn, TenantIdColumn, TimestampedRow } from '../../../shared/database/columns';

export type MembershipStatus = 'active' | 'disabled';

/** A grant: (user, tenant, role, target, includeDescendants, status); target null = the tenant itself. */
@Entity({ name: 'memberships' })
export class MembershipEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'membership_id' })
  membershipId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'user_id', type: 'uuid' })
  userId!: string;

  @Column({ type: 'varchar', length: 32 })
  role!: TenantRole;

  @Column({ name: 'organization_unit_id', type: 'uuid', nullable: true })
  organizationUnitId!: string | null;

  @Column({ name: 'include_descendants', type: 'boolean', default: true })
  includeDescendants!: boolean;

  @StatusColumn()
  status!: MembershipStatus;
}
