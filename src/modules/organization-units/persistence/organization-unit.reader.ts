import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AccessService, TenantAccess } from '../../../shared/access/access.service';
import type { Permission } from '../../../shared/access/permissions';
import type { Principal } from '../../../shared/auth/principal';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { OrganizationUnitEntity } from '../../tenancy';
import { OrganizationUnitResponse, OrganizationUnitStatus, ScopeRelation } from '../dto/organization-unit.response.dto';
import { resolveResource } from '../../../shared/access/resolve-resource';

const READ: Permission = 'organization-units:read';

/** The unit behind a flat URL, and what the caller may do in its tenant. */
export interface ResolvedUnit {
  access: TenantAccess;
  unit: OrganizationUnitEntity;
  relation: ScopeRelation;
}

interface AnnotationRow {
  id: string;
  scope_relation: ScopeRelation;
  has_children: boolean;
  effective_status: OrganizationUnitStatus;
}

/** The 404 of every unit the caller cannot see: missing, in another tenant, or outside its scope. */
export const unitNotFound = () => new ResourceNotFoundError('organization_unit');

/**
 * Reads units as a given caller sees them: the existence rule for flat URLs, and the per-caller fields
 * (`scopeRelation`, `hasChildren`, `effectiveStatus`) computed in SQL from the access layer's predicates.
 */
@Injectable()
export class OrganizationUnitReader {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  /** The unit if the caller sees it (accessible or navigation ancestor); otherwise exactly the 404 of a missing one. */
  async resolve(principal: Principal, organizationUnitId: string): Promise<ResolvedUnit> {
    const { resource: unit, access } = await resolveResource(this.accessService, principal, {
      load: () => this.dataSource.manager.findOneBy(OrganizationUnitEntity, { organizationUnitId }),
      notFound: unitNotFound,
      visible: (tenantAccess, found) => tenantAccess.relationTo(found, READ) !== null,
    });
    // resolveResource checked the unit is visible, so the relation is never null here.
    return { access, unit, relation: access.relationTo(unit, READ)! };
  }

  /** `units` (visible to the caller) as response records, in the given order, with one query. */
  async present(
    access: TenantAccess,
    units: OrganizationUnitEntity[],
    manager: EntityManager = this.dataSource.manager,
  ): Promise<OrganizationUnitResponse[]> {
    if (units.length === 0) return [];
    const accessible = access.accessibleUnits('u', READ, 1);
    const visibleChild = access.visibleUnits('c', READ, 1 + accessible.params.length);
    const rows = await manager.query<AnnotationRow[]>(
      `SELECT u.organization_unit_id AS id,
              CASE WHEN ${accessible.sql} THEN 'accessible' ELSE 'ancestor' END AS scope_relation,
              EXISTS (SELECT 1 FROM organization_units c
                       WHERE c.tenant_id = u.tenant_id AND c.parent_organization_unit_id = u.organization_unit_id
                         AND ${visibleChild.sql}) AS has_children,
              CASE WHEN t.status = 'disabled' OR u.status = 'disabled'
                     OR EXISTS (SELECT 1 FROM organization_units a
                                 WHERE a.organization_unit_id = ANY(u.ancestor_ids) AND a.status = 'disabled')
                   THEN 'disabled' ELSE 'active' END AS effective_status
         FROM organization_units u
         JOIN tenants t ON t.tenant_id = u.tenant_id
        WHERE u.organization_unit_id = ANY($1::uuid[])`,
      [units.map((unit) => unit.organizationUnitId), ...accessible.params, ...visibleChild.params],
    );
    const byId = new Map(rows.map((row) => [row.id, row]));
    return units.map((unit) => {
      const row = byId.get(unit.organizationUnitId);
      if (!row) throw new Error(`Unit ${unit.organizationUnitId} vanished while it was being read`);
      return OrganizationUnitResponse.of(unit, {
        scopeRelation: row.scope_relation,
        hasChildren: row.has_children,
        effectiveStatus: row.effective_status,
      });
    });
  }

  async presentOne(access: TenantAccess, unit: OrganizationUnitEntity, manager?: EntityManager): Promise<OrganizationUnitResponse> {
    const [response] = await this.present(access, [unit], manager);
    return response!;
  }
}
