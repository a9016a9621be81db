import { Injectable } from '@nestjs/common';
import { ConstraintErrors } from '../../../shared/database/pg-errors';
import { EntityManager } from 'typeorm';
import type { UnitRef } from '../../../shared/access/access.service';
import type { TenantRole } from '../../../shared/access/permissions';
import { ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import type { MembershipStatus } from '../../tenancy';
import type { GrantTarget } from '../domain/membership-scope';

/** A grant with what its responses and scope checks need: the user's name and e-mail, the target's path. */
export interface MembershipRecord {
  membershipId: string;
  tenantId: string;
  tenantNumber: number;
  userId: string;
  role: TenantRole;
  organizationUnitId: string | null;
  includeDescendants: boolean;
  status: MembershipStatus;
  createdAt: Date;
  updatedAt: Date;
  userDisplayName: string;
  userEmail: string;
  /** The target unit's ancestors, root first; null for a tenant-level grant. */
  unitAncestorIds: string[] | null;
}

const RECORD_SQL = `
  SELECT m.membership_id AS "membershipId", m.tenant_id AS "tenantId", t.tenant_number AS "tenantNumber", m.user_id AS "userId",
         m.role, m.organization_unit_id AS "organizationUnitId", m.include_descendants AS "includeDescendants", m.status,
         m.created_at AS "createdAt", m.updated_at AS "updatedAt", u.display_name AS "userDisplayName", u.email AS "userEmail",
         ou.ancestor_ids AS "unitAncestorIds"
    FROM memberships m
    JOIN tenants t ON t.tenant_id = m.tenant_id
    JOIN users u ON u.user_id = m.user_id
    LEFT JOIN organization_units ou ON ou.organization_unit_id = m.organization_unit_id`;

export const DUPLICATE_MEMBERSHIP = (): ConflictError =>
  new ConflictError('duplicate_membership', 'The user already has an active grant on this target.');

/** The records of `ids`, in the order given (ids without a row are skipped). */
export async function loadMembershipRecords(manager: EntityManager, ids: readonly string[]): Promise<MembershipRecord[]> {
  if (ids.length === 0) return [];
  const rows = await manager.query<MembershipRecord[]>(`${RECORD_SQL} WHERE m.membership_id = ANY($1::uuid[])`, [ids]);
  const byId = new Map(rows.map((row) => [row.membershipId, row]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}

/** The grant's target as a scope check sees it. */
export function targetOf(record: Pick<MembershipRecord, 'organizationUnitId' | 'unitAncestorIds' | 'includeDescendants'>): GrantTarget {
  const unit: UnitRef | null = record.organizationUnitId
    ? { organizationUnitId: record.organizationUnitId, ancestorIds: record.unitAncestorIds ?? [] }
    : null;
  return { unit, includeDescendants: record.includeDescendants };
}

/** Row access of the memberships API; every method runs on the given (usually the command's) manager. */
@Injectable()
export class MembershipRepository {
  /** The grant, or 404 `membership`; `lock` holds it until the end of the transaction. */
  async find(manager: EntityManager, membershipId: string, { lock = false } = {}): Promise<MembershipRecord> {
    const [record] = await manager.query<MembershipRecord[]>(
      `${RECORD_SQL} WHERE m.membership_id = $1${lock ? ' FOR UPDATE OF m' : ''}`,
      [membershipId],
    );
    if (!record) throw new ResourceNotFoundError('membership');
    return record;
  }

  /** 409 `duplicate_membership` when another active grant of the user has the same target. */
  async assertNoActiveDuplicate(
    manager: EntityManager,
    grant: { userId: string; tenantId: string; organizationUnitId: string | null },
    exceptMembershipId: string | null = null,
  ): Promise<void> {
    const [row] = await manager.query<{ taken: boolean }[]>(
      `SELECT EXISTS (
         SELECT 1 FROM memberships
          WHERE user_id = $1 AND tenant_id = $2 AND organization_unit_id IS NOT DISTINCT FROM $3::uuid AND status = 'active'
            AND ($4::uuid IS NULL OR membership_id <> $4::uuid)) AS taken`,
      [grant.userId, grant.tenantId, grant.organizationUnitId, exceptMembershipId],
    );
    if (row?.taken) throw DUPLICATE_MEMBERSHIP();
  }
}

/**
 * Two concurrent grants on one target both pass the check in SQL; the loser's violation of
 * `memberships_active_target_key` must still answer the same 409, not 500.
 */
export const MEMBERSHIP_CONSTRAINTS: ConstraintErrors = { memberships_active_target_key: DUPLICATE_MEMBERSHIP };

/** A unit of the tenant as scope checks need it, or null when the tenant has no such unit. */
export async function findUnitRef(manager: EntityManager, tenantId: string, organizationUnitId: string): Promise<UnitRef | null> {
  const [unit] = await manager.query<UnitRef[]>(
    `SELECT organization_unit_id AS "organizationUnitId", ancestor_ids AS "ancestorIds"
       FROM organization_units WHERE organization_unit_id = $1 AND tenant_id = $2`,
    [organizationUnitId, tenantId],
  );
  return unit ?? null;
}
