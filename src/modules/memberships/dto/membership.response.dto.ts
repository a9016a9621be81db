import { ApiProperty } from '@nestjs/swagger';
import { TENANT_ROLES, TenantRole } from '../../../shared/access/permissions';
import type { MembershipStatus } from '../../tenancy';
import { MEMBERSHIP_STATUSES } from './membership.fields';
import type { MembershipRecord } from '../persistence/membership.repository';

/** The API's Membership grant plus `organizationUnitId`; never other user fields. */
export class MembershipResponse {
  @ApiProperty({ format: 'uuid' })
  membershipId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  userId!: string;

  @ApiProperty({ enum: TENANT_ROLES })
  role!: TenantRole;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null: a tenant-level grant.' })
  organizationUnitId!: string | null;

  @ApiProperty()
  includeDescendants!: boolean;

  @ApiProperty({ enum: MEMBERSHIP_STATUSES })
  status!: MembershipStatus;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  @ApiProperty()
  userDisplayName!: string;

  @ApiProperty({ format: 'email' })
  userEmail!: string;

  static of(record: MembershipRecord): MembershipResponse {
    return {
      membershipId: record.membershipId,
      tenantId: record.tenantId,
      userId: record.userId,
      role: record.role,
      organizationUnitId: record.organizationUnitId,
      includeDescendants: record.includeDescendants,
      status: record.status,
      createdAt: record.createdAt.toISOString(),
      updatedAt: record.updatedAt.toISOString(),
      userDisplayName: record.userDisplayName,
      userEmail: record.userEmail,
    };
  }
}
