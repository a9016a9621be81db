import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { OperationId } from '../../openapi/operation-id';
import { Caller, CurrentCaller, RequirePermission } from '../../shared/access/require-permission';
import { CurrentPrincipal, PlatformAdminOnly, Principal } from '../../shared/auth/principal';
import { TenantNumberParam } from '../tenants';
import { AuditEventPage, GlobalAuditEventPage } from './dto/audit-event.response.dto';
import { ListAuditLogsQuery } from './list-audit-logs/list-audit-logs.query';
import { ListAuditLogsParams } from './dto/list-audit-logs.request.dto';
import { ListTenantAuditLogsQuery } from './list-tenant-audit-logs/list-tenant-audit-logs.query';
import { ListTenantAuditLogsParams } from './dto/list-tenant-audit-logs.request.dto';

@ApiTags('audit')
@ApiBearerAuth()
@Controller('v1')
export class AuditLogsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get('tenants/:tenantNumber/audit-logs')
  @OperationId('ListTenantAuditLogsController_list')
  @RequirePermission('audit:read')
  @ApiOkResponse({
    type: AuditEventPage,
    description: 'Newest first. Page 1 fixes the upper anchor min(to, now); continuations repeat every filter and the limit.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none visible to the caller.' })
  listTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListTenantAuditLogsParams,
  ): Promise<AuditEventPage> {
    return this.queryBus.execute(new ListTenantAuditLogsQuery(caller, tenantNumber, params));
  }

  @Get('audit-logs')
  @OperationId('ListAuditLogsController_list')
  @ApiOkResponse({ type: GlobalAuditEventPage, description: 'All tenants and platform events, newest first; `tenantId` narrows to one tenant.' })
  @PlatformAdminOnly()
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListAuditLogsParams): Promise<GlobalAuditEventPage> {
    return this.queryBus.execute(new ListAuditLogsQuery(principal.userId, params));
  }
}
