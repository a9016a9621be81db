import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TenantResponse } from '../../tenants';
import { SessionResponse } from './session.response.dto';
import { UserResponse } from './user.response.dto';

/** An effective grant of the caller, with what a console shows for it. */
export class MeMembership {
  @ApiProperty({ format: 'uuid' }) membershipId!: string;
  @ApiProperty({ format: 'uuid' }) tenantId!: string;
  @ApiProperty({ minimum: 1, maximum: 2147483647 }) tenantNumber!: number;
  @ApiProperty() tenantName!: string;
  @ApiProperty({ enum: ['tenant_admin', 'tenant_operator', 'tenant_viewer'] }) role!: string;
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null: a tenant-level grant.' }) organizationUnitId!: string | null;
  @ApiProperty({ type: 'string', nullable: true }) organizationUnitName!: string | null;
  @ApiProperty() includeDescendants!: boolean;
  @ApiProperty({ type: [String], description: 'The permissions the role grants, sorted.' }) permissions!: string[];
}

export class MeAnalytics {
  @ApiProperty({ enum: [1] }) schemaVersion!: 1;
  @ApiProperty({ minLength: 43, maxLength: 43, description: 'base64url HMAC-SHA256 of the user id' }) subjectId!: string;
  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' }, description: 'tenantNumber → HMAC of the tenant id' })
  tenantSubjectIds!: Record<string, string>;
}

/** The caller as `GET /v1/me` returns it. */
export class MeResponse {
  @ApiProperty({ type: UserResponse }) user!: UserResponse;
  @ApiProperty({ type: SessionResponse }) session!: SessionResponse;
  @ApiProperty({ type: [String], enum: ['platform_admin'] }) platformRoles!: 'platform_admin'[];
  @ApiProperty() passwordChangeRequired!: boolean;
  @ApiProperty({
    type: TenantResponse,
    nullable: true,
    description: 'The queried `tenantNumber` if visible, else the only visible tenant, else null.',
  })
  currentTenant!: TenantResponse | null;
  @ApiProperty({ type: [MeMembership], description: 'Effective grants in every tenant.' }) memberships!: MeMembership[];
  @ApiPropertyOptional({ type: MeAnalytics }) analytics?: MeAnalytics;
}
