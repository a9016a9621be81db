import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { ListOrganizationUnitsQuery } from './list-organization-units.query';
import { ListOrganizationUnitsParams } from './list-organization-units.request.dto';
import { OrganizationUnitPage } from './organization-unit-page.response.dto';

@ApiTags('organization-units')
@ApiBearerAuth()
@Controller('v1/tenants')
export class ListOrganizationUnitsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':tenantNumber/organization-units')
  @RequirePermission('organization-units:read')
  @ApiOkResponse({
    type: OrganizationUnitPage,
    description: 'Visible units only (accessible, or ancestors of accessible ones for navigation), ascending by (createdAt, organizationUnitId).',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  list(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListOrganizationUnitsParams,
  ): Promise<OrganizationUnitPage> {
    return this.queryBus.execute(new ListOrganizationUnitsQuery(caller, tenantNumber, params));
  }
}
