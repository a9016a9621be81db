import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { AuditLogEntity } from '../../../shared/audit/audit-log.entity';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { NewestFirstPaginator, WindowedPageRequest } from '../../../shared/pagination/newest-first-paginator';
import { AuditEventResponse } from '../dto/audit-event.response.dto';
import { applyAuditFilters, AUDIT_KEYS, auditFilters } from '../dto/audit-log-filters.request.dto';
import { ListTenantAuditLogsQuery } from './list-tenant-audit-logs.query';

/** One tenant's events, newest first, on the (tenant_id, occurred_at DESC, audit_log_id DESC) index. */
@QueryHandler(ListTenantAuditLogsQuery)
export class ListTenantAuditLogsHandler implements IQueryHandler<ListTenantAuditLogsQuery, NewestFirstPage<AuditEventResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly paginator: NewestFirstPaginator,
  ) {}

  async execute({ caller, tenantNumber, params }: ListTenantAuditLogsQuery): Promise<NewestFirstPage<AuditEventResponse>> {
    const filters = auditFilters(params);
    const request: WindowedPageRequest = {
      actorId: caller.principal.userId,
      // Tenant numbers are never reused, so the cursor can be checked before the lookup (a 400 comes before a 404).
      scope: `tenants/${tenantNumber}/audit-logs`,
      filters,
      limit: params.limit,
      cursor: params.cursor,
      window: params.window(),
    };
    this.paginator.verify(request);
    const access = await this.access.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    const query = this.dataSource
      .getRepository(AuditLogEntity)
      .createQueryBuilder('a')
      .where('a.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
    applyAuditFilters(query, filters);
    const page = await this.paginator.timeWindowed(query, AUDIT_KEYS, request);
    return { ...page, items: page.items.map((row) => AuditEventResponse.of(row)) };
  }
}
