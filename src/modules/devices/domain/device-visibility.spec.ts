import { TenantAccess, EffectiveGrant, TenantRow } from '../../../shared/access/access.service';
import { clip, PeriodRef, visibleHistory } from './device-visibility';

const tenant = { tenantId: 't' } as TenantRow;
const grant = (organizationUnitId: string | null, includeDescendants = true, role: EffectiveGrant['role'] = 'tenant_viewer'): EffectiveGrant => ({
  membershipId: `m-${organizationUnitId}`,
  role,
  organizationUnitId,
  includeDescendants,
  unitAncestorIds: [],
});
const d = (day: number) => new Date(Date.UTC(2026, 0, day));
const period = (unit: string, from: number, to: number | null, ancestors: string[] = []): PeriodRef => ({
  validFrom: d(from),
  validTo: to === null ? null : d(to),
  unit: { organizationUnitId: unit, ancestorIds: ancestors },
});
const history = [period('a', 1, 5), period('b', 5, 10), period('a', 10, 12, []), period('c', 15, null, ['a'])];

describe('visibleHistory', () => {
  it('shows everything to a caller covering the whole tree', () => {
    const access = new TenantAccess(tenant, false, [grant(null)]);
    expect(visibleHistory(access, 'telemetry:read', history)).toEqual([{ from: null, to: null }]);
    expect(visibleHistory(new TenantAccess(tenant, true, []), 'telemetry:read', history)).toEqual([{ from: null, to: null }]);
  });

  it('shows a unit-scoped caller only the periods in its units, joined where they touch', () => {
    const access = new TenantAccess(tenant, false, [grant('a'), grant('b', false)]);
    expect(visibleHistory(access, 'telemetry:read', history)).toEqual([
      { from: d(1), to: d(12) },
      { from: d(15), to: null },
    ]);
  });

  it('hides periods of units outside a point grant (no descendants)', () => {
    const access = new TenantAccess(tenant, false, [grant('a', false)]);
    expect(visibleHistory(access, 'telemetry:read', history)).toEqual([
      { from: d(1), to: d(5) },
      { from: d(10), to: d(12) },
    ]);
  });

  it('shows a tenant-node caller the unassigned gaps and its units, not the others', () => {
    const access = new TenantAccess(tenant, false, [grant(null, false), grant('b')]);
    expect(visibleHistory(access, 'telemetry:read', history)).toEqual([
      { from: null, to: d(1) },
      { from: d(5), to: d(10) },
      { from: d(12), to: d(15) },
    ]);
  });

  it('ignores grants without the permission', () => {
    const access = new TenantAccess(tenant, false, [grant('a', true, 'tenant_viewer')]);
    expect(visibleHistory(access, 'devices:write', history)).toEqual([]);
  });
});

describe('clip', () => {
  it('cuts intervals to the window and drops empty parts', () => {
    expect(clip([{ from: null, to: d(3) }, { from: d(5), to: null }], d(2), d(6))).toEqual([
      { from: d(2), to: d(3) },
      { from: d(5), to: d(6) },
    ]);
    expect(clip([{ from: d(1), to: d(2) }], d(2), d(6))).toEqual([]);
  });
});
