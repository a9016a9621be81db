import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';

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
  async find(manager: EntityManager, rawIngestionMessageId: string): Promise<StoredRawMessage | null> {
    const [row] = await manager.query<
      {
        tenant_id: string | null;
        device_id: string | null;
        received_at: Date;
        observed_at: Date | null;
        raw_payload: { encoding: string; data: string } | null;
        connection_data: Record<string, unknown> | null;
        correlation_id: string | null;
      }[]
    >(
      `SELECT tenant_id, device_id, received_at, observed_at, raw_payload, connection_data, correlation_id
         FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`,
      [rawIngestionMessageId],
    );
    if (!row) return null;
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
