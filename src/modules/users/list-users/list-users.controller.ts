import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../../shared/auth/principal';
import { ListUsersParams } from './list-users.request.dto';
import { ListUsersQuery } from './list-users.query';
import { UserPage } from './user-page.response.dto';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class ListUsersController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
  @ApiOkResponse({ type: UserPage, description: 'Ascending by (createdAt, userId); `totalCount` is exact for the filters.' })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListUsersParams): Promise<UserPage> {
    return this.queryBus.execute(new ListUsersQuery(principal.userId, params));
  }
}
