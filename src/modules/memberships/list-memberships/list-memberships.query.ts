import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { Page } from '../../../shared/pagination/page';
import type { MembershipResponse } from '../dto/membership.response.dto';
import type { ListMembershipsParams } from '../dto/list-memberships.request.dto';

export class ListMembershipsQuery extends Query<Page<MembershipResponse>> {
  constructor(
    readonly principal: Principal,
    readonly tenantNumber: number,
    readonly params: ListMembershipsParams,
  ) {
    super();
  }
}
