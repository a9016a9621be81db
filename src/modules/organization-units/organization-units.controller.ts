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
import { UuidParam } from '../../shared/validation/uuid-param';
import { TenantNumberParam } from '../tenants';
import { ChangeOrganizationUnitStatusCommand } from './change-organization-unit-status/change-organization-unit-status.command';
import { CreateOrganizationUnitCommand } from './create-organization-unit/create-organization-unit.command';
import { CreateOrganizationUnitRequest } from './dto/create-organization-unit.request.dto';
import { OrganizationUnitResponse } from './dto/organization-unit.response.dto';
import { GetOrganizationUnitQuery } from './get-organization-unit/get-organization-unit.query';
import { ListOrganizationUnitAncestorsQuery } from './list-organization-unit-ancestors/list-organization-unit-ancestors.query';
import { OrganizationUnitAncestors } from './dto/organization-unit-ancestors.response.dto';
import { ListOrganizationUnitsQuery } from './list-organization-units/list-organization-units.query';
import { ListOrganizationUnitsParams } from './dto/list-organization-units.request.dto';
import { OrganizationUnitPage } from './dto/organization-unit-page.response.dto';
import { UpdateOrganizationUnitCommand } from './update-organization-unit/update-organization-unit.command';
import { UpdateOrganizationUnitRequest } from './dto/update-organization-unit.request.dto';

@ApiTags('organization-units')
@ApiBearerAuth()
@Controller('v1')
export class OrganizationUnitsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @Get('tenants/:tenantNumber/organization-units')
  @OperationId('ListOrganizationUnitsController_list')
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

  @Post('tenants/:tenantNumber/organization-units')
  @OperationId('CreateOrganizationUnitController_create')
  @RequirePermission('organization-units:write')
  @ApiCreatedResponse({
    type: OrganizationUnitResponse,
    description:
      '`Location: /v1/organization-units/{organizationUnitId}`. A root needs the permission over the whole tenant; a child, a grant ' +
      'with descendants on the parent or above. An unknown or invisible parent is 400 `body.parentOrganizationUnitId` `reference_not_found`.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  @ApiConflictResponse({ description: '`duplicate_key` (per tenant), `parent_disabled`, `max_depth` (16 levels).' })
  async create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateOrganizationUnitRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<OrganizationUnitResponse> {
    const unit = await this.commandBus.execute(new CreateOrganizationUnitCommand(caller, tenantNumber, body));
    res.location(`/v1/organization-units/${unit.organizationUnitId}`);
    return unit;
  }

  @Get('organization-units/:organizationUnitId')
  @OperationId('GetOrganizationUnitController_get')
  @RequirePermission('organization-units:read')
  @ApiOkResponse({ type: OrganizationUnitResponse })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `organization_unit`).' })
  get(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.queryBus.execute(new GetOrganizationUnitQuery(caller, organizationUnitId));
  }

  @Get('organization-units/:organizationUnitId/ancestors')
  @OperationId('ListOrganizationUnitAncestorsController_list')
  @RequirePermission('organization-units:read')
  @ApiOkResponse({ type: OrganizationUnitAncestors })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  listAncestors(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitAncestors> {
    return this.queryBus.execute(new ListOrganizationUnitAncestorsQuery(caller, organizationUnitId));
  }

  @Patch('organization-units/:organizationUnitId')
  @OperationId('UpdateOrganizationUnitController_update')
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

  @Post('organization-units/:organizationUnitId/disable')
  @OperationId('ChangeOrganizationUnitStatusController_disable')
  @HttpCode(200)
  @RequirePermission('organization-units:write')
  @ApiOkResponse({ type: OrganizationUnitResponse, description: 'The subtree becomes effectively disabled.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already in that state.' })
  @ApiForbiddenResponse({ description: '`missing_permission`, also for a navigation ancestor.' })
  @ApiNotFoundResponse({ description: 'Missing, in another tenant, or outside the caller’s scope.' })
  disable(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new ChangeOrganizationUnitStatusCommand(caller, organizationUnitId, 'disabled'));
  }

  @Post('organization-units/:organizationUnitId/reactivate')
  @OperationId('ChangeOrganizationUnitStatusController_reactivate')
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
