import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiOkResponse, ApiProperty, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, Principal } from '../../../shared/auth/principal';
import { SessionResponse } from '../domain/session.response.dto';
import { ListSessionsQuery } from './list-sessions.query';

class SessionList {
  @ApiProperty({ type: [SessionResponse], maxItems: 10 })
  items!: SessionResponse[];
}

@ApiTags('auth')
@ApiBearerAuth()
@Controller('v1/auth')
export class ListSessionsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('sessions')
  @ApiOkResponse({ type: SessionList })
  list(@CurrentPrincipal() principal: Principal): Promise<SessionList> {
    return this.queryBus.execute(new ListSessionsQuery(principal));
  }
}
