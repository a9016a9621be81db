import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { ORGANIZATION_UNITS_DOCS } from './organization-units.docs';
import { ORGANIZATION_UNITS_PARAMETER_EXAMPLES, ORGANIZATION_UNITS_SCHEMA_EXAMPLES } from './organization-units.examples';
import { ReadById, Route, TenantCreate, TenantList, WriteById } from '../../shared/http/routes';

@ApiTags('organization-units')
@ApiBearerAuth()
@ApiDocs(ORGANIZATION_UNITS_DOCS, { schemas: ORGANIZATION_UNITS_SCHEMA_EXAMPLES, parameters: ORGANIZATION_UNITS_PARAMETER_EXAMPLES })
@Controller('v1')
export class OrganizationUnitsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  @TenantList('tenants/:tenantNumber/organization-units', {
    operationId: 'organizationUnits_list',
    permission: 'organization-units:read',
    type: OrganizationUnitPage,
    description: 'Visible units only (accessible, or ancestors of accessible ones for navigation), ascending by (createdAt, organizationUnitId).',
  })
  list(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListOrganizationUnitsParams,
  ): Promise<OrganizationUnitPage> {
    return this.queryBus.execute(new ListOrganizationUnitsQuery(caller, tenantNumber, params));
  }

  @TenantCreate('tenants/:tenantNumber/organization-units', {
    operationId: 'organizationUnits_create',
    permission: 'organization-units:write',
    type: OrganizationUnitResponse,
    description: '`Location: /v1/organization-units/{organizationUnitId}`. A root needs the permission over the whole tenant; a child, a grant ' +
      'with descendants on the parent or above. An unknown or invisible parent is 400 `body.parentOrganizationUnitId` `reference_not_found`.',
    location: '/v1/organization-units/{organizationUnitId}',
    conflict: '`duplicate_key` (per tenant), `parent_disabled`, `max_depth` (16 levels).',
  })
  create(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: CreateOrganizationUnitRequest,
  ): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new CreateOrganizationUnitCommand(caller, tenantNumber, body));
  }

  @ReadById('organization-units/:organizationUnitId', {
    operationId: 'organizationUnits_get',
    permission: 'organization-units:read',
    type: OrganizationUnitResponse,
    notFound: 'Missing, in another tenant, or outside the caller’s scope: one answer (`resourceType` `organization_unit`).',
  })
  get(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.queryBus.execute(new GetOrganizationUnitQuery(caller, organizationUnitId));
  }

  @Route('get', 'organization-units/:organizationUnitId/ancestors', {
    operationId: 'organizationUnits_listAncestors',
    permission: 'organization-units:read',
    type: OrganizationUnitAncestors,
    notFound: 'Missing, in another tenant, or outside the caller’s scope.',
  })
  listAncestors(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitAncestors> {
    return this.queryBus.execute(new ListOrganizationUnitAncestorsQuery(caller, organizationUnitId));
  }

  @WriteById('patch', 'organization-units/:organizationUnitId', {
    operationId: 'organizationUnits_update',
    permission: 'organization-units:write',
    type: OrganizationUnitResponse,
    description: '`key` and `parentOrganizationUnitId` are immutable (`unknown_property`).',
    forbidden: '`missing_permission`, also for a unit the caller sees only as a navigation ancestor.',
  })
  update(
    @CurrentCaller() caller: Caller,
    @UuidParam('organizationUnitId') organizationUnitId: string,
    @Body() body: UpdateOrganizationUnitRequest,
  ): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new UpdateOrganizationUnitCommand(caller, organizationUnitId, { ...body }));
  }

  @WriteById('post', 'organization-units/:organizationUnitId/disable', {
    operationId: 'organizationUnits_disable',
    permission: 'organization-units:write',
    type: OrganizationUnitResponse,
    description: 'The subtree becomes effectively disabled.',
    forbidden: '`missing_permission`, also for a navigation ancestor.',
    conflict: '`invalid_state` (+`currentStatus`): already in that state.',
  })
  disable(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new ChangeOrganizationUnitStatusCommand(caller, organizationUnitId, 'disabled'));
  }

  @WriteById('post', 'organization-units/:organizationUnitId/reactivate', {
    operationId: 'organizationUnits_reactivate',
    permission: 'organization-units:write',
    type: OrganizationUnitResponse,
    description: 'Reactivated.',
    forbidden: '`missing_permission`, also for a navigation ancestor.',
    conflict: '`invalid_state` (+`currentStatus`): already in that state.',
  })
  reactivate(@CurrentCaller() caller: Caller, @UuidParam('organizationUnitId') organizationUnitId: string): Promise<OrganizationUnitResponse> {
    return this.commandBus.execute(new ChangeOrganizationUnitStatusCommand(caller, organizationUnitId, 'active'));
  }
}
