import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService, TenantAccess, UnitRef } from '../../../shared/access/access.service';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import type { FieldViolation } from '../../../shared/errors/error-codes';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { MembershipEntity } from '../../tenancy';
import { canWrite } from '../domain/membership-scope';
import { MembershipResponse } from '../dto/membership.response.dto';
import {
  findUnitRef,
  loadMembershipRecords,
  MembershipRepository,
  MEMBERSHIP_CONSTRAINTS,
} from '../persistence/membership.repository';
import { CreateMembershipCommand } from './create-membership.command';
import type { CreateMembershipRequest } from '../dto/create-membership.request.dto';
import { AuthCache } from '../../../shared/auth/auth-cache';

/**
 * Grants a role on the tenant or one unit. Order: 404 tenant, 403 without `memberships:write`
 * anywhere in the tenant, 400 `reference_not_found` for an unknown user or a unit the caller cannot see, 403
 * when the caller does not hold the permission over everything the grant gives, 409 for a second active grant
 * on the same target.
 */
@CommandHandler(CreateMembershipCommand)
export class CreateMembershipHandler implements ICommandHandler<CreateMembershipCommand, MembershipResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly accessService: AccessService,
    private readonly memberships: MembershipRepository,
    private readonly authCache: AuthCache,
  ) {}

  async execute({ principal, tenantNumber, grant }: CreateMembershipCommand): Promise<MembershipResponse> {
    const access = await this.accessService.tenantByNumber(principal, tenantNumber);
    access.requireAnywhere('memberships:write');
    const { userId, unit } = await this.resolveReferences(access, grant);
    const includeDescendants = grant.includeDescendants ?? true;
    if (!canWrite(access, { unit, includeDescendants })) throw access.missingPermission('memberships:write');

    const tenantId = access.tenant.tenantId;
    const organizationUnitId = unit?.organizationUnitId ?? null;
    return this.unitOfWork.run(
      async (tx) => {
        await this.memberships.assertNoActiveDuplicate(tx.manager, { userId, tenantId, organizationUnitId });
        const inserted = await tx.manager.insert(MembershipEntity, {
          tenantId,
          userId,
          role: grant.role,
          organizationUnitId,
          includeDescendants,
        });
        const membershipId = (inserted.identifiers[0] as { membershipId: string }).membershipId;
        await this.authCache.invalidate(tx.manager, { userId });
        await tx.audit({
          eventType: 'membership.created',
          action: 'create',
          entityType: 'membership',
          entityId: membershipId,
          tenantId,
          metadata: { userId, organizationUnitId, role: grant.role, includeDescendants },
        });
        const [record] = await loadMembershipRecords(tx.manager, [membershipId]);
        return MembershipResponse.of(record!);
      },
      { constraints: MEMBERSHIP_CONSTRAINTS },
    );
  }

  /** The user (by id or e-mail) and the unit must exist, the unit in this tenant and visible to the caller. */
  private async resolveReferences(
    access: TenantAccess,
    grant: CreateMembershipRequest,
  ): Promise<{ userId: string; unit: UnitRef | null }> {
    const manager = this.dataSource.manager;
    const violations: FieldViolation[] = [];
    const [user] = grant.userId
      ? await manager.query<{ user_id: string }[]>(`SELECT user_id FROM users WHERE user_id = $1`, [grant.userId])
      : await manager.query<{ user_id: string }[]>(`SELECT user_id FROM users WHERE lower(email) = lower($1)`, [grant.userEmail]);
    if (!user) {
      violations.push({ path: grant.userId ? 'body.userId' : 'body.userEmail', rule: 'reference_not_found', message: 'No such user.' });
    }
    let unit: UnitRef | null = null;
    if (grant.organizationUnitId) {
      unit = await findUnitRef(manager, access.tenant.tenantId, grant.organizationUnitId.toLowerCase());
      if (!unit || access.relationTo(unit) === null) {
        violations.push({ path: 'body.organizationUnitId', rule: 'reference_not_found', message: 'No such organization unit in this tenant.' });
      }
    }
    if (violations.length > 0) throw new ValidationFailedError(violations);
    return { userId: user!.user_id, unit };
  }
}
