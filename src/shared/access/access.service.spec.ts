import { AuthorizationFailedError } from '../errors/domain-error';
import { EffectiveGrant, TenantAccess, TenantRow } from './access.service';

const tenant: TenantRow = {
  tenantId: 't-1',
  tenantNumber: 1,
  key: 'acme',
  name: 'Acme',
  status: 'active',
  metadata: {},
  createdAt: new Date(),
  updatedAt: new Date(),
};

// root → region → site → line
const root = { organizationUnitId: 'root', ancestorIds: [] };
const region = { organizationUnitId: 'region', ancestorIds: ['root'] };
const site = { organizationUnitId: 'site', ancestorIds: ['root', 'region'] };
const line = { organizationUnitId: 'line', ancestorIds: ['root', 'region', 'site'] };
const otherRegion = { organizationUnitId: 'other', ancestorIds: ['root'] };

const grant = (overrides: Partial<EffectiveGrant>): EffectiveGrant => ({
  membershipId: 'm',
  role: 'tenant_viewer',
  organizationUnitId: null,
  includeDescendants: true,
  unitAncestorIds: [],
  ...overrides,
});

describe('TenantAccess', () => {
  it('gives a platform admin every permission on every unit', () => {
    const access = new TenantAccess(tenant, true, []);
    expect(access.can('tenant:write')).toBe(true);
    expect(access.covers('organization-units:write', line)).toBe(true);
    expect(access.accessibleUnits('u', 'devices:read', 0)).toEqual({ sql: 'TRUE', params: [] });
  });

  it('covers the whole tree with a tenant-level grant with descendants', () => {
    const access = new TenantAccess(tenant, false, [grant({ role: 'tenant_admin' })]);
    expect(access.can('tenant:write')).toBe(true);
    expect(access.covers('organization-units:write', line)).toBe(true);
    expect(access.relationTo(line)).toBe('accessible');
  });

  it('covers no unit with a tenant-level grant without descendants, but keeps tenant-node permissions', () => {
    const access = new TenantAccess(tenant, false, [grant({ role: 'tenant_admin', includeDescendants: false })]);
    expect(access.can('audit:read')).toBe(true);
    expect(access.covers('organization-units:read', root)).toBe(false);
    expect(access.relationTo(root)).toBeNull();
    expect(access.accessibleUnits('u', 'organization-units:read', 0)).toEqual({ sql: 'FALSE', params: [] });
  });

  it('scopes a unit grant with descendants to its subtree, and shows its ancestors for navigation only', () => {
    const access = new TenantAccess(tenant, false, [
      grant({ role: 'tenant_operator', organizationUnitId: 'region', unitAncestorIds: ['root'] }),
    ]);
    expect(access.relationTo(region)).toBe('accessible');
    expect(access.relationTo(line)).toBe('accessible');
    expect(access.relationTo(root)).toBe('ancestor');
    expect(access.relationTo(otherRegion)).toBeNull();
    expect(access.covers('devices:write', site)).toBe(true);
    expect(access.covers('organization-units:write', site)).toBe(false); // operators cannot write units
    expect(access.can('tenant:read', '*')).toBe(true);
    expect(access.can('device-types:write')).toBe(false); // [T] needs a tenant-level grant
  });

  it('scopes a unit grant without descendants to exactly its unit', () => {
    const access = new TenantAccess(tenant, false, [
      grant({ organizationUnitId: 'site', includeDescendants: false, unitAncestorIds: ['root', 'region'] }),
    ]);
    expect(access.relationTo(site)).toBe('accessible');
    expect(access.relationTo(line)).toBeNull();
    expect(access.relationTo(region)).toBe('ancestor');
  });

  it('unions permissions over several grants, evaluated per target', () => {
    const access = new TenantAccess(tenant, false, [
      grant({ role: 'tenant_viewer', organizationUnitId: 'region', unitAncestorIds: ['root'] }),
      grant({ role: 'tenant_admin', organizationUnitId: 'other', unitAncestorIds: ['root'] }),
    ]);
    expect(access.covers('organization-units:write', otherRegion)).toBe(true);
    expect(access.covers('organization-units:write', site)).toBe(false);
    expect(access.covers('organization-units:read', site)).toBe(true);
  });

  it('refuses with 403 missing_permission naming the permission and remembering the tenant for the audit', () => {
    const access = new TenantAccess(tenant, false, [grant({ role: 'tenant_viewer' })]);
    let error: unknown;
    try {
      access.require('tenant:write');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AuthorizationFailedError);
    expect((error as AuthorizationFailedError).details).toEqual({ reason: 'missing_permission', permission: 'tenant:write' });
    expect((error as AuthorizationFailedError).tenantId).toBe('t-1');
    expect(() => access.require('organization-units:read', line)).not.toThrow();
  });

  it('builds SQL predicates with parameters numbered after the offset', () => {
    const access = new TenantAccess(tenant, false, [
      grant({ organizationUnitId: 'site', includeDescendants: false, unitAncestorIds: ['root', 'region'] }),
      grant({ organizationUnitId: 'other', unitAncestorIds: ['root'] }),
    ]);
    expect(access.visibleUnits('u', 'organization-units:read', 2)).toEqual({
      sql: '((u.organization_unit_id = ANY($3::uuid[]) OR u.ancestor_ids && $4::uuid[]) OR u.organization_unit_id = ANY($5::uuid[]))',
      params: [['site', 'other'], ['other'], ['root', 'region']],
    });
  });
});
