import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';

export type Me = components['schemas']['MeResponse'];

/** `/me` for the tenant being looked at: the user, platform roles and the effective grants with their permissions. */
export function useMe(tenantNumber?: number) {
  return useQuery({
    queryKey: ['me', tenantNumber ?? null],
    queryFn: () => unwrap(api.GET('/v1/auth/me', { params: { query: tenantNumber === undefined ? {} : { tenantNumber } } })),
    staleTime: 30_000,
  });
}

export function isPlatformAdmin(me: Me | undefined): boolean {
  return me?.platformRoles.includes('platform_admin') ?? false;
}

/**
 * Whether any of the caller's grants in the tenant holds the permission (platform admins hold all). The API still
 * decides per unit: an action offered here can answer 403 for a unit outside a scoped grant, and pages handle it.
 */
export function can(me: Me | undefined, tenantNumber: number | undefined, permission: string): boolean {
  if (me === undefined) return false;
  if (isPlatformAdmin(me)) return true;
  return me.memberships.some((membership) => membership.tenantNumber === tenantNumber && membership.permissions.includes(permission));
}

/** Whether the caller holds the permission through a tenant-level grant (for `T`-scoped actions). */
export function canTenantWide(me: Me | undefined, tenantNumber: number | undefined, permission: string): boolean {
  if (me === undefined) return false;
  if (isPlatformAdmin(me)) return true;
  return me.memberships.some(
    (membership) => membership.tenantNumber === tenantNumber && membership.organizationUnitId === null && membership.permissions.includes(permission),
  );
}
