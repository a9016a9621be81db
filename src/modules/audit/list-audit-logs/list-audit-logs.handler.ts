import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AuditLogEntity } from '../../../shared/audit/audit-log.entity';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import { NewestFirstPaginator, WindowedPageRequest } from '../../../shared/pagination/newest-first-paginator';
import { GlobalAuditEventResponse } from '../dto/audit-event.response.dto';
import { applyAuditFilters, AUDIT_KEYS, auditFilters } from '../dto/audit-log-filters.request.dto';
import { ListAuditLogsQuery } from './list-audit-logs.query';

/**
 * Every tenant's and the platform's events for platform admins, newest first, on the
 * (occurred_at DESC, audit_log_id DESC) index, or the per-tenant one with `tenantId`.
 */
@QueryHandler(ListAuditLogsQuery)
export class ListAuditLogsHandler implements IQueryHandler<ListAuditLogsQuery, NewestFirstPage<GlobalAuditEventResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: NewestFirstPaginator,
  ) {}

  async execute({ actorId, params }: ListAuditLogsQuery): Promise<NewestFirstPage<GlobalAuditEventResponse>> {
    const tenantId = params.tenantId?.toLowerCase() ?? null;
    const filters = { ...auditFilters(params), tenantId };
    const request: WindowedPageRequest = {
      actorId,
      scope: 'audit-logs',
      filters,
      limit: params.limit,
      cursor: params.cursor,
      window: params.window(),
    };
    this.paginator.verify(request);
    const query = this.dataSource.getRepository(AuditLogEntity).createQueryBuilder('a');
    if (tenantId) {
      // A query UUID naming nothing is a 400, not an empty page.
      const [tenant] = await this.dataSource.query<unknown[]>(`SELECT 1 FROM tenants WHERE tenant_id = $1`, [tenantId]);
      if (!tenant) throw ValidationFailedError.single('query.tenantId', 'reference_not_found', 'No tenant has this id.');
      query.where('a.tenant_id = :tenantId', { tenantId });
    }
    applyAuditFilters(query, filters);
    const page = await this.paginator.timeWindowed(query, AUDIT_KEYS, request);
    return { ...page, items: page.items.map((row) => GlobalAuditEventResponse.ofGlobal(row)) };
  }
}
