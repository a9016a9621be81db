import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { SessionService } from '../domain/session-service';
import { RevokeSessionCommand } from './revoke-session.command';

/** Only the owner's active sessions exist for this route: anyone else's is a 404, like a missing one. */
@CommandHandler(RevokeSessionCommand)
export class RevokeSessionHandler implements ICommandHandler<RevokeSessionCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly sessions: SessionService,
  ) {}

  execute({ userId, sessionId }: RevokeSessionCommand): Promise<void> {
    return this.unitOfWork.run(async (tx) => {
      const [own] = await tx.manager.query<unknown[]>(
        `SELECT 1 FROM sessions WHERE session_id = $1 AND user_id = $2 AND revoked_at IS NULL
            AND refresh_idle_expires_at > clock_timestamp() FOR UPDATE`,
        [sessionId, userId],
      );
      if (!own) throw new ResourceNotFoundError('session');
      await this.sessions.revoke(tx.manager, sessionId, 'revoked');
      await tx.audit({ eventType: 'session.revoked', action: 'revoke', entityType: 'session', entityId: sessionId });
    });
  }
}
