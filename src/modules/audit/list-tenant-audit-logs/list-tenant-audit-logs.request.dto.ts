import { AuditLogFilterParams } from '../domain/audit-log-filters';

/** The audit query of the tenant view. */
export class ListTenantAuditLogsParams extends AuditLogFilterParams {}
