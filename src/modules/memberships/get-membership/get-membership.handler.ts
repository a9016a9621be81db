import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { canRead } from '../domain/membership-scope';
import { MembershipResponse } from '../dto/membership.response.dto';
import { targetOf } from '../persistence/membership.repository';
import { VisibleMembership } from '../domain/visible-membership';
import { GetMembershipQuery } from './get-membership.query';

@QueryHandler(GetMembershipQuery)
export class GetMembershipHandler implements IQueryHandler<GetMembershipQuery, MembershipResponse> {
  constructor(private readonly visible: VisibleMembership) {}

  async execute({ principal, membershipId }: GetMembershipQuery): Promise<MembershipResponse> {
    const { record, access } = await this.visible.load(principal, membershipId);
    if (!canRead(access, targetOf(record))) throw access.missingPermission('memberships:read');
    return MembershipResponse.of(record);
  }
}
