import { Controller, Get } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { ListOrganizationUnitAncestorsQuery } from './list-organization-unit-ancestors.query';
import { OrganizationUnitAncestors } from './organization-unit-ancestors.response.dto';

@ApiTags('organization-units')
@ApiBearerAuth()
@Controller('v1/organization-units')
export class ListOrganizationUnitAncestorsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':organizationUnitId/ancestors')
  @RequirePermission('organization-units:read')
  @ApiOkResponse({ type: OrganizationUnitAncestors })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  list(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitAncestors> {
    return this.queryBus.execute(new ListOrganizationUnitAncestorsQuery(caller, organizationUnitId));
  }
}
