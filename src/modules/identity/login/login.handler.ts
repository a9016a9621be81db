import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AuthenticationFailedError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { LoginThrottle } from '../domain/login-throttle';
import { PasswordHasher } from '../domain/password-hasher';
import { SessionService } from '../domain/session-service';
import { IssuedTokens, TokenIssuer } from '../domain/token-issuer';
import { UserEntity } from '../persistence/user.entity';
import { LoginCommand } from './login.command';

/**
 * Throttle first (before bcrypt), then one bcrypt comparison whatever the identifier, then one generic 401 for
 * an unknown identifier, a wrong password, a disabled user or a user without a local credential.
 */
@CommandHandler(LoginCommand)
export class LoginHandler implements ICommandHandler<LoginCommand> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly unitOfWork: UnitOfWork,
    private readonly throttle: LoginThrottle,
    private readonly hasher: PasswordHasher,
    private readonly sessions: SessionService,
    private readonly tokens: TokenIssuer,
  ) {}

  async execute({ identifier, password, ip }: LoginCommand): Promise<IssuedTokens> {
    await this.throttle.admitIp(ip);
    const user = await this.dataSource
      .getRepository(UserEntity)
      .createQueryBuilder('u')
      .where('lower(u.username) = :lowered OR lower(u.email) = :lowered', { lowered: identifier.toLowerCase() })
      .getOne();
    const key = LoginThrottle.keyOf(identifier, user?.userId);
    await this.throttle.assertIdentifierOpen(this.dataSource.manager, key);
    const passwordMatches = await this.hasher.verify(password, user?.passwordHash ?? null);
    const accepted = user !== null && passwordMatches && user.status === 'active';

    const result = await this.unitOfWork.run(async (tx) => {
      if (!accepted) {
        await this.throttle.recordFailure(tx.manager, key);
        await tx.audit({
          eventType: 'session.login_failed',
          action: 'login',
          entityType: 'session',
          entityId: null,
          outcome: 'failure',
          errorCode: 'AUTHENTICATION_FAILED',
          // The caller is not authenticated; which account was tried is still worth recording.
          metadata: {
            reason: !user ? 'unknown_identifier' : !passwordMatches ? 'wrong_password' : 'user_disabled',
            ...(user ? { userId: user.userId } : {}),
          },
        });
        return null;
      }
      await this.throttle.recordSuccess(tx.manager, key);
      const { session, refreshToken } = await this.sessions.open(tx.manager, user.userId);
      await tx.audit({
        eventType: 'session.login_succeeded',
        action: 'login',
        entityType: 'session',
        entityId: session.sessionId,
        actor: { actorType: 'user', actorId: user.userId },
      });
      return {
        body: this.tokens.tokenBody(user.userId, session.sessionId, session.refreshIdleExpiresAt, user.passwordChangeRequired),
        refreshToken,
      };
    });
    // The failure is committed (throttle count and audit row) before the generic 401 goes out.
    if (!result) throw new AuthenticationFailedError(undefined, 'Sign-in failed: check the identifier and password.');
    return result;
  }
}
