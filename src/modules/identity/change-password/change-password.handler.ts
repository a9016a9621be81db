import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AuthenticationFailedError, ValidationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { LoginThrottle } from '../domain/login-throttle';
import { PasswordHasher, passwordPolicyViolation } from '../domain/password-hasher';
import { SessionService } from '../domain/session-service';
import { IssuedTokens, TokenIssuer } from '../domain/token-issuer';
import { UserEntity } from '../persistence/user.entity';
import { ChangePasswordCommand } from './change-password.command';
import { AppConfig } from '../../../config/app-config';
import { discardInitialAdminPassword } from '../bootstrap/platform-admin-bootstrap';

/**
 * Checks the current password under the login throttle (a stolen access token must not become a password
 * oracle), then replaces the hash, clears the forced-change flag, revokes every session of the user (the
 * calling one too) and opens one new session, all in one transaction.
 */
@CommandHandler(ChangePasswordCommand)
export class ChangePasswordHandler implements ICommandHandler<ChangePasswordCommand> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly throttle: LoginThrottle,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly tokens: TokenIssuer,
    private readonly config: AppConfig,
  ) {}

  async execute({ principal, currentPassword, newPassword, ip }: ChangePasswordCommand): Promise<IssuedTokens> {
    const key = LoginThrottle.keyOf(principal.username, principal.userId);
    await this.throttle.admitIp(ip);
    await this.throttle.assertIdentifierOpen(this.dataSource.manager, key);
    const user = await this.dataSource.getRepository(UserEntity).findOneBy({ userId: principal.userId });
    if (!user) throw new AuthenticationFailedError('revoked_session', 'The session has ended; sign in again.');

    if (!(await this.hasher.verify(currentPassword, user.passwordHash))) {
      await this.unitOfWork.run(async (tx) => {
        await this.throttle.recordFailure(tx.manager, key);
        await tx.audit({
          eventType: 'user.password_change_failed',
          action: 'change_password',
          entityType: 'user',
          entityId: user.userId,
          outcome: 'failure',
          errorCode: 'VALIDATION_FAILED',
          metadata: { reason: 'incorrect_current_password' },
        });
      });
      throw ValidationFailedError.single('body.currentPassword', 'incorrect', 'The current password is incorrect.');
    }
    if (newPassword === currentPassword) {
      throw ValidationFailedError.single('body.newPassword', 'unchanged', 'The new password must differ from the current one.');
    }
    const violation = passwordPolicyViolation(newPassword, user);
    if (violation) throw ValidationFailedError.single('body.newPassword', 'password_policy', violation);

    const passwordHash = await this.hasher.hash(newPassword);
    const issued = await this.unitOfWork.run(async (tx) => {
      await this.throttle.recordSuccess(tx.manager, key);
      await tx.manager.update(
        UserEntity,
        { userId: user.userId },
        {
          passwordHash,
          passwordChangeRequired: false,
          passwordChangedAt: () => 'clock_timestamp()',
          updatedAt: () => 'clock_timestamp()',
        },
      );
      const revoked = await this.sessions.revokeAll(tx.manager, user.userId, 'password_changed');
      const { session, refreshToken } = await this.sessions.open(tx.manager, user.userId);
      await tx.audit({
        eventType: 'user.password_changed',
        action: 'change_password',
        entityType: 'user',
        entityId: user.userId,
        metadata: { revokedSessions: revoked, sessionId: session.sessionId },
      });
      return { body: this.tokens.tokenBody(user.userId, session.sessionId, session.refreshIdleExpiresAt, false), refreshToken };
    });
    // After COMMIT: a development start's one-time password file holds a password that no longer works.
    discardInitialAdminPassword(this.config, currentPassword);
    return issued;
  }
}
