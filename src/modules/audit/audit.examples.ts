/**
 * Examples of the audit event schemas and of the parameters of their routes, attached to the audit logs controller
 * with @ApiDocs.
 */
import { ASSIGNMENT_ID, CORRELATION_ID, DEVICE_ID, SESSION_ID, TENANT_ID, TENANT_NUMBER, UNIT_ID, USER_ID, page } from '../../shared/http/example-values';

const AUDIT_ID = '1679091c-5a88-4faf-afb5-e6087eb1b2dc';

const auditEvent = {
  auditLogId: AUDIT_ID,
  eventType: 'device.assigned',
  actorType: 'user',
  actorId: USER_ID,
  action: 'assign',
  entityType: 'device',
  entityId: DEVICE_ID,
  outcome: 'success',
  occurredAt: '2026-03-14T10:05:09.233Z',
  correlationId: CORRELATION_ID,
  method: 'POST',
  route: '/v1/devices/{deviceId}/assignments',
  statusCode: 201,
  metadata: { organizationUnitId: UNIT_ID, deviceAssignmentId: ASSIGNMENT_ID },
};

export const AUDIT_SCHEMA_EXAMPLES: Record<string, unknown> = {
  AuditEventResponse: auditEvent,
  AuditEventPage: page([auditEvent]),
  GlobalAuditEventResponse: { ...auditEvent, tenantId: TENANT_ID },
  GlobalAuditEventPage: page([
    { ...auditEvent, tenantId: TENANT_ID },
    {
      ...auditEvent,
      auditLogId: '8e296a06-7a2b-4c1d-9e3f-5a6b7c8d9e0f',
      eventType: 'session.login_succeeded',
      action: 'login',
      entityType: 'session',
      entityId: SESSION_ID,
      occurredAt: '2026-03-14T09:26:53.589Z',
      correlationId: 'b1946ac9-2d7e-4f81-a9c3-6e5d4c3b2a10',
      route: '/v1/auth/login',
      statusCode: 200,
      metadata: {},
      tenantId: null,
    },
  ]),
};

export const AUDIT_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
};
