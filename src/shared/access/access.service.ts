import { Injectable } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import { DataSource, EntityManager } from 'typeorm';
import { AuthCache } from '../auth/auth-cache';
import type { Principal } from '../auth/principal';
import { AuthorizationFailedError, ResourceNotFoundError } from '../errors/domain-error';
import { Permission, PERMISSION_SCOPES, ROLE_PERMISSIONS, ScopeKind, TenantRole } from './permissions';

/** The tenant row as the access layer loads it. */
export interface TenantRow {
  tenantId: string;
  tenantNumber: number;
  key: string;
  name: string;
  status: 'active' | 'disabled';
  metadata: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

/** An effective grant of the caller in one tenant. */
export interface EffectiveGrant {
  membershipId: string;
  role: TenantRole;
  /** null: tenant-level. */
  organizationUnitId: string | null;
  includeDescendants: boolean;
  /** The target unit's ancestors, root first (empty for tenant-level grants). */
  unitAncestorIds: string[];
}

/** A unit as far as scope checks need it. */
export interface UnitRef {
  organizationUnitId: string;
  ancestorIds: string[];
}

/** A SQL predicate with its parameters, numbered from the `offset` the caller gave. */
export interface SqlPredicate {
  sql: string;
  params: unknown[];
}

/**
 * What one caller may do in one tenant, computed once per request. Platform admins hold every
 * permission over the whole scope. Lists never filter in memory: `accessibleUnits` and `visibleUnits` give the
 * SQL predicates to join.
 */
export class TenantAccess {
  constructor(
    readonly tenant: TenantRow,
    readonly isPlatformAdmin: boolean,
    readonly grants: readonly EffectiveGrant[],
  ) {}

  private grantsWith(permission: Permission): EffectiveGrant[] {
    return this.grants.filter((grant) => ROLE_PERMISSIONS[grant.role].has(permission));
  }

  /** Permission at tenant level (`T`), or anywhere in the tenant (`*`). */
  can(permission: Permission, scope: ScopeKind = PERMISSION_SCOPES[permission]): boolean {
    if (this.isPlatformAdmin) return true;
    const grants = this.grantsWith(permission);
    return scope === '*' ? grants.length > 0 : grants.some((grant) => grant.organizationUnitId === null);
  }

  /** Whether a tenant-level grant with descendants (or platform admin) gives the permission on every unit. */
  coversWholeTree(permission: Permission): boolean {
    return (
      this.isPlatformAdmin ||
      this.grantsWith(permission).some((grant) => grant.organizationUnitId === null && grant.includeDescendants)
    );
  }

  /** The accessible set: the unit is a grant's target, or below a grant target with descendants. */
  covers(permission: Permission, unit: UnitRef): boolean {
    if (this.coversWholeTree(permission)) return true;
    return this.grantsWith(permission).some(
      (grant) =>
        grant.organizationUnitId !== null &&
        (grant.organizationUnitId === unit.organizationUnitId ||
          (grant.includeDescendants && unit.ancestorIds.includes(grant.organizationUnitId))),
    );
  }

  /**
   * The unit and everything below it: a grant with descendants on the unit or one of its ancestors, or the
   * whole tree. What handing out a grant with descendants on the unit requires.
   */
  coversSubtree(permission: Permission, unit: UnitRef): boolean {
    if (this.coversWholeTree(permission)) return true;
    return this.grantsWith(permission).some(
      (grant) =>
        grant.includeDescendants &&
        grant.organizationUnitId !== null &&
        (grant.organizationUnitId === unit.organizationUnitId || unit.ancestorIds.includes(grant.organizationUnitId)),
    );
  }

  /** `scopeRelation`: accessible, ancestor (navigation only), or null (invisible: answer 404). */
  relationTo(unit: UnitRef, permission: Permission = 'organization-units:read'): 'accessible' | 'ancestor' | null {
    if (this.covers(permission, unit)) return 'accessible';
    const isAncestor = this.grantsWith(permission).some((grant) => grant.unitAncestorIds.includes(unit.organizationUnitId));
    return isAncestor ? 'ancestor' : null;
  }

  /** 403 `missing_permission` unless the permission holds at the given scope (a unit for `S`). */
  require(permission: Permission, unit?: UnitRef): void {
    const scope = PERMISSION_SCOPES[permission];
    const allowed = scope === 'S' && unit ? this.covers(permission, unit) : this.can(permission, scope === 'S' ? 'T' : scope);
    if (!allowed) throw this.missingPermission(permission);
  }

  /**
   * 403 `missing_permission` unless the caller holds the permission somewhere in the tenant (any grant): the gate
   * before a target's scope or a body's references are looked at, so a caller without it anywhere learns nothing.
   */
  requireAnywhere(permission: Permission): void {
    if (!this.can(permission, '*')) throw this.missingPermission(permission);
  }

  /** 403 `missing_permission`, remembered for this tenant's audit log (the exception filter writes it). */
  missingPermission(permission: Permission): AuthorizationFailedError {
    return new AuthorizationFailedError(
      'missing_permission',
      `This action needs the ${permission} permission.`,
      { permission },
      this.tenant.tenantId,
    );
  }

  /** SQL: unit `alias` is in the accessible set for `permission`. */
  accessibleUnits(alias: string, permission: Permission, offset: number): SqlPredicate {
    if (this.coversWholeTree(permission)) return { sql: 'TRUE', params: [] };
    const grants = this.grantsWith(permission).filter((grant) => grant.organizationUnitId !== null);
    const targets = grants.map((grant) => grant.organizationUnitId as string);
    const withDescendants = grants.filter((grant) => grant.includeDescendants).map((grant) => grant.organizationUnitId as string);
    if (targets.length === 0) return { sql: 'FALSE', params: [] };
    return {
      sql: `(${alias}.organization_unit_id = ANY($${offset + 1}::uuid[]) OR ${alias}.ancestor_ids && $${offset + 2}::uuid[])`,
      params: [targets, withDescendants],
    };
  }

  /** SQL: unit `alias` is visible (accessible, or an ancestor of an accessible unit, for navigation). */
  visibleUnits(alias: string, permission: Permission, offset: number): SqlPredicate {
    const accessible = this.accessibleUnits(alias, permission, offset);
    if (accessible.sql === 'TRUE') return accessible;
    const ancestors = [...new Set(this.grantsWith(permission).flatMap((grant) => grant.unitAncestorIds))];
    if (ancestors.length === 0) return accessible;
    const n = offset + accessible.params.length + 1;
    return {
      sql: `(${accessible.sql} OR ${alias}.organization_unit_id = ANY($${n}::uuid[]))`,
      params: [...accessible.params, ancestors],
    };
  }
}

interface GrantRow {
  membership_id: string;
  role: TenantRole;
  organization_unit_id: string | null;
  include_descendants: boolean;
  unit_ancestor_ids: string[] | null;
}

const TENANT_COLUMNS = `t.tenant_id AS "tenantId", t.tenant_number AS "tenantNumber", t.key, t.name, t.status, t.metadata,
  t.created_at AS "createdAt", t.updated_at AS "updatedAt"`;

/**
 * An effective grant, the target part: the grant is tenant-level, or its unit `ou` and all the unit's
 * ancestors are active. Every query over grants (`m`) uses this one fragment.
 */
const EFFECTIVE_TARGET = `(m.organization_unit_id IS NULL OR (ou.status = 'active' AND NOT EXISTS (
  SELECT 1 FROM organization_units a WHERE a.organization_unit_id = ANY(ou.ancestor_ids) AND a.status = 'disabled')))`;

/**
 * Membership active, user active, tenant `t` active, and an effective target: the grants
 * of user `$2` in the tenant row `t` of the enclosing query, as one JSON array.
 */
const EFFECTIVE_GRANTS_JSON = `(
  SELECT coalesce(json_agg(g), '[]'::json) FROM (
    SELECT m.membership_id, m.role, m.organization_unit_id, m.include_descendants, ou.ancestor_ids AS unit_ancestor_ids
      FROM memberships m
      JOIN users u ON u.user_id = m.user_id AND u.status = 'active'
      LEFT JOIN organization_units ou ON ou.organization_unit_id = m.organization_unit_id
     WHERE m.user_id = $2 AND m.tenant_id = t.tenant_id AND t.status = 'active' AND m.status = 'active'
       AND ${EFFECTIVE_TARGET}) g)`;

/**
 * The one access layer: who may see and do what in a tenant. Tenant resolution applies the existence rule:
 * a tenant without an effective grant answers exactly the 404 of a missing one.
 */
@Injectable()
export class AccessService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly cls: ClsService,
    private readonly cache: AuthCache,
  ) {}

  async tenantByNumber(principal: Principal, tenantNumber: number): Promise<TenantAccess> {
    return this.accessTo(principal, 't.tenant_number = $1', tenantNumber, `tenant-number:${tenantNumber}`);
  }

  async tenantById(principal: Principal, tenantId: string): Promise<TenantAccess> {
    return this.accessTo(principal, 't.tenant_id = $1', tenantId, `tenant:${tenantId}`);
  }

  /** The tenant when exactly one exists (what a platform admin's `/me` opens by default), else null. */
  async soleTenant(): Promise<TenantRow | null> {
    const tenants = await this.dataSource.query<TenantRow[]>(`SELECT ${TENANT_COLUMNS} FROM tenants t ORDER BY t.tenant_number LIMIT 2`);
    return tenants.length === 1 ? tenants[0]! : null;
  }

  /** SQL predicate: tenant `alias` has an effective grant of the caller (for tenant lists). */
  visibleTenants(principal: Principal, alias: string, offset: number): SqlPredicate {
    if (principal.isPlatformAdmin) return { sql: 'TRUE', params: [] };
    return {
      sql: `${alias}.status = 'active' AND EXISTS (
              SELECT 1 FROM memberships m
                LEFT JOIN organization_units ou ON ou.organization_unit_id = m.organization_unit_id
               WHERE m.tenant_id = ${alias}.tenant_id AND m.user_id = $${offset + 1} AND m.status = 'active'
                 AND ${EFFECTIVE_TARGET})`,
      params: [principal.userId],
    };
  }

  /** Every effective grant of the user, in all tenants (for `/me`). */
  async effectiveGrantsOf(userId: string): Promise<(EffectiveGrant & { tenant: TenantRow; organizationUnitName: string | null })[]> {
    // One round trip: the grants with their tenant's columns.
    const rows = await this.dataSource.query<(GrantRow & TenantRow & { unit_name: string | null })[]>(
      `SELECT m.membership_id, m.role, m.organization_unit_id, m.include_descendants,
              ou.ancestor_ids AS unit_ancestor_ids, ou.name AS unit_name, ${TENANT_COLUMNS}
         FROM memberships m
         JOIN users u ON u.user_id = m.user_id AND u.status = 'active'
         JOIN tenants t ON t.tenant_id = m.tenant_id AND t.status = 'active'
         LEFT JOIN organization_units ou ON ou.organization_unit_id = m.organization_unit_id
        WHERE m.user_id = $1 AND m.status = 'active'
          AND ${EFFECTIVE_TARGET}
        ORDER BY t.tenant_number, m.created_at, m.membership_id`,
      [userId],
    );
    return rows.map((row) => ({
      ...toGrant(row),
      tenant: {
        tenantId: row.tenantId,
        tenantNumber: row.tenantNumber,
        key: row.key,
        name: row.name,
        status: row.status,
        metadata: row.metadata,
        createdAt: row.createdAt,
        updatedAt: row.updatedAt,
      },
      organizationUnitName: row.unit_name,
    }));
  }

  /**
   * The tenant matching `condition` (on `$1`) and the caller's effective grants in it: from the authorization
   * cache (the tenant row keyed by id and by number, the grants by user and tenant), else in one round trip where
   * the grants come with the tenant row as JSON (platform admins need none). Within a request the first answer is
   * kept, so every check of one request sees the same grants.
   */
  private async accessTo(principal: Principal, condition: string, key: unknown, tenantKey: string): Promise<TenantAccess> {
    const requestKey = (tenantId: string) => `access.grants.${tenantId}`;
    const grantsKey = (tenantId: string) => `grants:${principal.userId}:${tenantId}`;
    const inRequest = this.cls.isActive();
    const cachedTenant = this.cache.get<TenantRow>(tenantKey);
    if (cachedTenant) {
      if (principal.isPlatformAdmin) return new TenantAccess(cachedTenant, true, []);
      const grants =
        (inRequest ? this.cls.get<EffectiveGrant[] | undefined>(requestKey(cachedTenant.tenantId)) : undefined) ??
        this.cache.get<EffectiveGrant[]>(grantsKey(cachedTenant.tenantId));
      if (grants) {
        if (inRequest) this.cls.set(requestKey(cachedTenant.tenantId), grants);
        if (grants.length === 0) throw new ResourceNotFoundError('tenant');
        return new TenantAccess(cachedTenant, false, grants);
      }
    }
    const mark = this.cache.mark();
    const withGrants = !principal.isPlatformAdmin;
    const [row] = await this.dataSource.query<(TenantRow & { grants?: GrantRow[] })[]>(
      withGrants
        ? `SELECT ${TENANT_COLUMNS}, ${EFFECTIVE_GRANTS_JSON} AS grants FROM tenants t WHERE ${condition}`
        : `SELECT ${TENANT_COLUMNS} FROM tenants t WHERE ${condition}`,
      withGrants ? [key, principal.userId] : [key],
    );
    if (!row) throw new ResourceNotFoundError('tenant');
    const { grants: grantRows, ...tenant } = row;
    const tenantTags = [`tenant:${tenant.tenantId}`];
    this.cache.set(mark, `tenant:${tenant.tenantId}`, tenant, tenantTags);
    this.cache.set(mark, `tenant-number:${tenant.tenantNumber}`, tenant, tenantTags);
    if (principal.isPlatformAdmin) return new TenantAccess(tenant, true, []);
    let grants = inRequest ? this.cls.get<EffectiveGrant[] | undefined>(requestKey(tenant.tenantId)) : undefined;
    if (!grants) {
      grants = (grantRows ?? []).map(toGrant);
      if (inRequest) this.cls.set(requestKey(tenant.tenantId), grants);
      this.cache.set(mark, grantsKey(tenant.tenantId), grants, [...tenantTags, `user:${principal.userId}`]);
    }
    if (grants.length === 0) throw new ResourceNotFoundError('tenant');
    return new TenantAccess(tenant, false, grants);
  }
}

function toGrant(row: GrantRow): EffectiveGrant {
  return {
    membershipId: row.membership_id,
    role: row.role,
    organizationUnitId: row.organization_unit_id,
    includeDescendants: row.include_descendants,
    unitAncestorIds: row.unit_ancestor_ids ?? [],
  };
}

/**
 * What each of several users may do in one tenant (the same rule as a caller's: membership, user, tenant and target
 * active; a platform admin holds everything), keyed by user; a user with no effective grant gets an access that
 * covers nothing. For decisions about users other than the caller (may this member receive this device's e-mail?);
 * reads through `manager` so it can run in the caller's transaction. Empty when the tenant does not exist.
 */
export async function accessOfUsers(
  manager: EntityManager,
  tenantId: string,
  users: readonly { userId: string; isPlatformAdmin: boolean }[],
): Promise<Map<string, TenantAccess>> {
  const result = new Map<string, TenantAccess>();
  if (users.length === 0) return result;
  const [tenant] = await manager.query<TenantRow[]>(`SELECT ${TENANT_COLUMNS} FROM tenants t WHERE t.tenant_id = $1`, [tenantId]);
  if (!tenant) return result;
  const rows = await manager.query<(GrantRow & { user_id: string })[]>(
    `SELECT m.user_id, m.membership_id, m.role, m.organization_unit_id, m.include_descendants, ou.ancestor_ids AS unit_ancestor_ids
       FROM memberships m
       JOIN users u ON u.user_id = m.user_id AND u.status = 'active'
       JOIN tenants t ON t.tenant_id = m.tenant_id AND t.status = 'active'
       LEFT JOIN organization_units ou ON ou.organization_unit_id = m.organization_unit_id
      WHERE m.tenant_id = $1 AND m.user_id = ANY ($2::uuid[]) AND m.status = 'active' AND ${EFFECTIVE_TARGET}
      ORDER BY m.created_at, m.membership_id`,
    [tenantId, [...new Set(users.map((user) => user.userId))]],
  );
  const grants = new Map<string, EffectiveGrant[]>();
  for (const row of rows) grants.set(row.user_id, [...(grants.get(row.user_id) ?? []), toGrant(row)]);
  for (const user of users) result.set(user.userId, new TenantAccess(tenant, user.isPlatformAdmin, grants.get(user.userId) ?? []));
  return result;
}
