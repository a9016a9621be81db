import { Query } from '@nestjs/cqrs';
import type { Page } from '../../../shared/pagination/page';
import type { ListUserMembershipsParams } from '../dto/list-user-memberships.request.dto';
import type { UserMembershipResponse } from '../dto/user-membership.response.dto';

export class ListUserMembershipsQuery extends Query<Page<UserMembershipResponse>> {
  constructor(
    readonly actorId: string,
    readonly userId: string,
    readonly params: ListUserMembershipsParams,
  ) {
    super();
  }
}
