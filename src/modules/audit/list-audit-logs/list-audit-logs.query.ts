import { Query } from '@nestjs/cqrs';
import type { NewestFirstPage } from '../../../shared/pagination/newest-first-page';
import type { GlobalAuditEventResponse } from '../dto/audit-event.response.dto';
import type { ListAuditLogsParams } from '../dto/list-audit-logs.request.dto';

export class ListAuditLogsQuery extends Query<NewestFirstPage<GlobalAuditEventResponse>> {
  constructor(
    readonly actorId: string,
    readonly params: ListAuditLogsParams,
  ) {
    super();
  }
}
