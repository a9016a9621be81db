import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { SessionResponse } from '../dto/session.response.dto';
import { SessionService } from '../domain/session-service';
import { ListSessionsQuery } from './list-sessions.query';

/** At most 10 active sessions, most recently used first. */
@QueryHandler(ListSessionsQuery)
export class ListSessionsHandler implements IQueryHandler<ListSessionsQuery> {
  constructor(private readonly sessions: SessionService) {}

  async execute({ principal }: ListSessionsQuery): Promise<{ items: SessionResponse[] }> {
    const sessions = await this.sessions.listActive(principal.userId);
    return { items: sessions.map((session) => SessionResponse.of(session, principal.sessionId)) };
  }
}
