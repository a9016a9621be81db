import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { ListMembershipsParams } from './list-memberships.request.dto';
import { ListMembershipsQuery } from './list-memberships.query';
import { MembershipPage } from './membership-page.response.dto';

@ApiTags('memberships')
@ApiBearerAuth()
@Controller('v1/tenants/:tenantNumber/memberships')
export class ListMembershipsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get()
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
}
