import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { SessionService, UserEntity, UserResponse } from '../../identity';
import { lockoutConflict } from '../domain/user-rules';
import { UserRepository, USER_CONSTRAINTS } from '../persistence/user.repository';
import { UpdateUserCommand } from './update-user.command';
import type { UserChanges } from '../dto/update-user.request.dto';
import { AuthCache } from '../../../shared/auth/auth-cache';

type ChangedField = keyof UserChanges;

/**
 * A partial update. Disabling revokes every session of the user in the same transaction
 * and is refused for a protected user, the caller themself and the last active platform admin; a field equal
 * to its current value is not a change, and a request without any change writes nothing.
 */
@CommandHandler(UpdateUserCommand)
export class UpdateUserHandler implements ICommandHandler<UpdateUserCommand, UserResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserRepository,
    private readonly sessions: SessionService,
    private readonly authCache: AuthCache,
  ) {}

  execute({ principal, userId, changes }: UpdateUserCommand): Promise<UserResponse> {
    return this.unitOfWork.run(
      async (tx) => {
        // Admins first, then the target: the lock order every admin-removing command uses.
        const activeAdmins = changes.status === 'disabled' ? await this.users.lockActiveAdmins(tx.manager) : [];
        const user = await this.users.lock(tx.manager, userId);
        const changed = changedFields(user, changes);
        if (changed.length === 0) return UserResponse.of(user);

        const statusMove = changed.includes('status') && changes.status ? { before: user.status, after: changes.status } : null;
        if (statusMove?.after === 'disabled') {
          const conflict = lockoutConflict(user, principal.userId, activeAdmins.filter((id) => id !== user.userId).length);
          if (conflict) throw conflict;
        }
        await this.users.assertAvailable(
          tx.manager,
          {
            username: changed.includes('username') ? changes.username : undefined,
            email: changed.includes('email') ? changes.email : undefined,
          },
          user.userId,
        );

        await tx.manager.update(
          UserEntity,
          { userId: user.userId },
          { ...Object.fromEntries(changed.map((field) => [field, changes[field]])), updatedAt: () => 'clock_timestamp()' },
        );
        await this.authCache.invalidate(tx.manager, { userId: user.userId });
        const revokedSessions =
          statusMove?.after === 'disabled' ? await this.sessions.revokeAll(tx.manager, user.userId, 'user_disabled') : undefined;

        // One event per command: a status move is the event; other changed fields ride along.
        const event = statusMove ? (statusMove.after === 'disabled' ? 'disabled' : 'reactivated') : 'updated';
        await tx.audit({
          eventType: `user.${event}`,
          action: statusMove ? (statusMove.after === 'disabled' ? 'disable' : 'reactivate') : 'update',
          entityType: 'user',
          entityId: user.userId,
          metadata: {
            changedFields: changed,
            ...(statusMove ? { status: statusMove } : {}),
            ...(revokedSessions !== undefined ? { revokedSessions } : {}),
          },
        });
        return UserResponse.of(await this.users.find(tx.manager, user.userId));
      },
      { constraints: USER_CONSTRAINTS },
    );
  }
}

/** The fields of `changes` whose value differs from the user's (metadata compared as a map). */
function changedFields(user: UserEntity, changes: UserChanges): ChangedField[] {
  const fields: ChangedField[] = ['username', 'email', 'displayName', 'status', 'metadata'];
  return fields.filter((field) => {
    const wanted = changes[field];
    if (wanted === undefined) return false;
    if (field === 'metadata') return !sameMap(user.metadata, wanted as Record<string, string>);
    return user[field] !== wanted;
  });
}

function sameMap(a: Record<string, string>, b: Record<string, string>): boolean {
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => Object.hasOwn(b, key) && a[key] === b[key]);
}
