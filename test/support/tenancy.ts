import type { TenantRole } from '../../src/shared/access/permissions';
import type { TestApp } from './test-app';

/*
 * Direct-to-database seeding for tests of other modules (each API has its own e2e suite): tenants, unit trees
 * and grants in a few lines.
 */

let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${++counter}`;

export interface SeededTenant {
  tenantId: string;
  tenantNumber: number;
  key: string;
}

export async function seedTenant(t: TestApp, overrides: { key?: string; name?: string; status?: string } = {}): Promise<SeededTenant> {
  const key = overrides.key ?? unique('tenant');
  const [row] = await t.dataSource.query<{ tenant_id: string; tenant_number: number }[]>(
    `INSERT INTO tenants (key, name, status) VALUES ($1, $2, $3) RETURNING tenant_id, tenant_number`,
    [key, overrides.name ?? `Tenant ${key}`, overrides.status ?? 'active'],
  );
  await t.dataSource.query(`INSERT INTO action_kill_switches (tenant_id) VALUES ($1)`, [row!.tenant_id]);
  return { tenantId: row!.tenant_id, tenantNumber: row!.tenant_number, key };
}

export interface SeededUnit {
  organizationUnitId: string;
  ancestorIds: string[];
  key: string;
}

/** A unit under `parent` (or a root). */
export async function seedUnit(
  t: TestApp,
  tenant: SeededTenant,
  parent: SeededUnit | null = null,
  overrides: { key?: string; name?: string; status?: string } = {},
): Promise<SeededUnit> {
  const key = overrides.key ?? unique('unit');
  const ancestorIds = parent ? [...parent.ancestorIds, parent.organizationUnitId] : [];
  const [row] = await t.dataSource.query<{ organization_unit_id: string }[]>(
    `INSERT INTO organization_units (tenant_id, parent_organization_unit_id, ancestor_ids, depth, key, name, status)
     VALUES ($1, $2, $3::uuid[], $4, $5, $6, $7) RETURNING organization_unit_id`,
    [tenant.tenantId, parent?.organizationUnitId ?? null, ancestorIds, ancestorIds.length + 1, key, overrides.name ?? `Unit ${key}`, overrides.status ?? 'active'],
  );
  return { organizationUnitId: row!.organization_unit_id, ancestorIds, key };
}

/** A chain of `depth` units, root first. */
export async function seedChain(t: TestApp, tenant: SeededTenant, depth: number): Promise<SeededUnit[]> {
  const chain: SeededUnit[] = [];
  for (let i = 0; i < depth; i++) chain.push(await seedUnit(t, tenant, chain.at(-1) ?? null));
  return chain;
}

export async function seedGrant(
  t: TestApp,
  userId: string,
  tenant: SeededTenant,
  role: TenantRole,
  unit: SeededUnit | null = null,
  overrides: { includeDescendants?: boolean; status?: string } = {},
): Promise<string> {
  const [row] = await t.dataSource.query<{ membership_id: string }[]>(
    `INSERT INTO memberships (tenant_id, user_id, role, organization_unit_id, include_descendants, status)
     VALUES ($1, $2, $3, $4, $5, $6) RETURNING membership_id`,
    [tenant.tenantId, userId, role, unit?.organizationUnitId ?? null, overrides.includeDescendants ?? true, overrides.status ?? 'active'],
  );
  return row!.membership_id;
}
