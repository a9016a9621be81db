import { Controller } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { UuidParam } from '../../shared/validation/uuid-param';
import { ListSessionsQuery } from './list-sessions/list-sessions.query';
import { SessionList } from './dto/session-list.response.dto';
import { RevokeSessionCommand } from './revoke-session/revoke-session.command';
import { ApiDocs } from '../../shared/http/route-docs';
import { SESSIONS_DOCS } from './sessions.docs';
import { Route, WriteById } from '../../shared/http/routes';

@ApiTags('auth')
@ApiBearerAuth()
@ApiDocs(SESSIONS_DOCS)
@Controller('v1/auth')
export class SessionsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', 'sessions', { operationId: 'sessions_list', type: SessionList })
  list(@CurrentPrincipal() principal: Principal): Promise<SessionList> {
    return this.queryBus.execute(new ListSessionsQuery(principal));
  }

  @WriteById('delete', 'sessions/:sessionId', {
    operationId: 'sessions_revoke',
    status: 204,
    description: 'Revoked (the current session too).',
    notFound: 'No such active session of the caller.',
  })
  async revoke(@CurrentPrincipal() principal: Principal, @UuidParam('sessionId') sessionId: string): Promise<void> {
    await this.commandBus.execute(new RevokeSessionCommand(principal.userId, sessionId));
  }
}
