import { EffectiveGrant, TenantAccess, TenantRow } from '../../../shared/access/access.service';
import { AuthorizationFailedError } from '../../../shared/errors/domain-error';
import { canRead, canWrite } from './membership-scope';

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
// root → region → site
const region = { organizationUnitId: 'region', ancestorIds: ['root'] };
const site = { organizationUnitId: 'site', ancestorIds: ['root', 'region'] };
const root = { organizationUnitId: 'root', ancestorIds: [] };
const grant = (overrides: Partial<EffectiveGrant>): EffectiveGrant => ({
  membershipId: 'm',
  role: 'tenant_admin',
  organizationUnitId: null,
  includeDescendants: true,
  unitAncestorIds: [],
  ...overrides,
});
const accessWith = (...grants: EffectiveGrant[]) => new TenantAccess(tenant, false, grants);

describe('membership scope', () => {
  it('lets a whole-tenant admin read and write every target, tenant level included', () => {
    const access = accessWith(grant({}));
    for (const unit of [null, root, site]) {
      expect(canRead(access, { unit, includeDescendants: true })).toBe(true);
      expect(canWrite(access, { unit, includeDescendants: true })).toBe(true);
    }
  });

  it('needs whole-tenant scope for tenant-level grants: a tenant-level admin without descendants is not enough', () => {
    const access = accessWith(grant({ includeDescendants: false }));
    expect(canRead(access, { unit: null, includeDescendants: false })).toBe(false);
    expect(canWrite(access, { unit: null, includeDescendants: false })).toBe(false);
    expect(() => access.requireAnywhere('memberships:write')).not.toThrow();
  });

  it('keeps a subtree admin inside its subtree', () => {
    const access = accessWith(grant({ organizationUnitId: 'region', unitAncestorIds: ['root'] }));
    expect(canWrite(access, { unit: site, includeDescendants: true })).toBe(true);
    expect(canWrite(access, { unit: region, includeDescendants: true })).toBe(true);
    expect(canWrite(access, { unit: root, includeDescendants: false })).toBe(false);
    expect(canWrite(access, { unit: null, includeDescendants: true })).toBe(false);
    expect(canRead(access, { unit: site, includeDescendants: true })).toBe(true);
    expect(canRead(access, { unit: null, includeDescendants: true })).toBe(false);
  });

  it('lets an admin of one unit without descendants grant only that unit, without descendants', () => {
    const access = accessWith(grant({ organizationUnitId: 'region', includeDescendants: false, unitAncestorIds: ['root'] }));
    expect(canWrite(access, { unit: region, includeDescendants: false })).toBe(true);
    expect(canWrite(access, { unit: region, includeDescendants: true })).toBe(false);
    expect(canWrite(access, { unit: site, includeDescendants: false })).toBe(false);
    expect(canRead(access, { unit: region, includeDescendants: true })).toBe(true);
  });

  it('ignores grants whose role lacks the permission, and refuses with 403 naming it', () => {
    const access = accessWith(grant({ role: 'tenant_operator' }), grant({ role: 'tenant_viewer', organizationUnitId: 'region' }));
    expect(canRead(access, { unit: site, includeDescendants: true })).toBe(false);
    expect(canWrite(access, { unit: site, includeDescendants: false })).toBe(false);
    let error: unknown;
    try {
      access.requireAnywhere('memberships:read');
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(AuthorizationFailedError);
    expect((error as AuthorizationFailedError).details).toEqual({ reason: 'missing_permission', permission: 'memberships:read' });
    expect((error as AuthorizationFailedError).tenantId).toBe('t-1');
  });

  it('lets a platform admin do everything', () => {
    const access = new TenantAccess(tenant, true, []);
    expect(canWrite(access, { unit: null, includeDescendants: true })).toBe(true);
    expect(canWrite(access, { unit: site, includeDescendants: true })).toBe(true);
  });
});
