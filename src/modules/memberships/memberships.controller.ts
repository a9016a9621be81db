import { Body, Controller, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import {
  ApiBearerAuth,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { ValidationFailedError } from '../../shared/errors/domain-error';
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { ChangeMembershipStatusCommand } from './change-membership-status/change-membership-status.command';
import { CreateMembershipCommand } from './create-membership/create-membership.command';
import { CreateMembershipRequest } from './dto/create-membership.request.dto';
import { MembershipResponse } from './dto/membership.response.dto';
import { GetMembershipQuery } from './get-membership/get-membership.query';
import { ListMembershipsQuery } from './list-memberships/list-memberships.query';
import { ListMembershipsParams } from './dto/list-memberships.request.dto';
import { MembershipPage } from './dto/membership-page.response.dto';
import { UpdateMembershipCommand } from './update-membership/update-membership.command';
import { UpdateMembershipRequest } from './dto/update-membership.request.dto';

@ApiTags('memberships')
@ApiBearerAuth()
@Controller('v1')
export class MembershipsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('tenants/:tenantNumber/memberships')
  @OperationId('ListMembershipsController_list')
  @RequirePermission('memberships:read')
  @ApiOkResponse({
    type: MembershipPage,
    description: 'Grants whose target the caller covers (tenant-level ones need whole-tenant scope), ascending by (createdAt, membershipId).',
  })
  @ApiNotFoundResponse({ description: 'No visible tenant with this number (`resourceType` `tenant`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: no grant with `memberships:read` in the tenant.' })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListMembershipsParams): Promise<MembershipPage> {
    return this.queryBus.execute(new ListMembershipsQuery(caller.principal, tenantNumber, params));
  }

  @Post('tenants/:tenantNumber/memberships')
  @OperationId('CreateMembershipController_create')
  @RequirePermission('memberships:write')
  @ApiCreatedResponse({ type: MembershipResponse, description: '`Location: /v1/memberships/{membershipId}`.' })
  @ApiNotFoundResponse({ description: 'No visible tenant with this number (`resourceType` `tenant`).' })
  @ApiForbiddenResponse({
    description: '`missing_permission`: the caller does not hold `memberships:write` over the target (tenant-level grants and grants with descendants: over the whole subtree).',
  })
  @ApiConflictResponse({ description: '`duplicate_membership`: the user already has an active grant on this target.' })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateMembershipRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<MembershipResponse> {
    if (body.userId === undefined && body.userEmail === undefined) {
      throw ValidationFailedError.single('body.userId', 'required', 'Send exactly one of userId and userEmail.');
    }
    if (body.userId !== undefined && body.userEmail !== undefined) {
      throw ValidationFailedError.single('body.userEmail', 'mismatch', 'Send exactly one of userId and userEmail, not both.');
    }
    const membership = await this.commandBus.execute(new CreateMembershipCommand(caller.principal, tenantNumber, body));
    res.location(`/v1/memberships/${membership.membershipId}`);
    return membership;
  }

  @Get('memberships/:membershipId')
  @OperationId('GetMembershipController_get')
  @RequirePermission('memberships:read')
  @ApiOkResponse({ type: MembershipResponse })
  @ApiNotFoundResponse({ description: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: `memberships:read` does not cover the grant\'s target.' })
  get(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.queryBus.execute(new GetMembershipQuery(caller.principal, membershipId));
  }

  @Patch('memberships/:membershipId')
  @OperationId('UpdateMembershipController_update')
  @RequirePermission('memberships:write')
  @ApiOkResponse({ type: MembershipResponse, description: 'Values equal to the current ones are not a change.' })
  @ApiNotFoundResponse({ description: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: `memberships:write` does not cover the grant before and after the change.' })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('membershipId') membershipId: string,
    @Body() body: UpdateMembershipRequest,
  ): Promise<MembershipResponse> {
    return this.commandBus.execute(new UpdateMembershipCommand(caller.principal, membershipId, { ...body }));
  }

  @Post('memberships/:membershipId/disable')
  @OperationId('ChangeMembershipStatusController_disable')
  @HttpCode(200)
  @RequirePermission('memberships:write')
  @ApiOkResponse({ type: MembershipResponse, description: 'The grant stops counting from the next request on.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already disabled.' })
  @ApiNotFoundResponse({ description: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: `memberships:write` does not cover the grant.' })
  disable(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.commandBus.execute(new ChangeMembershipStatusCommand(caller.principal, membershipId, 'disabled'));
  }

  @Post('memberships/:membershipId/reactivate')
  @OperationId('ChangeMembershipStatusController_reactivate')
  @HttpCode(200)
  @RequirePermission('memberships:write')
  @ApiOkResponse({ type: MembershipResponse })
  @ApiConflictResponse({
    description: '`invalid_state` (+`currentStatus`): already active; `duplicate_membership`: the user has another active grant on the target.',
  })
  @ApiNotFoundResponse({ description: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`: `memberships:write` does not cover the grant.' })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.commandBus.execute(new ChangeMembershipStatusCommand(caller.principal, membershipId, 'active'));
  }
}
