import { Query } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { MembershipResponse } from '../dto/membership.response.dto';

export class GetMembershipQuery extends Query<MembershipResponse> {
  constructor(
    readonly principal: Principal,
    readonly membershipId: string,
  ) {
    super();
  }
}
