import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PlatformAdminOnly } from '../../../shared/auth/principal';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { UserResponse } from '../../identity/domain/user.response.dto';
import { GetUserQuery } from './get-user.query';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class GetUserController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':userId')
  @ApiOkResponse({ type: UserResponse })
  @ApiNotFoundResponse({ description: 'No such user (`resourceType` `user`).' })
  get(@UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.queryBus.execute(new GetUserQuery(userId));
  }
}
