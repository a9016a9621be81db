import type { EntityManager } from 'typeorm';
import type { UserStatus } from './user.entity';

/** What another module may know of a user it addresses: the e-mail, whether the account is active, the platform role. */
export interface UserContact {
  userId: string;
  email: string;
  status: UserStatus;
  isPlatformAdmin: boolean;
}

/** The contacts of `userIds` that exist, keyed by id. Reads through `manager` (the caller may be in a transaction). */
export async function readUserContacts(manager: EntityManager, userIds: readonly string[]): Promise<Map<string, UserContact>> {
  const ids = [...new Set(userIds)];
  if (ids.length === 0) return new Map();
  const rows = await manager.query<UserContact[]>(
    `SELECT user_id AS "userId", email, status, is_platform_admin AS "isPlatformAdmin" FROM users WHERE user_id = ANY ($1::uuid[])`,
    [ids],
  );
  return new Map(rows.map((row) => [row.userId, row]));
}
