import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsIn, IsOptional, IsString, IsUUID, ValidateIf } from 'class-validator';
import { EmailAddress } from '../../../shared/validation/email';
import { MaxLength } from '../../../shared/validation/text-length';
import { TENANT_ROLES, TenantRole } from '../../../shared/access/permissions';
import { WhenPresent } from '../../../shared/validation/fields';

/** Exactly one of `userId` and `userEmail` (checked by the controller); `organizationUnitId` null = tenant-level. */
export class CreateMembershipRequest {
  @ApiPropertyOptional({ format: 'uuid', description: 'Exactly one of userId and userEmail.' })
  @WhenPresent()
  @IsUUID()
  userId?: string;

  @ApiPropertyOptional({ format: 'email', maxLength: 254, description: 'Exactly one of userId and userEmail; matched case-insensitively.' })
  @WhenPresent()
  @IsString()
  @MaxLength(254)
  @EmailAddress('userEmail')
  userEmail?: string;

  @ApiProperty({ enum: TENANT_ROLES })
  @IsString()
  @IsIn([...TENANT_ROLES])
  role!: TenantRole;

  @ApiPropertyOptional({ type: 'string', format: 'uuid', nullable: true, description: 'The target unit; null or absent: the tenant itself.' })
  @IsOptional()
  @ValidateIf((_object, value) => value !== null)
  @IsUUID()
  organizationUnitId?: string | null;

  @ApiPropertyOptional({ type: 'boolean', default: true, description: 'Whether the grant also covers the units below its target.' })
  @WhenPresent()
  @IsBoolean()
  includeDescendants?: boolean;
}
