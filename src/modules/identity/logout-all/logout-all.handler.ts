import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { SessionService } from '../domain/session-service';
import { LogoutAllCommand } from './logout-all.command';

@CommandHandler(LogoutAllCommand)
export class LogoutAllHandler implements ICommandHandler<LogoutAllCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly sessions: SessionService,
  ) {}

  execute({ userId }: LogoutAllCommand): Promise<void> {
    return this.unitOfWork.run(async (tx) => {
      const revoked = await this.sessions.revokeAll(tx.manager, userId, 'logout_all');
      await tx.audit({
        eventType: 'session.all_revoked',
        action: 'logout_all',
        entityType: 'session',
        entityId: null,
        metadata: { userId, revokedSessions: revoked },
      });
    });
  }
}
