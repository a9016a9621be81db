import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Actor, RequestContext } from '../context/request-context';
import { ERROR_CODES, ErrorCode } from '../errors/error-codes';
import { AuditLogEntity, AuditOutcome } from './audit-log.entity';

export interface AuditEntry {
  /** `<entityType>.<past tense>`, e.g. `device.assigned`. */
  eventType: string;
  /** The verb, e.g. `assign`. */
  action: string;
  entityType: string;
  entityId?: string | null;
  tenantId?: string | null;
  outcome?: AuditOutcome;
  /**
   * For a `denied` or `failure` event: the error the request answers, whose HTTP status is recorded. A success
   * records the status its route answers on success; neither is the handler's business.
   */
  errorCode?: ErrorCode;
  /** The HTTP status answered when it is not the error code's usual one (502 for a failed upstream). */
  status?: number;
  metadata?: Record<string, unknown>;
  /** Defaults to the request's actor (or `system` outside a request). */
  actor?: Actor;
}

export const MAX_AUDIT_METADATA_BYTES = 8 * 1024;
// Secrets must never reach the audit log; this is a backstop, callers should not pass them.
// Keys are compared without case, `-` or `_`: `currentPassword`, `passwordHash`, `refresh_token`, `X-Api-Key`
// are dropped; `tokenCount`, `passengerCount` or `passwordChangeRequired` are kept.
const SECRET_SUFFIXES = [
  'password',
  'passwd',
  'passphrase',
  'passwordhash',
  'secret',
  'token',
  'tokenhash',
  'apikey',
  'privatekey',
  'credential',
  'credentials',
];
const SECRET_NAMES = new Set(['authorization', 'cookie', 'setcookie', 'bearer', 'jwt']);

function isSecretKey(key: string): boolean {
  const normalized = key.toLowerCase().replace(/[-_]/g, '');
  return SECRET_NAMES.has(normalized) || SECRET_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
}

/**
 * Writes audit rows inside the caller's transaction, so the row commits or rolls back with the change it
 * records. Correlation id, actor, method and route come from the request context.
 */
@Injectable()
export class AuditWriter {
  constructor(private readonly context: RequestContext) {}

  async write(manager: EntityManager, entry: AuditEntry): Promise<AuditLogEntity> {
    return manager.save(AuditLogEntity, this.rowOf(manager, entry));
  }

  /** Many rows at once (a bulk import audits every record it creates): one statement, whatever their number. */
  async writeMany(manager: EntityManager, entries: readonly AuditEntry[]): Promise<void> {
    if (entries.length === 0) return;
    const rows = entries.map((entry) => this.rowOf(manager, entry));
    const column = <K extends keyof AuditLogEntity>(key: K) => rows.map((row) => row[key]);
    await manager.query(
      `INSERT INTO audit_log (tenant_id, event_type, action, entity_type, entity_id, outcome, actor_type, actor_id,
                              correlation_id, method, route, status_code, metadata)
       SELECT * FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                            $9::text[], $10::text[], $11::text[], $12::int[], $13::jsonb[])`,
      [
        column('tenantId'),
        column('eventType'),
        column('action'),
        column('entityType'),
        column('entityId'),
        column('outcome'),
        column('actorType'),
        column('actorId'),
        column('correlationId'),
        column('method'),
        column('route'),
        column('statusCode'),
        rows.map((row) => JSON.stringify(row.metadata)),
      ],
    );
  }

  private rowOf(manager: EntityManager, entry: AuditEntry): AuditLogEntity {
    const actor = entry.actor ?? this.context.actor;
    const http = this.context.http;
    const metadata = scrubSecrets(entry.metadata ?? {}) as Record<string, unknown>;
    const size = Buffer.byteLength(JSON.stringify(metadata), 'utf8');
    if (size > MAX_AUDIT_METADATA_BYTES) {
      throw new Error(`Audit metadata for ${entry.eventType} is ${size} bytes; the limit is ${MAX_AUDIT_METADATA_BYTES}`);
    }
    return manager.create(AuditLogEntity, {
      tenantId: entry.tenantId ?? null,
      eventType: entry.eventType,
      action: entry.action,
      entityType: entry.entityType,
      entityId: entry.entityId ?? null,
      outcome: entry.outcome ?? 'success',
      actorType: actor.actorType,
      actorId: actor.actorId,
      correlationId: this.context.correlationId ?? `system-${randomUUID()}`,
      method: http.method,
      route: http.route,
      statusCode:
        entry.status ??
        (entry.errorCode ? ERROR_CODES[entry.errorCode].status : (entry.outcome ?? 'success') === 'success' ? this.context.successStatus : null),
      metadata,
    });
  }
}

function scrubSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrubSecrets);
  if (value && typeof value === 'object' && !(value instanceof Date)) {
    return Object.fromEntries(
      Object.entries(value as Record<string, unknown>)
        .filter(([key]) => !isSecretKey(key))
        .map(([key, inner]) => [key, scrubSecrets(inner)]),
    );
  }
  return value;
}
