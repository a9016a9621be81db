import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { PasswordHasher, passwordPolicyViolation, SessionService, UserEntity, UserResponse } from '../../identity';
import { UserRepository } from '../persistence/user.repository';
import { temporaryPasswordConflict } from '../domain/user-rules';
import { SetTemporaryPasswordCommand } from './set-temporary-password.command';

/**
 * An administrator reset. The user must change the password at the next
 * sign-in, and every session it has now ends.
 */
@CommandHandler(SetTemporaryPasswordCommand)
export class SetTemporaryPasswordHandler implements ICommandHandler<SetTemporaryPasswordCommand, UserResponse> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly users: UserRepository,
  ) {}

  async execute({ principal, userId, temporaryPassword }: SetTemporaryPasswordCommand): Promise<UserResponse> {
    // Checked before bcrypt runs, then again on the locked row.
    this.check(await this.users.find(this.dataSource.manager, userId), principal.userId, temporaryPassword);
    const passwordHash = await this.hasher.hash(temporaryPassword);

    return this.unitOfWork.run(async (tx) => {
      const user = await this.users.lock(tx.manager, userId);
      this.check(user, principal.userId, temporaryPassword);
      await tx.manager.update(
        UserEntity,
        { userId: user.userId },
        { passwordHash, passwordChangeRequired: true, updatedAt: () => 'clock_timestamp()' },
      );
      const revokedSessions = await this.sessions.revokeAll(tx.manager, user.userId, 'temporary_password');
      await tx.audit({
        eventType: 'user.temporary_password_set',
        action: 'set_temporary_password',
        entityType: 'user',
        entityId: user.userId,
        metadata: { revokedSessions },
      });
      return UserResponse.of(await this.users.find(tx.manager, user.userId));
    });
  }

  private check(user: UserEntity, callerId: string, temporaryPassword: string): void {
    const violation = passwordPolicyViolation(temporaryPassword, user);
    if (violation) throw ValidationFailedError.single('body.temporaryPassword', 'password_policy', violation);
    const conflict = temporaryPasswordConflict(user, callerId);
    if (conflict) throw conflict;
  }
}
