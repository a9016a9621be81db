import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { DISABLE_REACTIVATE, disableActionFor, StatusTransitions } from '../../../shared/state/status-transitions';
import { MembershipEntity } from '../../tenancy';
import { canWrite } from '../domain/membership-scope';
import { MembershipResponse } from '../dto/membership.response.dto';
import { MembershipRepository, targetOf, MEMBERSHIP_CONSTRAINTS } from '../persistence/membership.repository';
import { VisibleMembership } from '../domain/visible-membership';
import { ChangeMembershipStatusCommand } from './change-membership-status.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

const TRANSITIONS = new StatusTransitions('membership', DISABLE_REACTIVATE);

/**
 * A grant moves `active` ⇄ `disabled`; any other move is 409 `invalid_state`. Reactivation is
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

  async execute({ principal, membershipId, status }: ChangeMembershipStatusCommand): Promise<MembershipResponse> {
    const { access } = await this.visible.load(principal, membershipId);
    return this.unitOfWork.run(
      async (tx) => {
        // Checked on the locked row: a concurrent change of includeDescendants changes what writing it needs.
        const record = await this.memberships.find(tx.manager, membershipId, { lock: true });
        if (!canWrite(access, targetOf(record))) throw access.missingPermission('memberships:write');
        await TRANSITIONS.apply(tx, {
          action: disableActionFor(status),
          lock: async () => record,
          update: async (_record, move) => {
            if (move.to === 'active') await this.memberships.assertNoActiveDuplicate(tx.manager, record, record.membershipId);
            await tx.manager.update(MembershipEntity, { membershipId }, { status: move.to, updatedAt: () => 'clock_timestamp()' });
            await this.authCache.invalidate(tx.manager, { userId: record.userId });
          },
          entityId: membershipId,
          tenantId: record.tenantId,
          metadata: () => ({
            userId: record.userId,
            organizationUnitId: record.organizationUnitId,
            role: record.role,
            includeDescendants: record.includeDescendants,
          }),
        });
        return MembershipResponse.of(await this.memberships.find(tx.manager, membershipId));
      },
      { constraints: MEMBERSHIP_CONSTRAINTS },
    );
  }
}
