import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { AppConfig } from '../../../config/app-config';
import { AuthenticationFailedError, ConflictError } from '../../../shared/errors/domain-error';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { SessionService } from '../domain/session-service';
import { IssuedTokens, TokenIssuer } from '../domain/token-issuer';
import { RefreshCommand } from './refresh.command';

interface PresentedToken {
  session_id: string;
  user_id: string;
  rotated_for_seconds: number | null;
  session_active: boolean;
  user_active: boolean;
  password_change_required: boolean;
}

type Outcome = { kind: 'rotated'; issued: IssuedTokens } | { kind: 'race' } | { kind: 'rejected' };

/**
 * Rotation under a row lock on the presented token, so two concurrent refreshes of one token can never both
 * succeed: the second waits, then finds it rotated. A rotated token presented again inside
 * REFRESH_RACE_WINDOW_SECONDS is a client race (409, retry with the new cookie); later it is reuse: the session
 * is revoked and the event audited.
 */
@CommandHandler(RefreshCommand)
export class RefreshHandler implements ICommandHandler<RefreshCommand> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly sessions: SessionService,
    private readonly tokens: TokenIssuer,
    private readonly config: AppConfig,
  ) {}

  async execute({ refreshToken }: RefreshCommand): Promise<IssuedTokens> {
    const hash = TokenIssuer.hashRefreshToken(refreshToken);
    const outcome = await this.unitOfWork.run<Outcome>(async (tx) => {
      const [token] = await tx.manager.query<PresentedToken[]>(
        `SELECT s.session_id, s.user_id,
                extract(epoch FROM clock_timestamp() - t.rotated_at)::float8 AS rotated_for_seconds,
                (s.revoked_at IS NULL AND s.refresh_idle_expires_at > clock_timestamp()) AS session_active,
                u.status = 'active' AS user_active, u.password_change_required
           FROM refresh_tokens t
           JOIN sessions s ON s.session_id = t.session_id
           JOIN users u ON u.user_id = s.user_id
          WHERE t.token_hash = $1
          FOR UPDATE OF t, s`,
        [hash],
      );
      if (!token || !token.session_active || !token.user_active) return { kind: 'rejected' };
      const actor = { actorType: 'user' as const, actorId: token.user_id };

      if (token.rotated_for_seconds !== null) {
        if (token.rotated_for_seconds <= this.config.refreshRaceWindowSeconds) return { kind: 'race' };
        await this.sessions.revoke(tx.manager, token.session_id, 'reuse_detected');
        await tx.audit({
          eventType: 'session.reuse_detected',
          action: 'refresh',
          entityType: 'session',
          entityId: token.session_id,
          outcome: 'failure',
          errorCode: 'AUTHENTICATION_FAILED',
          actor,
        });
        return { kind: 'rejected' };
      }

      const rotated = await this.sessions.rotate(tx.manager, token.session_id, hash);
      await tx.audit({
        eventType: 'session.refreshed',
        action: 'refresh',
        entityType: 'session',
        entityId: token.session_id,
        actor,
      });
      return {
        kind: 'rotated',
        issued: {
          body: this.tokens.tokenBody(
            token.user_id,
            token.session_id,
            rotated.refreshIdleExpiresAt,
            token.password_change_required,
          ),
          refreshToken: rotated.refreshToken,
        },
      };
    });

    if (outcome.kind === 'race') {
      throw new ConflictError(
        'refresh_in_progress',
        'This refresh token was just rotated; retry once with the current cookie.',
        {},
        { 'Retry-After': '1' },
      );
    }
    if (outcome.kind === 'rejected') {
      throw new AuthenticationFailedError(undefined, 'The refresh cookie is missing, invalid, expired or revoked.');
    }
    return outcome.issued;
  }
}
