import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { SessionService } from '../domain/session-service';
import { TokenIssuer } from '../domain/token-issuer';
import { LogoutCommand } from './logout.command';

/** Revokes the cookie's session when it is the caller's own, else the bearer's. */
@CommandHandler(LogoutCommand)
export class LogoutHandler implements ICommandHandler<LogoutCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly sessions: SessionService,
  ) {}

  execute({ userId, bearerSessionId, refreshToken }: LogoutCommand): Promise<void> {
    return this.unitOfWork.run(async (tx) => {
      let sessionId = bearerSessionId;
      if (refreshToken) {
        const [own] = await tx.manager.query<{ session_id: string }[]>(
          `SELECT s.session_id FROM refresh_tokens t JOIN sessions s ON s.session_id = t.session_id
            WHERE t.token_hash = $1 AND s.user_id = $2`,
          [TokenIssuer.hashRefreshToken(refreshToken), userId],
        );
        if (own) sessionId = own.session_id;
      }
      if (await this.sessions.revoke(tx.manager, sessionId, 'logout')) {
        await tx.audit({ eventType: 'session.logged_out', action: 'logout', entityType: 'session', entityId: sessionId });
      }
    });
  }
}
