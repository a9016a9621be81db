import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeMembershipStatusController } from './change-membership-status/change-membership-status.controller';
import { ChangeMembershipStatusHandler } from './change-membership-status/change-membership-status.handler';
import { CreateMembershipController } from './create-membership/create-membership.controller';
import { CreateMembershipHandler } from './create-membership/create-membership.handler';
import { MembershipRepository } from './domain/membership.repository';
import { VisibleMembership } from './domain/visible-membership';
import { GetMembershipController } from './get-membership/get-membership.controller';
import { GetMembershipHandler } from './get-membership/get-membership.handler';
import { ListMembershipsController } from './list-memberships/list-memberships.controller';
import { ListMembershipsHandler } from './list-memberships/list-memberships.handler';
import { UpdateMembershipController } from './update-membership/update-membership.controller';
import { UpdateMembershipHandler } from './update-membership/update-membership.handler';

/** Design §5.6: membership grants, scoped by their target (tenant or unit). */
@Module({
  imports: [PaginationModule],
  controllers: [
    ListMembershipsController,
    CreateMembershipController,
    GetMembershipController,
    UpdateMembershipController,
    ChangeMembershipStatusController,
  ],
  providers: [
    MembershipRepository,
    VisibleMembership,
    ListMembershipsHandler,
    CreateMembershipHandler,
    GetMembershipHandler,
    UpdateMembershipHandler,
    ChangeMembershipStatusHandler,
  ],
})
export class MembershipsModule {}
