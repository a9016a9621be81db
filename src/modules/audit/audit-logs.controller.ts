import { Controller, Query } from '@nestjs/common';
import { QueryBus } from '@nestjs/cqrs';
import { ApiBearerAuth, ApiTags } from '@nestjs/swagger';
import { Caller, CurrentCaller } from '../../shared/access/require-permission';
import { CurrentPrincipal, Principal } from '../../shared/auth/principal';
import { TenantNumberParam } from '../tenants';
import { AuditEventPage, GlobalAuditEventPage } from './dto/audit-event.response.dto';
import { ListAuditLogsQuery } from './list-audit-logs/list-audit-logs.query';
import { ListAuditLogsParams } from './dto/list-audit-logs.request.dto';
import { ListTenantAuditLogsQuery } from './list-tenant-audit-logs/list-tenant-audit-logs.query';
import { ListTenantAuditLogsParams } from './dto/list-tenant-audit-logs.request.dto';
import { ApiDocs } from '../../shared/http/route-docs';
import { AUDIT_LOGS_DOCS } from './audit-logs.docs';
import { AUDIT_PARAMETER_EXAMPLES, AUDIT_SCHEMA_EXAMPLES } from './audit.examples';
import { Route } from '../../shared/http/routes';

@ApiTags('audit')
@ApiBearerAuth()
@ApiDocs(AUDIT_LOGS_DOCS, { schemas: AUDIT_SCHEMA_EXAMPLES, parameters: AUDIT_PARAMETER_EXAMPLES })
@Controller('v1')
export class AuditLogsController {
  constructor(private readonly queryBus: QueryBus) {}

  @Route('get', 'tenants/:tenantNumber/audit-logs', {
    operationId: 'tenantAuditLogs_list',
    permission: 'audit:read',
    type: AuditEventPage,
    description: 'Newest first. Page 1 fixes the upper anchor min(to, now); continuations repeat every filter and the limit.',
    notFound: 'No such tenant, or none visible to the caller.',
  })
  listTenant(
    @CurrentCaller() caller: Caller,
    @TenantNumberParam() tenantNumber: number,
    @Query() params: ListTenantAuditLogsParams,
  ): Promise<AuditEventPage> {
    return this.queryBus.execute(new ListTenantAuditLogsQuery(caller, tenantNumber, params));
  }

  @Route('get', 'audit-logs', {
    operationId: 'auditLogs_list',
    platformAdminOnly: true,
    type: GlobalAuditEventPage,
    description: 'All tenants and platform events, newest first; `tenantId` narrows to one tenant.',
  })
  list(@CurrentPrincipal() principal: Principal, @Query() params: ListAuditLogsParams): Promise<GlobalAuditEventPage> {
    return this.queryBus.execute(new ListAuditLogsQuery(principal.userId, params));
  }
}
