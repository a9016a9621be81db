import { Query } from '@nestjs/cqrs';
import type { Caller } from '../../../shared/access/require-permission';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { AuditEventResponse } from '../dto/audit-event.response.dto';
import type { ListTenantAuditLogsParams } from '../dto/list-tenant-audit-logs.request.dto';

export class ListTenantAuditLogsQuery extends Query<NewestFirstPage<AuditEventResponse>> {
  constructor(
    readonly caller: Caller,
    readonly tenantNumber: number,
    readonly params: ListTenantAuditLogsParams,
  ) {
    super();
  }
}
