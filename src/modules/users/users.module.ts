import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { IdentityModule } from '../identity/identity.module';
import { CreateUserController } from './create-user/create-user.controller';
import { CreateUserHandler } from './create-user/create-user.handler';
import { UserRepository } from './domain/user.repository';
import { GetUserController } from './get-user/get-user.controller';
import { GetUserHandler } from './get-user/get-user.handler';
import { GrantPlatformAdminController } from './grant-platform-admin/grant-platform-admin.controller';
import { GrantPlatformAdminHandler } from './grant-platform-admin/grant-platform-admin.handler';
import { ListUserMembershipsController } from './list-user-memberships/list-user-memberships.controller';
import { ListUserMembershipsHandler } from './list-user-memberships/list-user-memberships.handler';
import { ListUsersController } from './list-users/list-users.controller';
import { ListUsersHandler } from './list-users/list-users.handler';
import { RevokePlatformAdminController } from './revoke-platform-admin/revoke-platform-admin.controller';
import { RevokePlatformAdminHandler } from './revoke-platform-admin/revoke-platform-admin.handler';
import { SetTemporaryPasswordController } from './set-temporary-password/set-temporary-password.controller';
import { SetTemporaryPasswordHandler } from './set-temporary-password/set-temporary-password.handler';
import { UpdateUserController } from './update-user/update-user.controller';
import { UpdateUserHandler } from './update-user/update-user.handler';

/** Platform-admin management of global users and their platform role (design §5.3). */
@Module({
  imports: [IdentityModule, PaginationModule],
  controllers: [
    ListUsersController,
    CreateUserController,
    GetUserController,
    UpdateUserController,
    SetTemporaryPasswordController,
    GrantPlatformAdminController,
    RevokePlatformAdminController,
    ListUserMembershipsController,
  ],
  providers: [
    UserRepository,
    ListUsersHandler,
    CreateUserHandler,
    GetUserHandler,
    UpdateUserHandler,
    SetTemporaryPasswordHandler,
    GrantPlatformAdminHandler,
    RevokePlatformAdminHandler,
    ListUserMembershipsHandler,
  ],
})
export class UsersModule {}
