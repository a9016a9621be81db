import { Command } from '@nestjs/cqrs';
import type { Principal } from '../../../shared/auth/principal';
import type { MembershipResponse } from '../dto/membership.response.dto';
import type { CreateMembershipRequest } from '../dto/create-membership.request.dto';

export class CreateMembershipCommand extends Command<MembershipResponse> {
  constructor(
    readonly principal: Principal,
    readonly tenantNumber: number,
    readonly grant: CreateMembershipRequest,
  ) {
    super();
  }
}
