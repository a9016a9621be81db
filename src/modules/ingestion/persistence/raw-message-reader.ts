import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { storedMappingColumns, StoredMappingRow, withStoredMapping } from './stored-mapping';

/** A stored raw message as a script's dry run reads it: what was mapped from the request, never its body. */
export interface StoredRawMessage {
  rawIngestionMessageId: string;
  tenantId: string | null;
  deviceId: string | null;
  receivedAt: Date;
  observedAt: Date | null;
  rawPayload: { encoding: string; data: string } | null;
  connectionData: Record<string, unknown> | null;
  correlationId: string | null;
}

/**
 * Reads of stored raw messages for other modules (ingestion owns `raw_ingestion_messages`). Nothing is audited
 * here: the caller decides who may see which message.
 */
@Injectable()
export class RawMessageReader {
  /** The message with this id (and receipt time, when given: the message an execution names). */
  async find(manager: EntityManager, rawIngestionMessageId: string, receivedAt?: Date): Promise<StoredRawMessage | null> {
    const [found] = await manager.query<
      (StoredMappingRow & { tenant_id: string | null; device_id: string | null; received_at: Date; observed_at: Date | null; correlation_id: string | null })[]
    >(
      `SELECT r.tenant_id, r.device_id, r.received_at, r.observed_at, ${storedMappingColumns('r')}, r.correlation_id
         FROM raw_ingestion_messages r WHERE r.raw_ingestion_message_id = $1 AND ($2::timestamptz IS NULL OR r.received_at = $2)`,
      [rawIngestionMessageId, receivedAt ?? null],
    );
    if (!found) return null;
    const row = withStoredMapping(found);
    return {
      rawIngestionMessageId,
      tenantId: row.tenant_id,
      deviceId: row.device_id,
      receivedAt: row.received_at,
      observedAt: row.observed_at,
      rawPayload: row.raw_payload,
      connectionData: row.connection_data,
      correlationId: row.correlation_id,
    };
  }
}
