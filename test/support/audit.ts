import type { TestApp } from './test-app';

/** An `audit_log` row as the e2e suites read it. */
export interface AuditRow {
  tenant_id: string | null;
  entity_type: string;
  entity_id: string;
  event_type: string;
  action: string;
  actor_type: string;
  actor_id: string | null;
  outcome: string;
  status_code: number | null;
  metadata: Record<string, unknown>;
}

/** The audit rows of one entity, oldest first; only those of `eventType` when it is given. */
export function auditRows(t: TestApp, entityType: string, entityId: string, eventType?: string): Promise<AuditRow[]> {
  return t.dataSource.query<AuditRow[]>(
    `SELECT tenant_id, entity_type, entity_id, event_type, action, actor_type, actor_id, outcome, status_code, metadata
       FROM audit_log
      WHERE entity_type = $1 AND entity_id = $2 AND ($3::text IS NULL OR event_type = $3)
      ORDER BY occurred_at`,
    [entityType, entityId, eventType ?? null],
  );
}
