import { CommandHandler, ICommandHandler } from '@nestjs/cqrs';
import { UnitOfWork } from '../../../shared/events/unit-of-work';
import { UserEntity, UserResponse } from '../../identity';
import { PLATFORM_ADMIN_ROLE } from '../domain/platform-role';
import { UserRepository } from '../persistence/user.repository';
import { GrantPlatformAdminCommand } from './grant-platform-admin.command';
import { AuthCache } from '../../../shared/auth/auth-cache';

/** Idempotent: granting the role to an admin changes and audits nothing. */
@CommandHandler(GrantPlatformAdminCommand)
export class GrantPlatformAdminHandler implements ICommandHandler<GrantPlatformAdminCommand, UserResponse> {
  constructor(
    private readonly unitOfWork: UnitOfWork,
    private readonly users: UserRepository,
    private readonly authCache: AuthCache,
  ) {}

  execute({ userId }: GrantPlatformAdminCommand): Promise<UserResponse> {
    return this.unitOfWork.run(async (tx) => {
      const user = await this.users.lock(tx.manager, userId);
      if (user.isPlatformAdmin) return UserResponse.of(user);
      await tx.manager.update(UserEntity, { userId }, { isPlatformAdmin: true, updatedAt: () => 'clock_timestamp()' });
      await this.authCache.invalidate(tx.manager, { userId });
      await tx.audit({
        eventType: 'user.platform_role_granted',
        action: 'grant_platform_role',
        entityType: 'user',
        entityId: userId,
        metadata: { role: PLATFORM_ADMIN_ROLE },
      });
      return UserResponse.of(await this.users.find(tx.manager, userId));
    });
  }
}
