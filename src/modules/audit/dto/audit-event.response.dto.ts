import { ApiProperty } from '@nestjs/swagger';
import type { AuditLogEntity } from '../../../shared/audit/audit-log.entity';
import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';

/** An audit event as a tenant sees it. Whitelisted: built field by field from the row. */
export class AuditEventResponse {
  @ApiProperty({ format: 'uuid' })
  auditLogId!: string;

  @ApiProperty({ example: 'device.assigned' })
  eventType!: string;

  @ApiProperty({ enum: ['user', 'system', 'import', 'anonymous'] })
  actorType!: string;

  @ApiProperty({ description: 'userId, `system` or `anonymous`.' })
  actorId!: string;

  @ApiProperty({ example: 'assign' })
  action!: string;

  @ApiProperty({ example: 'device' })
  entityType!: string;

  @ApiProperty({ type: 'string', nullable: true })
  entityId!: string | null;

  @ApiProperty({ enum: ['success', 'denied', 'failure'] })
  outcome!: string;

  @ApiProperty({ format: 'date-time' })
  occurredAt!: string;

  @ApiProperty()
  correlationId!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'null for non-HTTP events.' })
  method!: string | null;

  @ApiProperty({ type: 'string', nullable: true, description: 'Route template, e.g. `/v1/devices/{deviceId}`.' })
  route!: string | null;

  @ApiProperty({ type: 'integer', nullable: true })
  statusCode!: number | null;

  @ApiProperty({ type: 'object', additionalProperties: true })
  metadata!: Record<string, unknown>;

  static of(row: AuditLogEntity): AuditEventResponse {
    return {
      auditLogId: row.auditLogId,
      eventType: row.eventType,
      actorType: row.actorType,
      actorId: row.actorId,
      action: row.action,
      entityType: row.entityType,
      entityId: row.entityId,
      outcome: row.outcome,
      occurredAt: row.occurredAt.toISOString(),
      correlationId: row.correlationId,
      method: row.method,
      route: row.route,
      statusCode: row.statusCode,
      metadata: row.metadata,
    };
  }
}

/** The platform admin's view: every tenant, so each event names its tenant (null for platform events). */
export class GlobalAuditEventResponse extends AuditEventResponse {
  @ApiProperty({ type: 'string', format: 'uuid', nullable: true, description: 'null for platform events (no tenant).' })
  tenantId!: string | null;

  static ofGlobal(row: AuditLogEntity): GlobalAuditEventResponse {
    return { ...AuditEventResponse.of(row), tenantId: row.tenantId };
  }
}

export class AuditEventPage extends NewestFirstPageResponse(AuditEventResponse) {}
export class GlobalAuditEventPage extends NewestFirstPageResponse(GlobalAuditEventResponse) {}
