import { Controller, Get, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiNotFoundResponse, ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller, RequirePermission } from '../../../shared/access/require-permission';
import { AuditEventPage } from '../domain/audit-event.response.dto';
import { TenantNumberParam } from '../../tenants/tenant-number.param';
import { ListTenantAuditLogsParams } from './list-tenant-audit-logs.request.dto';
import { ListTenantAuditLogsQuery } from './list-tenant-audit-logs.query';

@ApiTags('audit')
@ApiBearerAuth()
@Controller('v1/tenants')
export class ListTenantAuditLogsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Get(':tenantNumber/audit-logs')
  @RequirePermission('audit:read')
  @ApiOkResponse({
    type: AuditEventPage,
    description: 'Newest first. Page 1 fixes the upper anchor min(to, now); continuations repeat every filter and the limit.',
  })
  @ApiNotFoundResponse({ description: 'No such tenant, or none visible to the caller.' })
  list(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListTenantAuditLogsParams,
  ): Promise<AuditEventPage> {
    return this.queryBus.execute(new ListTenantAuditLogsQuery(caller, tenantNumber, params));
  }
}
