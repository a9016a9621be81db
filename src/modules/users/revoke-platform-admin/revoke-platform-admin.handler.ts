import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { UserEntity, UserResponse } from '../../identity';
import { PLATFORM_ADMIN_ROLE } from '../domain/platform-role';
import { lockoutConflict } from '../domain/user-rules';
import { UserRepository } from '../persistence/user.repository';
import { RevokePlatformAdminCommand } from './revoke-platform-admin.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

/**
 * Idempotent: a user without the role is answered as is. Demoting is refused for a protected user, the caller
 * themself and the last active platform admin, counted under a lock on the admins' rows.
 */
@CommandHandler(RevokePlatformAdminCommand)
export class RevokePlatformAdminHandler implements ICommandHandler<RevokePlatformAdminCommand, UserResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserRepository,
    private readonly authCache: AuthCache,
  ) {}

  execute({ principal, userId }: RevokePlatformAdminCommand): Promise<UserResponse> {
    return this.unitOfWork.run(async (tx) => {
      const activeAdmins = await this.users.lockActiveAdmins(tx.manager);
      const user = await this.users.lock(tx.manager, userId);
      if (!user.isPlatformAdmin) return UserResponse.of(user);
      const conflict = lockoutConflict(user, principal.userId, activeAdmins.filter((id) => id !== userId).length);
      if (conflict) throw conflict;
      await tx.manager.update(UserEntity, { userId }, { isPlatformAdmin: false, updatedAt: () => 'clock_timestamp()' });
      await this.authCache.invalidate(tx.manager, { userId });
      await tx.audit({
        eventType: 'user.platform_role_revoked',
        action: 'revoke_platform_role',
        entityType: 'user',
        entityId: userId,
        metadata: { role: PLATFORM_ADMIN_ROLE },
      });
      return UserResponse.of(await this.users.find(tx.manager, userId));
    });
  }
}
