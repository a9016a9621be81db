import { createHash } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { RateLimitedError } from '../../../shared/errors/domain-error';

/**
 * The login throttle, in PostgreSQL so it holds across replicas and restarts, and checked before bcrypt
 * runs: LOGIN_MAX_FAILURES consecutive failures per identifier lock it for LOGIN_LOCKOUT_MINUTES after the last
 * failure; LOGIN_IP_ATTEMPTS_PER_MINUTE attempts per IP address per clock minute.
 */
@Injectable()
export class LoginThrottle {
  constructor(
    private readonly dataSource: DataSource,
    private readonly config: AppConfig,
  ) {}

  /**
   * The lock follows the account, whichever identifier (username or e-mail, any case) names it; identifiers
   * naming no account are counted as typed (trimmed, any case), so probing unknown names is throttled the same
   * way. The typed identifier is stored as its SHA-256, so the key has a fixed length whatever was typed (an
   * identifier of up to 320 characters plus a prefix would not fit the key column).
   */
  static keyOf(identifier: string, userId: string | undefined): string {
    if (userId) return `user:${userId}`;
    return `identifier:${createHash('sha256').update(identifier.trim().toLowerCase()).digest('hex')}`;
  }

  /** Counts this attempt for the client IP and refuses it (429) over LOGIN_IP_ATTEMPTS_PER_MINUTE. */
  async admitIp(ip: string): Promise<void> {
    const [ipRow] = await this.dataSource.query<{ attempts: number; retry_after: number }[]>(
      `INSERT INTO login_ip_attempts (ip, window_start, attempts)
       VALUES ($1, date_trunc('minute', clock_timestamp()), 1)
       ON CONFLICT (ip, window_start) DO UPDATE SET attempts = login_ip_attempts.attempts + 1
       RETURNING attempts,
                 ceil(extract(epoch FROM window_start + interval '1 minute' - clock_timestamp()))::int AS retry_after`,
      [ip],
    );
    if (ipRow && ipRow.attempts > this.config.loginIpAttemptsPerMinute) {
      throw tooMany(Math.max(1, ipRow.retry_after));
    }
  }

  async assertIdentifierOpen(manager: EntityManager, identifierKey: string): Promise<void> {
    const [row] = await manager.query<{ retry_after: number }[]>(
      `SELECT ceil(extract(epoch FROM last_failure_at + make_interval(mins => $2) - clock_timestamp()))::int AS retry_after
         FROM login_failures
        WHERE identifier_key = $1 AND consecutive_failures >= $3
          AND last_failure_at + make_interval(mins => $2) > clock_timestamp()`,
      [identifierKey, this.config.loginLockoutMinutes, this.config.loginMaxFailures],
    );
    if (row) throw tooMany(Math.max(1, row.retry_after));
  }

  /** One more consecutive failure; a lockout that has run out starts counting from one again. */
  async recordFailure(manager: EntityManager, identifierKey: string): Promise<void> {
    await manager.query(
      `INSERT INTO login_failures (identifier_key, consecutive_failures, last_failure_at)
       VALUES ($1, 1, clock_timestamp())
       ON CONFLICT (identifier_key) DO UPDATE SET
         consecutive_failures = CASE
           WHEN login_failures.last_failure_at + make_interval(mins => $2) <= clock_timestamp() THEN 1
           ELSE login_failures.consecutive_failures + 1 END,
         last_failure_at = clock_timestamp()`,
      [identifierKey, this.config.loginLockoutMinutes],
    );
  }

  async recordSuccess(manager: EntityManager, identifierKey: string): Promise<void> {
    await manager.query(`DELETE FROM login_failures WHERE identifier_key = $1`, [identifierKey]);
  }

  /**
   * Past IP windows and failures older than a lockout no longer count (a next failure would restart at one).
   * Runs as the recurring background job `identity.login-throttle.prune`, never in a request.
   */
  async prune(): Promise<void> {
    await this.dataSource.query(`DELETE FROM login_ip_attempts WHERE window_start < date_trunc('minute', clock_timestamp())`);
    await this.dataSource.query(
      `DELETE FROM login_failures WHERE last_failure_at + make_interval(mins => $1) <= clock_timestamp()`,
      [this.config.loginLockoutMinutes],
    );
  }
}

function tooMany(retryAfterSeconds: number): RateLimitedError {
  return new RateLimitedError(retryAfterSeconds, 'Too many sign-in attempts; try again later.');
}
