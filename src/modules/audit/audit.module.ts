import { Module } from '@nestjs/common';
import { PaginationModule } from '../../shared/pagination/pagination.module';
import { AuditLogsController } from './audit-logs.controller';
import { ListAuditLogsHandler } from './list-audit-logs/list-audit-logs.handler';
import { ListTenantAuditLogsHandler } from './list-tenant-audit-logs/list-tenant-audit-logs.handler';

/** Tenant and global audit queries. */
@Module({
  imports: [PaginationModule],
  controllers: [AuditLogsController],
  providers: [ListTenantAuditLogsHandler, ListAuditLogsHandler],
})
export class AuditModule {}
