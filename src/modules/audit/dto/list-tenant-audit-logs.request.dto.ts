import { AuditLogFilterParams } from './audit-log-filters.request.dto';

/** The audit query of the tenant view. */
export class ListTenantAuditLogsParams extends AuditLogFilterParams {}
