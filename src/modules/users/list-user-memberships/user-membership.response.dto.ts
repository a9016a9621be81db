import { ApiProperty } from '@nestjs/swagger';
import { PageResponse } from '../../../shared/pagination/page';

/** A membership grant (spec "Membership grant", design §3 and §11) with the tenant's public number. */
export class UserMembershipResponse {
  @ApiProperty({ format: 'uuid' })
  membershipId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ minimum: 1, maximum: 2147483647 })
  tenantNumber!: number;

  @ApiProperty({ format: 'uuid' })
  userId!: string;

  @ApiProperty({ enum: ['tenant_admin', 'tenant_operator', 'tenant_viewer'] })
  role!: string;

  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null: a tenant-level grant.' })
  organizationUnitId!: string | null;

  @ApiProperty()
  includeDescendants!: boolean;

  @ApiProperty({ enum: ['active', 'disabled'] })
  status!: string;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  @ApiProperty()
  userDisplayName!: string;

  @ApiProperty({ format: 'email' })
  userEmail!: string;
}

export class UserMembershipPage extends PageResponse(UserMembershipResponse) {}
