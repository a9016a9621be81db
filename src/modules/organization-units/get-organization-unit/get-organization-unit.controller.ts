import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { OrganizationUnitResponse } from '../domain/organization-unit.response.dto';
import { GetOrganizationUnitQuery } from './get-organization-unit.query';

@ApiTags('organization-units')
@ApiBearerAuth()
@Controller('v1/organization-units')
export class GetOrganizationUnitController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':organizationUnitId')
  @RequirePermission('organization-units:read')
  @ApiOkResponse({ type: OrganizationUnitResponse })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `organization_unit`).' })
  get(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.queryBus.execute(new GetOrganizationUnitQuery(caller, organizationUnitId));
  }
}
