import { defineDocs, NEWEST_FIRST, TENANT_404, TIME_WINDOW, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const AUDIT_LOGS_DOCS = defineDocs({
  tenantAuditLogs_list: {
    summary: 'Query a tenant’s audit log',
    description: lines(
      'Filters (exact match): `eventType`, `action`, `actorId`, `entityType`, `entityId`, `correlationId`, `method`, `route` (the route template, e.g. `/v1/devices/{deviceId}`), `statusCode`.',
      TIME_WINDOW,
      NEWEST_FIRST,
      TENANT_404,
    ),
  },
  auditLogs_list: {
    summary: 'Query the audit log of all tenants',
    description: lines(
      'Every tenant’s events plus platform events (sign-ins, users, tenants); each item carries `tenantId` (null for platform events). The same filters as the tenant audit log, plus `tenantId`.',
      TIME_WINDOW,
      NEWEST_FIRST,
    ),
  },
});
