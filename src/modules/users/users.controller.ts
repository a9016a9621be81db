import { Body, Controller, Delete, Get, HttpCode, Patch, Post, Put, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
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

@ApiTags('users')
@ApiBearerAuth()
@PlatformAdminOnly()
@Controller('v1/users')
export class UsersController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get()
  @OperationId('ListUsersController_list')
  @ApiOkResponse({ type: UserPage, description: 'Ascending by (createdAt, userId); `totalCount` is exact for the filters.' })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListUsersParams): Promise<UserPage> {
    return this.queryBus.execute(new ListUsersQuery(principal.userId, params));
  }

  @Post()
  @OperationId('CreateUserController_create')
  @ApiCreatedResponse({
    type: UserResponse,
    description: 'The user without `username`; it must change the temporary password at first sign-in. `Location: /v1/users/{userId}`.',
  })
  @ApiConflictResponse({ description: '`duplicate_username` or `duplicate_email` (case-insensitive).' })
  async create(@Body() body: CreateUserRequest, @Res({ passthrough: true }) res: Response): Promise<UserResponse> {
    const user = await this.commandBus.execute(new CreateUserCommand(body));
    res.location(`/v1/users/${user.userId}`);
    return user;
  }

  @Get(':userId')
  @OperationId('GetUserController_get')
  @ApiOkResponse({ type: UserResponse })
  @ApiNotFoundResponse({ description: 'No such user (`resourceType` `user`).' })
  get(@UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.queryBus.execute(new GetUserQuery(userId));
  }

  @Patch(':userId')
  @OperationId('UpdateUserController_update')
  @ApiOkResponse({ type: UserResponse, description: 'The same status again is a no-op.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  @ApiConflictResponse({
    description: '`duplicate_username`, `duplicate_email`, `protected_user`, `self_lockout`, `last_platform_admin`.',
  })
  update(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Body() body: UpdateUserRequest,
  ): Promise<UserResponse> {
    return this.commandBus.execute(new UpdateUserCommand(principal, userId, { ...body }));
  }

  @Post(':userId/temporary-password')
  @OperationId('SetTemporaryPasswordController_set')
  @HttpCode(200)
  @ApiOkResponse({ type: UserResponse, description: 'The user must change the password at the next sign-in; its sessions are revoked.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  @ApiConflictResponse({ description: '`protected_user`, `self_target`.' })
  setTemporaryPassword(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Body() body: SetTemporaryPasswordRequest,
  ): Promise<UserResponse> {
    return this.commandBus.execute(new SetTemporaryPasswordCommand(principal, userId, body.temporaryPassword));
  }

  @Put(PLATFORM_ADMIN_ROLE_PATH)
  @OperationId('GrantPlatformAdminController_grant')
  @ApiOkResponse({ type: UserResponse, description: 'Idempotent.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  grantPlatformAdmin(@UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.commandBus.execute(new GrantPlatformAdminCommand(userId));
  }

  @Delete(PLATFORM_ADMIN_ROLE_PATH)
  @OperationId('RevokePlatformAdminController_revoke')
  @HttpCode(200)
  @ApiOkResponse({ type: UserResponse, description: 'Idempotent.' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  @ApiConflictResponse({ description: '`protected_user`, `self_lockout`, `last_platform_admin`.' })
  revokePlatformAdmin(@CurrentPrincipal() principal: Principal, @UuidParam('userId') userId: string): Promise<UserResponse> {
    return this.commandBus.execute(new RevokePlatformAdminCommand(principal, userId));
  }

  @Get(':userId/memberships')
  @OperationId('ListUserMembershipsController_list')
  @ApiOkResponse({ type: UserMembershipPage, description: 'All tenants and statuses, ascending by (createdAt, membershipId).' })
  @ApiNotFoundResponse({ description: 'No such user.' })
  listMemberships(
    @CurrentPrincipal() principal: Principal,
    @UuidParam('userId') userId: string,
    @Query() params: ListUserMembershipsParams,
  ): Promise<UserMembershipPage> {
    return this.queryBus.execute(new ListUserMembershipsQuery(principal.userId, userId, params));
  }
}
