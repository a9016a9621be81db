import { Controller, Delete, Get, HttpCode } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNoContentResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { UuidParam } from '../../shared/validation/uuid-param';
import { ListSessionsQuery } from './list-sessions/list-sessions.query';
import { SessionList } from './dto/session-list.response.dto';
import { RevokeSessionCommand } from './revoke-session/revoke-session.command';

@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class SessionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('sessions')
  @OperationId('ListSessionsController_list')
  @ApiOkResponse({ type: SessionList })
  list(@CurrentPrincipal() principal: Principal): Promise<SessionList> {
    return this.queryBus.execute(new ListSessionsQuery(principal));
  }

  @Delete('sessions/:sessionId')
  @OperationId('RevokeSessionController_revoke')
  @HttpCode(204)
  @ApiNoContentResponse({ description: 'Revoked (the current session too).' })
  @ApiNotFoundResponse({ description: 'No such active session of the caller.' })
  async revoke(@CurrentPrincipal() principal: Principal, @UuidParam('sessionId') sessionId: string): Promise<void> {
    await this.commandBus.execute(new RevokeSessionCommand(principal.userId, sessionId));
  }
}
