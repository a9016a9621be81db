import { TenantAccess, UnitRef } from '../../../shared/access/access.service';
import { Permission, ROLE_PERMISSIONS } from '../../../shared/access/permissions';
import { AuthorizationFailedError } from '../../../shared/errors/domain-error';

/** A grant's target as scope checks need it: the tenant itself (`unit` null) or one unit. */
export interface GrantTarget {
  unit: UnitRef | null;
  includeDescendants: boolean;
}

/*
 * Design §3 and §5.6: memberships are org-scoped by their target. Reading needs `memberships:read` covering the
 * target; a tenant-level target is covered only by whole-tenant scope. Writing a grant needs `memberships:write`
 * over everything the grant gives: its unit, and the whole subtree when it includes descendants (tenant level:
 * the whole tree), so nobody can hand out more than they administer.
 */

/** Whether the caller holds `permission` somewhere in the tenant (the gate before any reference lookup). */
export function requireAnywhere(access: TenantAccess, permission: Permission): void {
  if (!access.can(permission, '*')) throw missingPermission(access, permission);
}

export function canRead(access: TenantAccess, target: GrantTarget): boolean {
  return target.unit ? access.covers('memberships:read', target.unit) : access.coversWholeTree('memberships:read');
}

export function canWrite(access: TenantAccess, target: GrantTarget): boolean {
  if (!target.unit) return access.coversWholeTree('memberships:write');
  return target.includeDescendants ? coversSubtree(access, 'memberships:write', target.unit) : access.covers('memberships:write', target.unit);
}

/** 403 `missing_permission` (audited in the tenant's log by the exception filter). */
export function missingPermission(access: TenantAccess, permission: Permission): AuthorizationFailedError {
  return new AuthorizationFailedError('missing_permission', `This action needs the ${permission} permission.`, { permission }, access.tenant.tenantId);
}

/** The unit and all its descendants: a grant with descendants on the unit or one of its ancestors, or the whole tree. */
function coversSubtree(access: TenantAccess, permission: Permission, unit: UnitRef): boolean {
  if (access.coversWholeTree(permission)) return true;
  return access.grants.some(
    (grant) =>
      ROLE_PERMISSIONS[grant.role].has(permission) &&
      grant.includeDescendants &&
      grant.organizationUnitId !== null &&
      (grant.organizationUnitId === unit.organizationUnitId || unit.ancestorIds.includes(grant.organizationUnitId)),
  );
}
