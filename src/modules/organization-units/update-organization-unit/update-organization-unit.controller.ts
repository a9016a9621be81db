import { Body, Controller, Patch } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { OrganizationUnitResponse } from '../domain/organization-unit.response.dto';
import { UpdateOrganizationUnitCommand } from './update-organization-unit.command';
import { UpdateOrganizationUnitRequest } from './update-organization-unit.request.dto';

@ApiTags('organization-units')
@ApiBearerAuth()
@Controller('v1/organization-units')
export class UpdateOrganizationUnitController {
  constructor(private readonly commandBus: CommandBus) {}

  @Patch(':organizationUnitId')
  @RequirePermission('organization-units:write')
  @ApiOkResponse({ type: OrganizationUnitResponse, description: '`key` and `parentOrganizationUnitId` are immutable (`unknown_property`).' })
  @ApiForbiddenResponse({ description: '`missing_permission`, also for a unit the caller sees only as a navigation ancestor.' })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('organizationUnitId') organizationUnitId: string,
    @Body() body: UpdateOrganizationUnitRequest,
  ): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new UpdateOrganizationUnitCommand(caller, organizationUnitId, { ...body }));
  }
}
