import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { SessionResponse } from '../domain/session.response.dto';
import { UserResponse } from '../domain/user.response.dto';

export class MeMembership {
  @ApiProperty({ format: 'uuid' }) membershipId!: string;
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty() tenantNumber!: number;
  @ApiProperty() tenantName!: string;
  @ApiProperty({ enum: ['tenant_admin', 'tenant_operator', 'tenant_viewer'] }) role!: string;
  @ApiPropertyOptional({ format: 'uuid', nullable: true }) organizationUnitId!: string | null;
  @ApiPropertyOptional({ nullable: true }) organizationUnitName!: string | null;
  @ApiProperty() includeDescendants!: boolean;
  @ApiProperty({ type: [String] }) permissions!: string[];
}

export class MeAnalytics {
  @ApiProperty({ enum: [1] }) schemaVersion!: 1;
  @ApiProperty({ minLength: 43, maxLength: 43, description: 'base64url HMAC-SHA256 of the user id' }) subjectId!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'tenantNumber → HMAC of the tenant id' })
  tenantSubjectIds!: Record<string, string>;
}

/** Design §6 Me. Tenancy fields are empty until the tenancy module exists. */
export class MeResponse {
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
  @ApiProperty({ type: SessionResponse }) session!: SessionResponse;
  @ApiProperty({ type: [String], enum: ['platform_admin'] }) platformRoles!: 'platform_admin'[];
  @ApiProperty() passwordChangeRequired!: boolean;
  @ApiProperty({ nullable: true, type: 'object', additionalProperties: true, description: 'Tenant record, or null' }) currentTenant!: Record<string, unknown> | null;
  @ApiProperty({ type: [MeMembership] }) memberships!: MeMembership[];
  @ApiPropertyOptional({ type: MeAnalytics }) analytics?: MeAnalytics;
}
