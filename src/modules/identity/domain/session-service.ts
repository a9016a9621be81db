import { Injectable } from '@nestjs/common';
import { ClsService } from 'nestjs-cls';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { AuthCache } from '../../../shared/auth/auth-cache';
import { preparedQuery } from '../../../shared/database/prepared-query';
import { AuthenticationFailedError } from '../../../shared/errors/domain-error';
import type { Principal } from '../../../shared/auth/principal';
import { RefreshTokenEntity } from '../persistence/refresh-token.entity';
import { SessionEntity, SessionRevokeReason } from '../persistence/session.entity';
import { TokenIssuer } from './token-issuer';
import { UserEntity } from '../persistence/user.entity';

export const MAX_ACTIVE_SESSIONS = 10;
/** `lastUsedAt` is refreshed at most this often by ordinary requests, so reads don't turn into writes. */
const TOUCH_INTERVAL_SECONDS = 60;

const AUTHENTICATE_SQL = `
  SELECT u.user_id, u.username, u.email, u.display_name, u.status, u.metadata, u.is_protected, u.is_platform_admin,
         u.password_change_required, u.created_at, u.updated_at,
         s.session_id, s.created_at AS session_created_at, s.last_used_at, s.refresh_idle_expires_at,
         s.last_used_at < clock_timestamp() - make_interval(secs => $3) AS stale
    FROM sessions s JOIN users u ON u.user_id = s.user_id
   WHERE s.session_id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL
     AND s.refresh_idle_expires_at > clock_timestamp() AND u.status = 'active'`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const AUTHENTICATED_ROWS = 'identity.authenticatedRows';

export interface AuthenticatedRows {
  user: UserEntity;
  session: SessionEntity;
}

interface AuthenticatedRow {
  user_id: string;
  username: string;
  email: string;
  display_name: string;
  status: UserEntity['status'];
  metadata: Record<string, string>;
  is_protected: boolean;
  is_platform_admin: boolean;
  password_change_required: boolean;
  created_at: Date;
  updated_at: Date;
  session_id: string;
  session_created_at: Date;
  last_used_at: Date;
  refresh_idle_expires_at: Date;
  stale: boolean;
}

function toEntities(row: AuthenticatedRow): AuthenticatedRows {
  const user = Object.assign(new UserEntity(), {
    userId: row.user_id,
    username: row.username,
    email: row.email,
    displayName: row.display_name,
    status: row.status,
    metadata: row.metadata,
    isProtected: row.is_protected,
    isPlatformAdmin: row.is_platform_admin,
    passwordHash: null, // never loaded for authentication
    passwordChangeRequired: row.password_change_required,
    passwordChangedAt: null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  });
  const session = Object.assign(new SessionEntity(), {
    sessionId: row.session_id,
    userId: row.user_id,
    createdAt: row.session_created_at,
    lastUsedAt: row.last_used_at,
    refreshIdleExpiresAt: row.refresh_idle_expires_at,
    revokedAt: null,
    revokeReason: null,
  });
  return { user, session };
}

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
    private readonly cls: ClsService,
    private readonly cache: AuthCache,
  ) {}

  /** A new session with its first refresh token; beyond 10 active sessions the least recently used go. */
  async open(manager: EntityManager, userId: string): Promise<OpenedSession> {
    const session = await manager.save(
      manager.create(SessionEntity, { userId, refreshIdleExpiresAt: this.idleDeadline() }),
    );
    const { token, hash } = TokenIssuer.newRefreshToken();
    await manager.insert(RefreshTokenEntity, { tokenHash: hash, sessionId: session.sessionId });
    const [, limited] = await manager.query<[unknown[], number]>(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = 'session_limit'
        WHERE session_id IN (
          SELECT session_id FROM (
            SELECT session_id, row_number() OVER (ORDER BY last_used_at DESC, created_at DESC) AS recency
              FROM sessions
             WHERE user_id = $1 AND revoked_at IS NULL AND refresh_idle_expires_at > clock_timestamp()) ranked
           WHERE recency > $2)`,
      [userId, MAX_ACTIVE_SESSIONS],
    );
    if (limited > 0) await this.cache.invalidate(manager, { userId });
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
    // A cached copy would keep the old idle deadline (and refuse the session early).
    await this.cache.invalidate(manager, { sessionId });
    return { refreshToken: token, refreshIdleExpiresAt };
  }

  async revoke(manager: EntityManager, sessionId: string, reason: SessionRevokeReason): Promise<boolean> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = $2 WHERE session_id = $1 AND revoked_at IS NULL`,
      [sessionId, reason],
    );
    await this.cache.invalidate(manager, { sessionId });
    return result[1] > 0;
  }

  /** Revokes every active session of the user; returns how many. */
  async revokeAll(manager: EntityManager, userId: string, reason: SessionRevokeReason): Promise<number> {
    const result = await manager.query<[unknown[], number]>(
      `UPDATE sessions SET revoked_at = clock_timestamp(), revoke_reason = $2 WHERE user_id = $1 AND revoked_at IS NULL`,
      [userId, reason],
    );
    await this.cache.invalidate(manager, { userId });
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
   * so logout, disable, password change and session deletion take effect on the very next request. One query
   * loads both rows; they stay in the request context (`authenticatedRows`) so handlers such as `me` need no
   * second round trip.
   */
  async authenticate(claims: { sub?: unknown; sid?: unknown }): Promise<Principal> {
    if (typeof claims.sub !== 'string' || typeof claims.sid !== 'string' || !UUID.test(claims.sub) || !UUID.test(claims.sid)) {
      throw new AuthenticationFailedError('invalid_token', 'The bearer token is invalid.');
    }
    const row = await this.sessionRow(claims.sid, claims.sub);
    if (!row) throw new AuthenticationFailedError('revoked_session', 'The session has ended; sign in again.');
    const rows = toEntities(row);
    if (this.cls.isActive()) this.cls.set(AUTHENTICATED_ROWS, rows);
    return {
      userId: row.user_id,
      sessionId: row.session_id,
      username: row.username,
      isPlatformAdmin: row.is_platform_admin,
      passwordChangeRequired: row.password_change_required,
    };
  }

  /**
   * The session with its user, if both are active: from the authorization cache (keyed by session, dropped by any
   * change to the session or its user, never kept past the session's idle deadline), else one query. `lastUsedAt`
   * is still refreshed at most once a minute per session.
   */
  private async sessionRow(sessionId: string, userId: string): Promise<AuthenticatedRow | null> {
    const key = `session:${sessionId}`;
    const cached = this.cache.get<AuthenticatedRow>(key);
    const now = Date.now();
    if (cached && cached.user_id === userId) {
      if (now - cached.last_used_at.getTime() >= TOUCH_INTERVAL_SECONDS * 1000) {
        cached.last_used_at = new Date(now);
        await this.dataSource.query(`UPDATE sessions SET last_used_at = clock_timestamp() WHERE session_id = $1`, [sessionId]);
      }
      return cached;
    }
    const mark = this.cache.mark();
    const [row] = await preparedQuery<AuthenticatedRow>(this.dataSource, AUTHENTICATE_SQL, [
      sessionId,
      userId,
      TOUCH_INTERVAL_SECONDS,
    ], 'uplink_authenticate_session');
    if (!row) return null;
    if (row.stale) {
      await this.dataSource.query(`UPDATE sessions SET last_used_at = clock_timestamp() WHERE session_id = $1`, [sessionId]);
      row.last_used_at = new Date(now);
    }
    this.cache.set(mark, key, row, [`session:${sessionId}`, `user:${row.user_id}`], row.refresh_idle_expires_at.getTime());
    return row;
  }

  /** The caller's user and session rows as loaded by `authenticate` for this request, if any. */
  authenticatedRows(sessionId: string): AuthenticatedRows | null {
    const rows = this.cls.isActive() ? this.cls.get<AuthenticatedRows | undefined>(AUTHENTICATED_ROWS) : undefined;
    return rows && rows.session.sessionId === sessionId ? rows : null;
  }

  private idleDeadline(): Date {
    return new Date(Date.now() + this.config.refreshIdleTtlSeconds * 1000);
  }
}
