import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { MembershipEntity } from '../../tenancy';
import { canWrite } from '../domain/membership-scope';
import { MembershipResponse } from '../dto/membership.response.dto';
import { MembershipRepository, targetOf } from '../persistence/membership.repository';
import { VisibleMembership } from '../domain/visible-membership';
import { UpdateMembershipCommand } from './update-membership.command';
import type { MembershipChanges } from '../dto/update-membership.request.dto';
import { AuthCache } from '../../../shared/auth/auth-cache';

/**
 * Changes a grant's role or descendant coverage. The caller must hold `memberships:write` over
 * the grant as it is and as it will be, so widening a grant to a subtree needs the whole subtree.
 */
@CommandHandler(UpdateMembershipCommand)
export class UpdateMembershipHandler implements ICommandHandler<UpdateMembershipCommand, MembershipResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly visible: VisibleMembership,
    private readonly memberships: MembershipRepository,
    private readonly authCache: AuthCache,
  ) {}

  async execute({ principal, membershipId, changes }: UpdateMembershipCommand): Promise<MembershipResponse> {
    const { access } = await this.visible.load(principal, membershipId);
    return this.unitOfWork.run(async (tx) => {
      const record = await this.memberships.find(tx.manager, membershipId, { lock: true });
      const after = { ...record, ...definedOf(changes) };
      if (!canWrite(access, targetOf(record)) || !canWrite(access, targetOf(after))) {
        throw access.missingPermission('memberships:write');
      }
      const changed = (['role', 'includeDescendants'] as const).filter((field) => record[field] !== after[field]);
      if (changed.length === 0) return MembershipResponse.of(record);

      await tx.manager.update(
        MembershipEntity,
        { membershipId },
        { role: after.role, includeDescendants: after.includeDescendants, updatedAt: () => 'clock_timestamp()' },
      );
      await this.authCache.invalidate(tx.manager, { userId: record.userId });
      await tx.audit({
        eventType: 'membership.updated',
        action: 'update',
        entityType: 'membership',
        entityId: membershipId,
        tenantId: record.tenantId,
        metadata: {
          changedFields: changed,
          ...Object.fromEntries(changed.map((field) => [field, { before: record[field], after: after[field] }])),
        },
      });
      return MembershipResponse.of(await this.memberships.find(tx.manager, membershipId));
    });
  }
}

function definedOf(changes: MembershipChanges): MembershipChanges {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined));
}
