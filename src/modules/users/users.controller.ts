import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
import { UuidParam } from '../../shared/validation/uuid-param';
import { UserResponse } from '../identity';
import { CreateUserCommand } from './create-user/create-user.command';
import { CreateUserRequest } from './dto/create-user.request.dto';
import { PLATFORM_ADMIN_ROLE_PATH } from './domain/platform-role';
import { GetUserQuery } from './get-user/get-user.query';
import { GrantPlatformAdminCommand } from './grant-platform-admin/grant-platform-admin.command';
import { ListUserMembershipsQuery } from './list-user-memberships/list-user-memberships.query';
import { ListUserMembershipsParams } from './dto/list-user-memberships.request.dto';
import { UserMembershipPage } from './dto/user-membership.response.dto';
import { ListUsersQuery } from './list-users/list-users.query';
import { ListUsersParams } from './dto/list-users.request.dto';
import { UserPage } from './dto/user-page.response.dto';
import { RevokePlatformAdminCommand } from './revoke-platform-admin/revoke-platform-admin.command';
import { SetTemporaryPasswordCommand } from './set-temporary-password/set-temporary-password.command';
import { SetTemporaryPasswordRequest } from './dto/set-temporary-password.request.dto';
import { UpdateUserCommand } from './update-user/update-user.command';
import { UpdateUserRequest } from './dto/update-user.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { USERS_DOCS } from './users.docs';
import { USERS_PARAMETER_EXAMPLES, USERS_SCHEMA_EXAMPLES } from './users.examples';
import { Route, WriteById } from '../../shared/http/routes';

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@ApiDocs(USERS_DOCS, { schemas: USERS_SCHEMA_EXAMPLES, parameters: USERS_PARAMETER_EXAMPLES })
@Controller('v1/users')
export class UsersController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', '', {
    operationId: 'users_list',
    type: UserPage,
    description: 'Ascending by (createdAt, userId); `totalCount` is exact for the filters.',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListUsersParams): Promise<UserPage> {
    return this.queryBus.execute(new ListUsersQuery(principal.userId, params));
  }

  @Route('post', '', {
    operationId: 'users_create',
    type: UserResponse,
    description: 'The user without `username`; it must change the temporary password at first sign-in. `Location: /v1/users/{userId}`.',
    location: '/v1/users/{userId}',
    conflict: '`duplicate_username` or `duplicate_email` (case-insensitive).',
  })
  create(@Body() body: CreateUserRequest,): Promise<UserResponse> {
    return this.commandBus.execute(new CreateUserCommand(body));
  }

  @Route('get', ':userId', { operationId: 'users_get', type: UserResponse, notFound: 'No such user (`resourceType` `user`).' })
  get(@UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.queryBus.execute(new GetUserQuery(userId));
  }

  @WriteById('patch', ':userId', {
    operationId: 'users_update',
    type: UserResponse,
    description: 'The same status again is a no-op.',
    notFound: 'No such user.',
    conflict: '`duplicate_username`, `duplicate_email`, `protected_user`, `self_lockout`, `last_platform_admin`.',
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Body() body: UpdateUserRequest,
  ): Promise<UserResponse> {
    return this.commandBus.execute(new UpdateUserCommand(principal, userId, { ...body }));
  }

  @WriteById('post', ':userId/temporary-password', {
    operationId: 'users_setTemporaryPassword',
    type: UserResponse,
    description: 'The user must change the password at the next sign-in; its sessions are revoked.',
    notFound: 'No such user.',
    conflict: '`protected_user`, `self_target`.',
  })
  setTemporaryPassword(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Body() body: SetTemporaryPasswordRequest,
  ): Promise<UserResponse> {
    return this.commandBus.execute(new SetTemporaryPasswordCommand(principal, userId, body.temporaryPassword));
  }

  @Route('put', PLATFORM_ADMIN_ROLE_PATH, {
    operationId: 'users_grantPlatformAdmin',
    type: UserResponse,
    description: 'Idempotent.',
    notFound: 'No such user.',
  })
  grantPlatformAdmin(@UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.commandBus.execute(new GrantPlatformAdminCommand(userId));
  }

  @Route('delete', PLATFORM_ADMIN_ROLE_PATH, {
    operationId: 'users_revokePlatformAdmin',
    type: UserResponse,
    description: 'Idempotent.',
    notFound: 'No such user.',
    conflict: '`protected_user`, `self_lockout`, `last_platform_admin`.',
  })
  revokePlatformAdmin(@CurrentPrincipal() principal: Principal, @UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.commandBus.execute(new RevokePlatformAdminCommand(principal, userId));
  }

  @Route('get', ':userId/memberships', {
    operationId: 'userMemberships_list',
    type: UserMembershipPage,
    description: 'All tenants and statuses, ascending by (createdAt, membershipId).',
    notFound: 'No such user.',
  })
  listMemberships(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Query() params: ListUserMembershipsParams,
  ): Promise<UserMembershipPage> {
    return this.queryBus.execute(new ListUserMembershipsQuery(principal.userId, userId, params));
  }
}
