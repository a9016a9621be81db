import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { ConstraintErrors } from '../../../shared/database/pg-errors';
import { ConflictError, ResourceNotFoundError } from '../../../shared/errors/domain-error';
import { UserEntity } from '../../identity';

const DUPLICATE_USERNAME = () => new ConflictError('duplicate_username', 'A user with this username already exists.');
const DUPLICATE_EMAIL = () => new ConflictError('duplicate_email', 'A user with this e-mail address already exists.');
/**
 * The case-insensitive unique indexes of the identity migration: two concurrent requests for one name both pass
 * the check in SQL, and the loser's INSERT or UPDATE must still answer 409, never 500.
 */
export const USER_CONSTRAINTS: ConstraintErrors = {
  users_username_ci_key: DUPLICATE_USERNAME,
  users_email_ci_key: DUPLICATE_EMAIL,
};

/** Row access of the users API; every method runs on the command's transaction manager. */
@Injectable()
export class UserRepository {
  async find(manager: EntityManager, userId: string): Promise<UserEntity> {
    const user = await manager.findOneBy(UserEntity, { userId });
    if (!user) throw new ResourceNotFoundError('user');
    return user;
  }

  /** The user, locked until the end of the transaction. */
  async lock(manager: EntityManager, userId: string): Promise<UserEntity> {
    const user = await manager.findOne(UserEntity, { where: { userId }, lock: { mode: 'pessimistic_write' } });
    if (!user) throw new ResourceNotFoundError('user');
    return user;
  }

  /**
   * Locks every active platform admin (in id order, so concurrent callers cannot deadlock) and returns their
   * ids. A command that may remove an admin calls it before locking its target.
   */
  async lockActiveAdmins(manager: EntityManager): Promise<string[]> {
    const rows = await manager.query<{ user_id: string }[]>(
      `SELECT user_id FROM users WHERE is_platform_admin AND status = 'active' ORDER BY user_id FOR UPDATE`,
    );
    return rows.map((row) => row.user_id);
  }

  /** 409 `duplicate_username` / `duplicate_email` (case-insensitive), ignoring the user being updated. */
  async assertAvailable(
    manager: EntityManager,
    wanted: { username?: string; email?: string },
    exceptUserId: string | null = null,
  ): Promise<void> {
    if (wanted.username === undefined && wanted.email === undefined) return;
    const [taken] = await manager.query<{ username: boolean; email: boolean }[]>(
      `SELECT coalesce(bool_or(lower(username) = lower($1)), false) AS username,
              coalesce(bool_or(lower(email) = lower($2)), false) AS email
         FROM users
        WHERE (lower(username) = lower($1) OR lower(email) = lower($2))
          AND ($3::uuid IS NULL OR user_id <> $3::uuid)`,
      [wanted.username ?? null, wanted.email ?? null, exceptUserId],
    );
    if (taken?.username) throw DUPLICATE_USERNAME();
    if (taken?.email) throw DUPLICATE_EMAIL();
  }
}

