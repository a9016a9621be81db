import { randomUUID } from 'node:crypto';
import type { TestApp } from './test-app';

/*
 * Direct-to-database raw messages for tests of what uses them (fixtures, retention). Rows are written as the
 * processing pipeline leaves them: routed messages `processed` with their device (and its devEui), so a running
 * pipeline never claims them (it takes only `pending` rows).
 */

export interface SeededRawMessage {
  rawIngestionMessageId: string;
  /** RFC 3339 with milliseconds, as the API shows it. */
  receivedAt: string;
}

export interface RawMessageOptions {
  tenantId?: string | null;
  deviceId?: string | null;
  /** Received this many days ago (fractions allowed); now when absent. */
  ageDays?: number;
  observedAt?: string | null;
  rawPayload?: { encoding: string; data: string };
  connectionData?: Record<string, unknown> | null;
  correlationId?: string | null;
  status?: 'pending' | 'processed' | 'unrouted';
  pinned?: boolean;
}

export async function seedRawMessage(t: TestApp, options: RawMessageOptions = {}): Promise<SeededRawMessage> {
  const status = options.status ?? (options.deviceId ? 'processed' : 'unrouted');
  const rawIngestionMessageId = randomUUID();
  const [row] = await t.dataSource.query<{ received_at: Date }[]>(
    `INSERT INTO raw_ingestion_messages
       (raw_ingestion_message_id, received_at, source, event, tenant_id, dev_eui, observed_at, raw_payload, connection_data,
        correlation_id, content_type, body, size_bytes, processing_status, processing_reason, device_id, pinned)
     VALUES ($1, date_trunc('milliseconds', clock_timestamp() - make_interval(secs => $2::double precision * 86400)), 'http', 'uplink',
             $3, coalesce((SELECT dev_eui FROM devices WHERE device_id = $9), 'AABBCCDDEEFF0011'), $4, $5, $6, $7, 'application/json', '\\x7b7d'::bytea, 2, $8::varchar,
             CASE WHEN $8::varchar = 'unrouted' THEN 'unknown_dev_eui' END, $9, $10)
     RETURNING received_at`,
    [
      rawIngestionMessageId,
      options.ageDays ?? 0,
      options.tenantId ?? null,
      options.observedAt ?? null,
      options.rawPayload ?? { encoding: 'hex', data: '00FF' },
      options.connectionData === undefined ? { fPort: 2 } : options.connectionData,
      options.correlationId === undefined ? 'corr-raw' : options.correlationId,
      status,
      status === 'pending' ? null : (options.deviceId ?? null),
      options.pinned ?? false,
    ],
  );
  return { rawIngestionMessageId, receivedAt: row!.received_at.toISOString() };
}

/**
 * What routing does to a stored message: its tenant and device, processed. A live worker may have claimed the
 * message (its queue entry locked) and be about to record its own outcome on the row: the entry is locked first,
 * in the pipeline's order, so this waits for that worker instead of deadlocking with it, and overrides its outcome.
 */
export async function routeRawMessage(t: TestApp, rawIngestionMessageId: string, tenantId: string, deviceId: string): Promise<void> {
  await t.dataSource.transaction(async (manager) => {
    await manager.query(`SELECT 1 FROM raw_message_queue WHERE raw_ingestion_message_id = $1 FOR UPDATE`, [rawIngestionMessageId]);
    await manager.query(
      `UPDATE raw_ingestion_messages SET tenant_id = $2, device_id = $3, processing_status = 'processed', processing_reason = NULL
        WHERE raw_ingestion_message_id = $1`,
      [rawIngestionMessageId, tenantId, deviceId],
    );
  });
}

export const isPinned = async (t: TestApp, rawIngestionMessageId: string): Promise<boolean | undefined> =>
  (await t.dataSource.query<{ pinned: boolean }[]>(`SELECT pinned FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [rawIngestionMessageId]))[0]?.pinned;
