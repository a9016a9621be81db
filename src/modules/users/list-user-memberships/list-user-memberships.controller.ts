import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../../shared/auth/principal';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { ListUserMembershipsParams } from './list-user-memberships.request.dto';
import { ListUserMembershipsQuery } from './list-user-memberships.query';
import { UserMembershipPage } from './user-membership.response.dto';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class ListUserMembershipsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':userId/memberships')
  @ApiOkResponse({ type: UserMembershipPage, description: 'All tenants and statuses, ascending by (createdAt, membershipId).' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  list(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Query() params: ListUserMembershipsParams,
  ): Promise<UserMembershipPage> {
    return this.queryBus.execute(new ListUserMembershipsQuery(principal.userId, userId, params));
  }
}
