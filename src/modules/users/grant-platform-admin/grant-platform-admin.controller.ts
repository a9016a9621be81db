import { Controller, Put } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { PlatformAdminOnly } from '../../../shared/auth/principal';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { UserResponse } from '../../identity/domain/user.response.dto';
import { PLATFORM_ADMIN_ROLE_PATH } from '../domain/platform-role';
import { GrantPlatformAdminCommand } from './grant-platform-admin.command';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class GrantPlatformAdminController {
  constructor(private readonly commandBus: CommandBus) {}

  @Put(PLATFORM_ADMIN_ROLE_PATH)
  @ApiOkResponse({ type: UserResponse, description: 'Idempotent.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  grant(@UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.commandBus.execute(new GrantPlatformAdminCommand(userId));
  }
}
