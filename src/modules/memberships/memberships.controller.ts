import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { MEMBERSHIPS_DOCS } from './memberships.docs';
import { MEMBERSHIPS_PARAMETER_EXAMPLES, MEMBERSHIPS_SCHEMA_EXAMPLES } from './memberships.examples';
import { ReadById, Route, WriteById } from '../../shared/http/routes';

@ApiTags('memberships')
@ApiBearerAuth()
@ApiDocs(MEMBERSHIPS_DOCS, { schemas: MEMBERSHIPS_SCHEMA_EXAMPLES, parameters: MEMBERSHIPS_PARAMETER_EXAMPLES })
@Controller('v1')
export class MembershipsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Route('get', 'tenants/:tenantNumber/memberships', {
    operationId: 'memberships_list',
    permission: 'memberships:read',
    type: MembershipPage,
    description: 'Grants whose target the caller covers (tenant-level ones need whole-tenant scope), ascending by (createdAt, membershipId).',
    forbidden: '`missing_permission`: no grant with `memberships:read` in the tenant.',
    notFound: 'No visible tenant with this number (`resourceType` `tenant`).',
  })
  list(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number, @Query() params: ListMembershipsParams): Promise<MembershipPage> {
    return this.queryBus.execute(new ListMembershipsQuery(caller.principal, tenantNumber, params));
  }

  @Route('post', 'tenants/:tenantNumber/memberships', {
    operationId: 'memberships_create',
    permission: 'memberships:write',
    type: MembershipResponse,
    description: '`Location: /v1/memberships/{membershipId}`.',
    location: '/v1/memberships/{membershipId}',
    forbidden: '`missing_permission`: the caller does not hold `memberships:write` over the target (tenant-level grants and grants with descendants: over the whole subtree).',
    notFound: 'No visible tenant with this number (`resourceType` `tenant`).',
    conflict: '`duplicate_membership`: the user already has an active grant on this target.',
  })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateMembershipRequest,
  ): Promise<MembershipResponse> {
    if (body.userId === undefined && body.userEmail === undefined) {
      throw ValidationFailedError.single('body.userId', 'required', 'Send exactly one of userId and userEmail.');
    }
    if (body.userId !== undefined && body.userEmail !== undefined) {
      throw ValidationFailedError.single('body.userEmail', 'mismatch', 'Send exactly one of userId and userEmail, not both.');
    }
    const membership = await this.commandBus.execute(new CreateMembershipCommand(caller.principal, tenantNumber, body));
    return membership;
  }

  @ReadById('memberships/:membershipId', {
    operationId: 'memberships_get',
    permission: 'memberships:read',
    type: MembershipResponse,
    forbidden: '`missing_permission`: `memberships:read` does not cover the grant\'s target.',
    notFound: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).',
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.queryBus.execute(new GetMembershipQuery(caller.principal, membershipId));
  }

  @WriteById('patch', 'memberships/:membershipId', {
    operationId: 'memberships_update',
    permission: 'memberships:write',
    type: MembershipResponse,
    description: 'Values equal to the current ones are not a change.',
    forbidden: '`missing_permission`: `memberships:write` does not cover the grant before and after the change.',
    notFound: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).',
  })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('membershipId') membershipId: string,
    @Body() body: UpdateMembershipRequest,
  ): Promise<MembershipResponse> {
    return this.commandBus.execute(new UpdateMembershipCommand(caller.principal, membershipId, { ...body }));
  }

  @WriteById('post', 'memberships/:membershipId/disable', {
    operationId: 'memberships_disable',
    permission: 'memberships:write',
    type: MembershipResponse,
    description: 'The grant stops counting from the next request on.',
    forbidden: '`missing_permission`: `memberships:write` does not cover the grant.',
    notFound: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).',
    conflict: '`invalid_state` (+`currentStatus`): already disabled.',
  })
  disable(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.commandBus.execute(new ChangeMembershipStatusCommand(caller.principal, membershipId, 'disabled'));
  }

  @WriteById('post', 'memberships/:membershipId/reactivate', {
    operationId: 'memberships_reactivate',
    permission: 'memberships:write',
    type: MembershipResponse,
    forbidden: '`missing_permission`: `memberships:write` does not cover the grant.',
    notFound: 'No such grant, or one outside the caller\'s tenants and units (`resourceType` `membership`).',
    conflict: '`invalid_state` (+`currentStatus`): already active; `duplicate_membership`: the user has another active grant on the target.',
  })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('membershipId') membershipId: string): Promise<MembershipResponse> {
    return this.commandBus.execute(new ChangeMembershipStatusCommand(caller.principal, membershipId, 'active'));
  }
}
