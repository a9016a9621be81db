import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { MembershipResponse } from '../dto/membership.response.dto';
import type { MembershipChanges } from '../dto/update-membership.request.dto';

export class UpdateMembershipCommand extends Command<MembershipResponse> {
  constructor(
    readonly principal: Principal,
    readonly membershipId: string,
    readonly changes: MembershipChanges,
  ) {
    super();
  }
}
