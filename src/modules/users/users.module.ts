import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { IdentityModule } from '../identity';
import { CreateUserHandler } from './create-user/create-user.handler';
import { UserRepository } from './persistence/user.repository';
import { GetUserHandler } from './get-user/get-user.handler';
import { GrantPlatformAdminHandler } from './grant-platform-admin/grant-platform-admin.handler';
import { ListUserMembershipsHandler } from './list-user-memberships/list-user-memberships.handler';
import { ListUsersHandler } from './list-users/list-users.handler';
import { RevokePlatformAdminHandler } from './revoke-platform-admin/revoke-platform-admin.handler';
import { SetTemporaryPasswordHandler } from './set-temporary-password/set-temporary-password.handler';
import { UpdateUserHandler } from './update-user/update-user.handler';
import { UsersController } from './users.controller';

/** Platform-admin management of global users and their platform role. */
@Module({
  imports: [IdentityModule, PaginationModule],
  controllers: [UsersController],
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
