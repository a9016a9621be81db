import { Controller, Delete, HttpCode } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../../shared/auth/principal';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { UserResponse } from '../../identity/domain/user.response.dto';
import { PLATFORM_ADMIN_ROLE_PATH } from '../domain/platform-role';
import { RevokePlatformAdminCommand } from './revoke-platform-admin.command';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class RevokePlatformAdminController {
  constructor(private readonly commandBus: CommandBus) {}

  @Delete(PLATFORM_ADMIN_ROLE_PATH)
  @HttpCode(200)
  @ApiOkResponse({ type: UserResponse, description: 'Idempotent.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  @ApiConflictResponse({ description: '`protected_user`, `self_lockout`, `last_platform_admin`.' })
  revoke(@CurrentPrincipal() principal: Principal, @UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.commandBus.execute(new RevokePlatformAdminCommand(principal, userId));
  }
}
