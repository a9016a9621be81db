import type { TenantAccess } from '../../../shared/access/access.service';
import type { Permission } from '../../../shared/access/permissions';
import type { UnitRef } from '../../../shared/access/access.service';

/** An assignment period with its unit's path, as visibility rules need it. */
export interface PeriodRef {
  validFrom: Date;
  validTo: Date | null;
  unit: UnitRef;
}

/** A half-open time interval; null bounds are open ends. */
export interface Interval {
  from: Date | null;
  to: Date | null;
}

/**
 * The parts of a device's history the caller may see. A caller covering the whole tree sees
 * everything. A caller with a tenant-level grant (the tenant node: unassigned time) sees everything except the
 * periods spent in units outside its accessible set. Any other (unit-scoped) caller sees exactly the periods spent
 * in units it can access. Returned sorted and non-overlapping (periods never overlap: the database guarantees it).
 */
export function visibleHistory(access: TenantAccess, permission: Permission, periods: readonly PeriodRef[]): Interval[] {
  if (access.coversWholeTree(permission)) return [{ from: null, to: null }];
  const sorted = [...periods].sort((a, b) => a.validFrom.getTime() - b.validFrom.getTime());
  if (!access.can(permission, 'T')) {
    return merge(sorted.filter((period) => access.covers(permission, period.unit)).map(({ validFrom, validTo }) => ({ from: validFrom, to: validTo })));
  }
  const hidden = sorted.filter((period) => !access.covers(permission, period.unit));
  const visible: Interval[] = [];
  let cursor: Date | null = null;
  for (const period of hidden) {
    if (cursor === null || period.validFrom > cursor) visible.push({ from: cursor, to: period.validFrom });
    if (period.validTo === null) return visible;
    cursor = period.validTo;
  }
  visible.push({ from: cursor, to: null });
  return visible;
}

/** Joins adjacent intervals (a move closes one period exactly where the next starts). */
function merge(intervals: Interval[]): Interval[] {
  const merged: Interval[] = [];
  for (const interval of intervals) {
    const last = merged.at(-1);
    if (last && last.to !== null && interval.from !== null && last.to.getTime() === interval.from.getTime()) last.to = interval.to;
    else merged.push({ ...interval });
  }
  return merged;
}

/** The part of each visible interval inside [from, to); empty parts dropped. */
export function clip(intervals: readonly Interval[], from: Date, to: Date): { from: Date; to: Date }[] {
  const clipped: { from: Date; to: Date }[] = [];
  for (const interval of intervals) {
    const start = interval.from === null || interval.from < from ? from : interval.from;
    const end = interval.to === null || interval.to > to ? to : interval.to;
    if (start < end) clipped.push({ from: start, to: end });
  }
  return clipped;
}
