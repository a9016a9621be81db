import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { MembershipStatus } from '../../tenancy';
import type { MembershipResponse } from '../dto/membership.response.dto';

/** `disabled` for POST …/disable, `active` for POST …/reactivate. */
export class ChangeMembershipStatusCommand extends Command<MembershipResponse> {
  constructor(
    readonly principal: Principal,
    readonly membershipId: string,
    readonly status: MembershipStatus,
  ) {
    super();
  }
}
