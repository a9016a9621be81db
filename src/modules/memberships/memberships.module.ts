import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ChangeMembershipStatusHandler } from './change-membership-status/change-membership-status.handler';
import { CreateMembershipHandler } from './create-membership/create-membership.handler';
import { MembershipRepository } from './persistence/membership.repository';
import { VisibleMembership } from './domain/visible-membership';
import { GetMembershipHandler } from './get-membership/get-membership.handler';
import { ListMembershipsHandler } from './list-memberships/list-memberships.handler';
import { MembershipsController } from './memberships.controller';
import { UpdateMembershipHandler } from './update-membership/update-membership.handler';

/** Membership grants, scoped by their target (tenant or unit). */
@Module({
  imports: [PaginationModule],
  controllers: [MembershipsController],
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
