import { Module } from '@nestjs/common';
import { NewestFirstPaginator } from '../../shared/pagination/newest-first-paginator';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ListAuditLogsController } from './list-audit-logs/list-audit-logs.controller';
import { ListAuditLogsHandler } from './list-audit-logs/list-audit-logs.handler';
import { ListTenantAuditLogsController } from './list-tenant-audit-logs/list-tenant-audit-logs.controller';
import { ListTenantAuditLogsHandler } from './list-tenant-audit-logs/list-tenant-audit-logs.handler';

/** Design §5.7: tenant and global audit queries. */
@Module({
  imports: [PaginationModule],
  controllers: [ListTenantAuditLogsController, ListAuditLogsController],
  // NewestFirstPaginator belongs in PaginationModule's exports once a second newest-first list needs it.
  providers: [NewestFirstPaginator, ListTenantAuditLogsHandler, ListAuditLogsHandler],
})
export class AuditModule {}
