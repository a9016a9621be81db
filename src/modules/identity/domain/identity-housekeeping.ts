import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { LoginThrottle } from './login-throttle';

export const LOGIN_THROTTLE_PRUNE_JOB = 'identity.login-throttle.prune';
export const ENDED_SESSIONS_PRUNE_JOB = 'identity.sessions.prune';
/** An ended session (revoked or past its refresh deadline) is kept this long, then deleted with its refresh tokens. */
export const ENDED_SESSION_RETENTION_DAYS = 30;

/** Every minute, on one replica at a time: forgets IP windows and failure counts that no longer count. */
@Injectable()
@JobHandler({ name: LOGIN_THROTTLE_PRUNE_JOB, everyMs: 60_000 })
export class LoginThrottlePruneJob implements JobHandlerInstance {
  constructor(private readonly throttle: LoginThrottle) {}

  handle(): Promise<void> {
    return this.throttle.prune();
  }
}

/**
 * Every hour, on one replica at a time: deletes sessions that ended more than ENDED_SESSION_RETENTION_DAYS ago.
 * Such a session no longer authenticates and its refresh tokens are refused like unknown ones, so deleting it
 * changes no answer.
 */
@Injectable()
@JobHandler({ name: ENDED_SESSIONS_PRUNE_JOB, everyMs: 3_600_000 })
export class EndedSessionsPruneJob implements JobHandlerInstance {
  constructor(private readonly dataSource: DataSource) {}

  async handle(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM sessions
        WHERE least(coalesce(revoked_at, 'infinity'), refresh_idle_expires_at) < clock_timestamp() - make_interval(days => $1)`,
      [ENDED_SESSION_RETENTION_DAYS],
    );
  }
}
