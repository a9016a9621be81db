import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, ValidateBy } from 'class-validator';
import { MaxLength } from '../../../shared/validation/text-length';
import { TENANT_ROLES, TenantRole } from '../../../shared/access/permissions';
import { AscendingPageParams } from '../../../shared/pagination/page';
import type { MembershipStatus } from '../../tenancy';
import { MEMBERSHIP_STATUSES } from './membership.fields';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export class ListMembershipsParams extends AscendingPageParams {
  @ApiPropertyOptional({ enum: MEMBERSHIP_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...MEMBERSHIP_STATUSES])
  status?: MembershipStatus;

  @ApiPropertyOptional({ maxLength: 100, description: "Case-insensitive substring of the user's display name or e-mail." })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;

  @ApiPropertyOptional({ format: 'uuid' })
  @IsOptional()
  @IsUUID()
  userId?: string;

  @ApiPropertyOptional({ enum: TENANT_ROLES })
  @IsOptional()
  @IsString()
  @IsIn([...TENANT_ROLES])
  role?: TenantRole;

  @ApiPropertyOptional({ description: 'A unit id, or the literal `null` for tenant-level grants.' })
  @IsOptional()
  @IsString()
  @ValidateBy({
    name: 'format',
    validator: {
      validate: (value: unknown) => typeof value === 'string' && (value === 'null' || UUID.test(value)),
      defaultMessage: () => 'organizationUnitId must be a UUID or null',
    },
  })
  organizationUnitId?: string;
}
