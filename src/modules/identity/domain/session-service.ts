import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { AuthenticationFailedError } from '../../../shared/errors/domain-error';
import type { Principal } from '../../../shared/auth/principal';
import { RefreshTokenEntity } from './refresh-token.entity';
import { SessionEntity, SessionRevokeReason } from './session.entity';
import { TokenIssuer } from './token-issuer';
import { UserEntity } from './user.entity';

export const MAX_ACTIVE_SESSIONS = 10;
/** `lastUsedAt` is refreshed at most this often by ordinary requests, so reads don't turn into writes. */
const TOUCH_INTERVAL_SECONDS = 60;

export interface OpenedSession {
  session: SessionEntity;
  refreshToken: string;
}

/** Sessions and their refresh tokens. Every method that changes state takes the command's transaction manager. */
@Injectable()
export class SessionService {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /** A new session with its first refresh token; beyond 10 active sessions the least recently used go. */
  async open(manager: EntityManager, userId: string): Promise<OpenedSession> {
    const session = await manager.save(
      manager.create(SessionEntity, { userId, refreshIdleExpiresAt: this.idleDeadline() }),
    );
    const { token, hash } = TokenIssuer.newRefreshToken();
    await manager.insert(RefreshTokenEntity, { tokenHash: hash, sessionId: session.sessionId });
    await manager.query(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = 'session_limit'
        WHERE session_id IN (
          SELECT session_id FROM sessions
           WHERE user_id = $1 AND revoked_at IS NULL AND refresh_idle_expires_at > clock_timestamp()
           ORDER BY last_used_at DESC, created_at DESC
           OFFSET $2)`,
      [userId, MAX_ACTIVE_SESSIONS],
    );
    return { session, refreshToken: token };
  }

  /** Rotates: the presented token becomes "rotated", a new one is current, the idle deadline moves. */
  async rotate(
    manager: EntityManager,
    sessionId: string,
    presentedHash: string,
  ): Promise<{ refreshToken: string; refreshIdleExpiresAt: Date }> {
    await manager.update(RefreshTokenEntity, { tokenHash: presentedHash }, { rotatedAt: () => 'clock_timestamp()' });
    const { token, hash } = TokenIssuer.newRefreshToken();
    await manager.insert(RefreshTokenEntity, { tokenHash: hash, sessionId });
    const refreshIdleExpiresAt = this.idleDeadline();
    await manager.update(SessionEntity, { sessionId }, { refreshIdleExpiresAt, lastUsedAt: () => 'clock_timestamp()' });
    return { refreshToken: token, refreshIdleExpiresAt };
  }

  async revoke(manager: EntityManager, sessionId: string, reason: SessionRevokeReason): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = $2 WHERE session_id = $1 AND revoked_at IS NULL`,
      [sessionId, reason],
    );
    return result[1] > 0;
  }

  /** Revokes every active session of the user; returns how many. */
  async revokeAll(manager: EntityManager, userId: string, reason: SessionRevokeReason): Promise<number> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId, reason],
    );
    return result[1];
  }

  async listActive(userId: string): Promise<SessionEntity[]> {
    return this.dataSource
      .getRepository(SessionEntity)
      .createQueryBuilder('s')
      .where('s.user_id = :userId AND s.revoked_at IS NULL AND s.refresh_idle_expires_at > clock_timestamp()', { userId })
      .orderBy('s.last_used_at', 'DESC')
      .addOrderBy('s.session_id', 'DESC')
      .limit(MAX_ACTIVE_SESSIONS)
      .getMany();
  }

  /**
   * Per request: the token's session must still be active (not revoked, not idle-expired) and its user active,
   * so logout, disable, password change and session deletion take effect on the very next request.
   */
  async authenticate(claims: { sub?: unknown; sid?: unknown }): Promise<Principal> {
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string') {
      throw new AuthenticationFailedError('invalid_token', 'The bearer token is invalid.');
    }
    const rows = await this.dataSource.query<
      { username: string; is_platform_admin: boolean; password_change_required: boolean; stale: boolean }[]
    >(
      `SELECT u.username, u.is_platform_admin, u.password_change_required,
              s.last_used_at < clock_timestamp() - make_interval(secs => $3) AS stale
         FROM sessions s JOIN users u ON u.user_id = s.user_id
        WHERE s.session_id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL
          AND s.refresh_idle_expires_at > clock_timestamp() AND u.status = 'active'`,
      [claims.sid, claims.sub, TOUCH_INTERVAL_SECONDS],
    ).catch((error: unknown) => {
      // A syntactically valid but non-UUID claim can only come from a forged token.
      if ((error as { code?: string }).code === '22P02') return [];
      throw error;
    });
    const [row] = rows;
    if (!row) throw new AuthenticationFailedError('revoked_session', 'The session has ended; sign in again.');
    if (row.stale) {
      await this.dataSource.query(`UPDATE sessions SET last_used_at = clock_timestamp() WHERE session_id = $1`, [claims.sid]);
    }
    return {
      userId: claims.sub,
      sessionId: claims.sid,
      username: row.username,
      isPlatformAdmin: row.is_platform_admin,
      passwordChangeRequired: row.password_change_required,
    };
  }

  async findUser(manager: EntityManager, userId: string): Promise<UserEntity | null> {
    return manager.findOne(UserEntity, { where: { userId } });
  }

  private idleDeadline(): Date {
    return new Date(Date.now() + this.config.refreshIdleTtlSeconds * 1000);
  }
}
