import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { storedMappingColumns, type StoredMappingRow, withStoredMapping } from './stored-mapping';

/** The columns of a pinned message a fixture input is derived from. */
export interface PinnedRawMessage extends StoredMappingRow {
  raw_ingestion_message_id: string;
  received_at: Date;
  observed_at: Date | null;
  correlation_id: string | null;
  device_id: string;
}

/**
 * Pinning of stored raw messages, the way flows' fixtures keep the messages they reference: retention keeps a
 * pinned message. Ingestion owns `raw_ingestion_messages`; other modules change `pinned` only through this. A
 * caller locks the messages first (`lock`, in the transaction that changes its references), and decides afterwards
 * whether a message is still referenced, so two callers never leave a message pinned (or unpinned) wrongly.
 */
@Injectable()
export class RawMessagePins {
  /** Locks the messages until the end of the transaction, in id order (two callers never wait on each other crosswise). */
  async lock(manager: EntityManager, ids: readonly (string | null)[]): Promise<void> {
    const unique = [...new Set(ids.filter((id): id is string => id !== null))].sort();
    if (unique.length === 0) return;
    await manager.query(
      `SELECT 1 FROM raw_ingestion_messages WHERE raw_ingestion_message_id = ANY($1::uuid[]) ORDER BY raw_ingestion_message_id FOR UPDATE`,
      [unique],
    );
  }

  /**
   * Pins the message received at `receivedAt` (RFC 3339) with this id if it was mapped and routed to a device
   * of `deviceTypeId` in `tenantId`, and returns it; null (nothing pinned) otherwise.
   */
  async pin(manager: EntityManager, message: { rawIngestionMessageId: string; receivedAt: string; tenantId: string; deviceTypeId: string }): Promise<PinnedRawMessage | null> {
    // A plain UPDATE ... RETURNING comes back from the driver with its row count; a CTE returns the rows alone.
    const [row] = await manager.query<PinnedRawMessage[]>(
      `WITH pinned AS (
         UPDATE raw_ingestion_messages r SET pinned = true
           FROM devices d
          WHERE r.raw_ingestion_message_id = $1 AND r.received_at = $2::timestamptz AND r.dev_eui IS NOT NULL
            AND d.device_id = r.device_id AND d.tenant_id = $3 AND d.device_type_id = $4
          RETURNING r.raw_ingestion_message_id, r.received_at, r.observed_at, ${storedMappingColumns('r')}, r.correlation_id, r.device_id)
       SELECT * FROM pinned`,
      // RFC 3339 allows a lower-case `t` and `z`; PostgreSQL reads the upper-case form at full precision.
      [message.rawIngestionMessageId, message.receivedAt.toUpperCase(), message.tenantId, message.deviceTypeId],
    );
    return row ? withStoredMapping(row) : null;
  }

  /** Sets whether the (locked) message is pinned: exactly while something still references it. */
  async setPinned(manager: EntityManager, rawIngestionMessageId: string, pinned: boolean): Promise<void> {
    await manager.query(`UPDATE raw_ingestion_messages SET pinned = $2 WHERE raw_ingestion_message_id = $1`, [rawIngestionMessageId, pinned]);
  }
}
