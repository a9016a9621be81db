import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { MembershipEntity } from '../../tenancy/domain/membership.entity';
import { canWrite } from '../domain/membership-scope';
import { MembershipResponse } from '../domain/membership.response.dto';
import { MembershipRepository, targetOf, withDuplicateMembershipAsConflict } from '../domain/membership.repository';
import { VisibleMembership } from '../domain/visible-membership';
import { ChangeMembershipStatusCommand } from './change-membership-status.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

/**
 * Design §7: a grant moves `active` ⇄ `disabled`; any other move is 409 `invalid_state`. Reactivation is
 * refused with `duplicate_membership` while the user holds another active grant on the same target. The
 * access layer reads grants per request, so the move takes effect on the user's next request.
 */
@CommandHandler(ChangeMembershipStatusCommand)
export class ChangeMembershipStatusHandler implements ICommandHandler<ChangeMembershipStatusCommand, MembershipResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly visible: VisibleMembership,
    private readonly memberships: MembershipRepository,
    private readonly authCache: AuthCache,
  ) {}

  execute({ principal, membershipId, status }: ChangeMembershipStatusCommand): Promise<MembershipResponse> {
    return withDuplicateMembershipAsConflict(() =>
      this.unitOfWork.run(async (tx) => {
        const { record, access } = await this.visible.load(principal, tx.manager, membershipId, { lock: true });
        if (!canWrite(access, targetOf(record))) throw access.missingPermission('memberships:write');
        if (record.status === status) {
          const move = status === 'disabled' ? 'disabled' : 'active';
          throw new ConflictError('invalid_state', `The membership is already ${move}.`, { currentStatus: record.status });
        }
        if (status === 'active') await this.memberships.assertNoActiveDuplicate(tx.manager, record, record.membershipId);

        await tx.manager.update(MembershipEntity, { membershipId }, { status, updatedAt: () => 'clock_timestamp()' });
        await this.authCache.invalidate(tx.manager, { userId: record.userId });
        const disabling = status === 'disabled';
        await tx.audit({
          eventType: disabling ? 'membership.disabled' : 'membership.reactivated',
          action: disabling ? 'disable' : 'reactivate',
          entityType: 'membership',
          entityId: membershipId,
          tenantId: record.tenantId,
          statusCode: 200,
          metadata: {
            userId: record.userId,
            organizationUnitId: record.organizationUnitId,
            status: { before: record.status, after: status },
            role: record.role,
            includeDescendants: record.includeDescendants,
          },
        });
        return MembershipResponse.of(await this.memberships.find(tx.manager, membershipId));
      }),
    );
  }
}
