import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../../shared/auth/principal';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { UserResponse } from '../../identity/domain/user.response.dto';
import { SetTemporaryPasswordCommand } from './set-temporary-password.command';
import { SetTemporaryPasswordRequest } from './set-temporary-password.request.dto';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class SetTemporaryPasswordController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':userId/temporary-password')
  @HttpCode(200)
  @ApiOkResponse({ type: UserResponse, description: 'The user must change the password at the next sign-in; its sessions are revoked.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  @ApiConflictResponse({ description: '`protected_user`, `self_target`.' })
  set(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Body() body: SetTemporaryPasswordRequest,
  ): Promise<UserResponse> {
    return this.commandBus.execute(new SetTemporaryPasswordCommand(principal, userId, body.temporaryPassword));
  }
}
