import { Body, Controller, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../../shared/auth/principal';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { UserResponse } from '../../identity/domain/user.response.dto';
import { UpdateUserCommand } from './update-user.command';
import { UpdateUserRequest } from './update-user.request.dto';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class UpdateUserController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':userId')
  @ApiOkResponse({ type: UserResponse, description: 'The same status again is a no-op.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  @ApiConflictResponse({
    description: '`duplicate_username`, `duplicate_email`, `protected_user`, `self_lockout`, `last_platform_admin`.',
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Body() body: UpdateUserRequest,
  ): Promise<UserResponse> {
    return this.commandBus.execute(new UpdateUserCommand(principal, userId, { ...body }));
  }
}
