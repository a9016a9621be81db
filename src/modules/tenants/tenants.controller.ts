import { Body, Controller, Query } from '@nestjs/common';
import { CommandBus, QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
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
import { ApiDocs } from '../../shared/http/route-docs';
import { TENANTS_DOCS } from './tenants.docs';
import { TENANTS_PARAMETER_EXAMPLES, TENANTS_SCHEMA_EXAMPLES } from './tenants.examples';
import { Route, WriteById } from '../../shared/http/routes';

@ApiTags('tenants')
@ApiBearerAuth()
@ApiDocs(TENANTS_DOCS, { schemas: TENANTS_SCHEMA_EXAMPLES, parameters: TENANTS_PARAMETER_EXAMPLES })
@Controller('v1/tenants')
export class TenantsController {
  constructor(
    private readonly queryBus: QueryBus,
    private readonly commandBus: CommandBus,
  ) {}

  /** Any authenticated caller: the list itself is scoped to the caller's effective grants. */
  @Route('get', '', {
    operationId: 'tenants_list',
    type: TenantPage,
    description: 'Platform admins: every tenant. Others: active tenants where they hold an effective grant. Ascending by (createdAt, tenantId).',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListTenantsParams): Promise<TenantPage> {
    return this.queryBus.execute(new ListTenantsQuery(principal, params));
  }

  @Route('post', '', {
    operationId: 'tenants_create',
    platformAdminOnly: true,
    type: TenantResponse,
    description: '`Location: /v1/tenants/{tenantNumber}`; its e-mail kill-switch starts `running`.',
    location: '/v1/tenants/{tenantNumber}',
    conflict: '`duplicate_key` (tenant keys are globally unique).',
  })
  create(@Body() body: CreateTenantRequest,): Promise<TenantResponse> {
    return this.commandBus.execute(new CreateTenantCommand(body));
  }

  @Route('get', ':tenantNumber', {
    operationId: 'tenants_get',
    permission: 'tenant:read',
    type: TenantResponse,
    notFound: 'No such tenant, or none the caller holds an effective grant in (`resourceType` `tenant`).',
  })
  get(@CurrentCaller() caller: Caller, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.queryBus.execute(new GetTenantQuery(caller, tenantNumber));
  }

  @WriteById('patch', ':tenantNumber', {
    operationId: 'tenants_update',
    permission: 'tenant:write',
    type: TenantResponse,
    notFound: 'No such tenant, or none the caller holds an effective grant in.',
  })
  update(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Body() body: UpdateTenantRequest,
  ): Promise<TenantResponse> {
    return this.commandBus.execute(new UpdateTenantCommand(caller, tenantNumber, { ...body }));
  }

  @WriteById('post', ':tenantNumber/disable', {
    operationId: 'tenants_disable',
    platformAdminOnly: true,
    type: TenantResponse,
    description: 'Grants of non-admins stop working at once.',
    notFound: 'No such tenant.',
    conflict: '`invalid_state` (+`currentStatus`): already in that state.',
  })
  disable(@CurrentPrincipal() principal: Principal, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.commandBus.execute(new ChangeTenantStatusCommand(principal, tenantNumber, 'disabled'));
  }

  @WriteById('post', ':tenantNumber/reactivate', {
    operationId: 'tenants_reactivate',
    platformAdminOnly: true,
    type: TenantResponse,
    description: 'Reactivated.',
    notFound: 'No such tenant.',
    conflict: '`invalid_state` (+`currentStatus`): already in that state.',
  })
  reactivate(@CurrentPrincipal() principal: Principal, @TenantNumberParam() tenantNumber: number): Promise<TenantResponse> {
    return this.commandBus.execute(new ChangeTenantStatusCommand(principal, tenantNumber, 'active'));
  }
}
