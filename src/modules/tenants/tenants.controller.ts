import { Body, Controller, Get, HttpCode, Patch, Post, Query, Res } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiConflictResponse, ApiCreatedResponse, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
import { ChangeTenantStatusCommand } from './change-tenant-status/change-tenant-status.command';
import { CreateTenantCommand } from './create-tenant/create-tenant.command';
import { CreateTenantRequest } from './dto/create-tenant.request.dto';
import { GetTenantQuery } from './get-tenant/get-tenant.query';
import { ListTenantsQuery } from './list-tenants/list-tenants.query';
import { ListTenantsParams } from './dto/list-tenants.request.dto';
import { TenantPage } from './dto/tenant-page.response.dto';
import { TenantNumberParam } from './tenant-number.param';
import { TenantResponse } from './dto/tenant.response.dto';
import { UpdateTenantCommand } from './update-tenant/update-tenant.command';
import { UpdateTenantRequest } from './dto/update-tenant.request.dto';

@ApiTags('tenants')
@ApiBearerAuth()
@Controller('v1/tenants')
export class TenantsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  /** Any authenticated caller: the list itself is scoped to the caller's effective grants. */
  @Get()
  @OperationId('ListTenantsController_list')
  @ApiOkResponse({
    type: TenantPage,
    description: 'Platform admins: every tenant. Others: active tenants where they hold an effective grant. Ascending by (createdAt, tenantId).',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListTenantsParams): Promise<TenantPage> {
    return this.queryBus.execute(new ListTenantsQuery(principal, params));
  }

  @Post()
  @OperationId('CreateTenantController_create')
  @PlatformAdminOnly()
  @ApiCreatedResponse({ type: TenantResponse, description: '`Location: /v1/tenants/{tenantNumber}`; its e-mail kill-switch starts `running`.' })
  @ApiConflictResponse({ description: '`duplicate_key` (tenant keys are globally unique).' })
  async create(@Body() body: CreateTenantRequest, @Res({ passthrough: true }) res: Response): Promise<TenantResponse> {
    const tenant = await this.commandBus.execute(new CreateTenantCommand(body));
    res.location(`/v1/tenants/${tenant.tenantNumber}`);
    return tenant;
  }

  @Get(':tenantNumber')
  @OperationId('GetTenantController_get')
  @RequirePermission('tenant:read')
  @ApiOkResponse({ type: TenantResponse })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in (`resourceType` `tenant`).' })
  get(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.queryBus.execute(new GetTenantQuery(caller, tenantNumber));
  }

  @Patch(':tenantNumber')
  @OperationId('UpdateTenantController_update')
  @RequirePermission('tenant:write')
  @ApiOkResponse({ type: TenantResponse })
  @ApiNotFoundResponse({ description: 'No such tenant, or none the caller holds an effective grant in.' })
  update(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: UpdateTenantRequest,
  ): Promise<TenantResponse> {
    return this.commandBus.execute(new UpdateTenantCommand(caller, tenantNumber, { ...body }));
  }

  @Post(':tenantNumber/disable')
  @OperationId('ChangeTenantStatusController_disable')
  @HttpCode(200)
  @ApiOkResponse({ type: TenantResponse, description: 'Grants of non-admins stop working at once.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already in that state.' })
  @ApiNotFoundResponse({ description: 'No such tenant.' })
  @PlatformAdminOnly()
  disable(@CurrentPrincipal() principal: Principal, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.commandBus.execute(new ChangeTenantStatusCommand(principal, tenantNumber, 'disabled'));
  }

  @Post(':tenantNumber/reactivate')
  @OperationId('ChangeTenantStatusController_reactivate')
  @HttpCode(200)
  @ApiOkResponse({ type: TenantResponse, description: 'Reactivated.' })
  @ApiConflictResponse({ description: '`invalid_state` (+`currentStatus`): already in that state.' })
  @ApiNotFoundResponse({ description: 'No such tenant.' })
  @PlatformAdminOnly()
  reactivate(@CurrentPrincipal() principal: Principal, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.commandBus.execute(new ChangeTenantStatusCommand(principal, tenantNumber, 'active'));
  }
}
