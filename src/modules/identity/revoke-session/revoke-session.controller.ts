import { Controller, Delete, HttpCode } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiNotFoundResponse, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { RevokeSessionCommand } from './revoke-session.command';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class RevokeSessionController {
  constructor(private readonly commandBus: CommandBus) {}

  @Delete('sessions/:sessionId')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked (the current session too).' })
  @ApiNotFoundResponse({ description: 'No such active session of the caller.' })
  async revoke(@CurrentPrincipal() principal: Principal, @UuidParam('sessionId') sessionId: string): Promise<void> {
    await this.commandBus.execute(new RevokeSessionCommand(principal.userId, sessionId));
  }
}
