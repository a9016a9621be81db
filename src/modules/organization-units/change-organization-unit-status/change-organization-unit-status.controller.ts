import { Controller, HttpCode, Post } from '@nestjs/common';
import { CommandBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiForbiddenResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { UuidParam } from '../../../shared/validation/uuid-param';
import { OrganizationUnitResponse } from '../domain/organization-unit.response.dto';
import { ChangeOrganizationUnitStatusCommand } from './change-organization-unit-status.command';

@ApiTags('organization-units')
@ApiBearerAuth()
@Controller('v1/organization-units')
export class ChangeOrganizationUnitStatusController {
  constructor(private readonly commandBus: CommandBus) {}

  @Post(':organizationUnitId/disable')
  @HttpCode(200)
  @RequirePermission('organization-units:write')
  @ApiOkResponse({ type: OrganizationUnitResponse, description: 'The subtree becomes effectively disabled.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already in that state.' })
  @ApiForbiddenResponse({ description: '`missing_permission`, also for a navigation ancestor.' })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  disable(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new ChangeOrganizationUnitStatusCommand(caller, organizationUnitId, 'disabled'));
  }

  @Post(':organizationUnitId/reactivate')
  @HttpCode(200)
  @RequirePermission('organization-units:write')
  @ApiOkResponse({ type: OrganizationUnitResponse, description: 'Reactivated.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already in that state.' })
  @ApiForbiddenResponse({ description: '`missing_permission`, also for a navigation ancestor.' })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new ChangeOrganizationUnitStatusCommand(caller, organizationUnitId, 'active'));
  }
}
