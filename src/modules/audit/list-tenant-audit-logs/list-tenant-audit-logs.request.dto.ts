import { AuditLogFilterParams } from '../domain/audit-log-filters';

/** Spec "Audit" query of the tenant view. */
export class ListTenantAuditLogsParams extends AuditLogFilterParams {}
