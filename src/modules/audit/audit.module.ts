import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { ListAuditLogsController } from './list-audit-logs/list-audit-logs.controller';
import { ListAuditLogsHandler } from './list-audit-logs/list-audit-logs.handler';
import { ListTenantAuditLogsController } from './list-tenant-audit-logs/list-tenant-audit-logs.controller';
import { ListTenantAuditLogsHandler } from './list-tenant-audit-logs/list-tenant-audit-logs.handler';

/** Design §5.7: tenant and global audit queries. */
@Module({
  imports: [PaginationModule],
  controllers: [ListTenantAuditLogsController, ListAuditLogsController],
  providers: [ListTenantAuditLogsHandler, ListAuditLogsHandler],
})
export class AuditModule {}
