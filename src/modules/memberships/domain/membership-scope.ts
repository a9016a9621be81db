import { TenantAccess, UnitRef } from '../../../shared/access/access.service';

/** A grant's target as scope checks need it: the tenant itself (`unit` null) or one unit. */
export interface GrantTarget {
  unit: UnitRef | null;
  includeDescendants: boolean;
}

/*
 * Memberships are org-scoped by their target. Reading needs `memberships:read` covering the
 * target; a tenant-level target is covered only by whole-tenant scope. Writing a grant needs `memberships:write`
 * over everything the grant gives: its unit, and the whole subtree when it includes descendants (tenant level:
 * the whole tree), so nobody can hand out more than they administer.
 */

export function canRead(access: TenantAccess, target: GrantTarget): boolean {
  return target.unit ? access.covers('memberships:read', target.unit) : access.coversWholeTree('memberships:read');
}

export function canWrite(access: TenantAccess, target: GrantTarget): boolean {
  if (!target.unit) return access.coversWholeTree('memberships:write');
  return target.includeDescendants
    ? access.coversSubtree('memberships:write', target.unit)
    : access.covers('memberships:write', target.unit);
}
