import { ApiProperty } from '@nestjs/swagger';
import type { OrganizationUnitEntity } from '../../tenancy';

export const ORGANIZATION_UNIT_STATUSES = ['active', 'disabled'] as const;
export type OrganizationUnitStatus = (typeof ORGANIZATION_UNIT_STATUSES)[number];
export type ScopeRelation = 'accessible' | 'ancestor';

/** What the caller's scope adds to a unit row, computed in SQL by OrganizationUnitReader. */
export interface UnitAnnotations {
  scopeRelation: ScopeRelation;
  hasChildren: boolean;
  effectiveStatus: OrganizationUnitStatus;
}

/** The API's Organization unit plus `parentOrganizationUnitId` and `metadata`. */
export class OrganizationUnitResponse {
  @ApiProperty({ format: 'uuid' })
  organizationUnitId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid', nullable: true, type: String, description: 'null for a root unit.' })
  parentOrganizationUnitId!: string | null;

  @ApiProperty({ pattern: '^[a-z0-9][a-z0-9._-]{0,63}$', description: 'Unique in the tenant; immutable.' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ enum: ORGANIZATION_UNIT_STATUSES, description: 'The unit’s own status.' })
  status!: OrganizationUnitStatus;

  @ApiProperty({ enum: ORGANIZATION_UNIT_STATUSES, description: '`disabled` if the unit, an ancestor or the tenant is disabled.' })
  effectiveStatus!: OrganizationUnitStatus;

  @ApiProperty({
    enum: ['accessible', 'ancestor'],
    description: '`ancestor`: outside the caller’s scope, shown only to navigate to a unit inside it (read-only).',
  })
  scopeRelation!: ScopeRelation;

  @ApiProperty({ description: 'At least one direct child is visible to the caller (any status, whatever the list filters).' })
  hasChildren!: boolean;

  @ApiProperty({ type: 'object', additionalProperties: { type: 'string' } })
  metadata!: Record<string, string>;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(unit: OrganizationUnitEntity, annotations: UnitAnnotations): OrganizationUnitResponse {
    return {
      organizationUnitId: unit.organizationUnitId,
      tenantId: unit.tenantId,
      parentOrganizationUnitId: unit.parentOrganizationUnitId,
      key: unit.key,
      name: unit.name,
      status: unit.status,
      effectiveStatus: annotations.effectiveStatus,
      scopeRelation: annotations.scopeRelation,
      hasChildren: annotations.hasChildren,
      metadata: unit.metadata,
      createdAt: unit.createdAt.toISOString(),
      updatedAt: unit.updatedAt.toISOString(),
    };
  }
}
