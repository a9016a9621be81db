import type { EntityManager } from 'typeorm';
import { storedUplinkOf, type JsonObject, type StoredUplinkRow } from '../../flows/engine';
import { storedMappingColumns, storedMappingOutputs, withStoredMapping, type StoredMappingRow } from '../../ingestion';
import type { RoutedDevice, StoredUplink } from '../run/message-outcome';
import type { FlowReplayEntity, ReplayPosition } from '../persistence/flow-replay.entity';

/** A stored uplink a replay runs, with its device and its place in the replay's order. */
export interface ReplayMessage {
  uplink: StoredUplink;
  device: RoutedDevice;
  position: ReplayPosition;
}

interface ReplayRow extends StoredUplinkRow, StoredMappingRow<JsonObject> {
  /** Text with milliseconds: the position compares exactly. */
  observed_text: string;
  received_text: string;
  device_id: string;
  tenant_id: string;
  device_type_id: string;
  dev_eui: string;
  name: string;
  metadata: Record<string, string>;
}

const MS_TEXT = `'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'`;
const HOUR_MS = 3_600_000;
const MAX_SPAN_MS = 32 * 24 * HOUR_MS;

/** A message's observedAt: the one it carried, else its receipt time (as the flow run sees it). */
const OBSERVED = 'coalesce(r.observed_at, r.received_at)';

const RAW_COLUMNS = `x.raw_ingestion_message_id, x.received_at, x.observed_at, ${storedMappingColumns('x')}, x.correlation_id,
                     x.tenant_id, x.processing_status`;

/**
 * What a replay selects ($1 tenant, $2 device type, $3 device ids or null, $4 from, $5 to): the routed messages
 * (processed or skipped, `device_id` set) of the flow's tenant whose device is of the flow's device type, with
 * observedAt in [from, to). Per device, two ranges of the replay index (devEui, observed_at, received_at), a
 * device's messages being those of its devEui (which never changes) routed to it: one on observed_at, one on
 * received_at among the messages that carried no observedAt (an OR of the two would read every message of the
 * device instead).
 */
const SELECTION = `
    FROM devices d
    CROSS JOIN LATERAL (
      SELECT ${RAW_COLUMNS} FROM raw_ingestion_messages x
       WHERE x.dev_eui = d.dev_eui AND x.device_id = d.device_id AND x.observed_at >= $4 AND x.observed_at < $5
      UNION ALL
      SELECT ${RAW_COLUMNS} FROM raw_ingestion_messages x
       WHERE x.dev_eui = d.dev_eui AND x.device_id = d.device_id AND x.observed_at IS NULL AND x.received_at >= $4 AND x.received_at < $5
    ) r
   WHERE d.tenant_id = $1 AND d.device_type_id = $2 AND ($3::uuid[] IS NULL OR d.device_id = ANY ($3::uuid[]))
     AND r.tenant_id = $1 AND r.processing_status IN ('processed', 'skipped')`;

const BATCH_SQL = `
  SELECT r.raw_ingestion_message_id, r.received_at, r.observed_at, ${storedMappingOutputs('r')}, r.correlation_id,
         to_char(${OBSERVED} AT TIME ZONE 'UTC', ${MS_TEXT}) AS observed_text,
         to_char(r.received_at AT TIME ZONE 'UTC', ${MS_TEXT}) AS received_text,
         d.device_id, d.tenant_id, d.device_type_id, d.dev_eui, d.name, d.metadata
    ${SELECTION}
     AND ($6::timestamptz IS NULL OR (${OBSERVED}, r.received_at, r.raw_ingestion_message_id) > ($6::timestamptz, $7::timestamptz, $8::uuid))
   ORDER BY ${OBSERVED}, r.received_at, r.raw_ingestion_message_id
   LIMIT $9`;

/**
 * Reads a replay's messages in (observedAt, rawReceivedAt, id) order, a batch at a time after a position. The
 * replay index is per device (device, observedAt, receivedAt), so a query over all of a type's devices sorts what
 * its observedAt range holds: each batch reads a window of observedAt after the position, and the window adapts
 * (halved when it holds a whole batch, doubled when it holds less) so a batch sorts about a batch's worth of rows
 * however dense the range is, instead of everything up to `to`.
 */
export class ReplayMessageReader {
  private spanMs = HOUR_MS;

  constructor(private readonly replay: Pick<FlowReplayEntity, 'tenantId' | 'deviceIds' | 'rangeFrom' | 'rangeTo'> & { deviceTypeId: string }) {}

  /** How many messages the replay selects now. */
  async count(manager: EntityManager): Promise<number> {
    const [row] = await manager.query<{ n: number }[]>(`SELECT count(*)::int AS n ${SELECTION}`, this.selection(this.replay.rangeFrom, this.replay.rangeTo));
    return row?.n ?? 0;
  }

  /** Up to `limit` messages after `after` (from the start when null), in replay order. */
  async next(manager: EntityManager, after: ReplayPosition | null, limit: number): Promise<ReplayMessage[]> {
    const end = this.replay.rangeTo.getTime();
    const batch: ReplayMessage[] = [];
    let start = after ? Date.parse(after.observedAt) : this.replay.rangeFrom.getTime();
    let position = after;
    while (batch.length < limit && start < end) {
      const stop = Math.min(end, start + this.spanMs);
      const wanted = limit - batch.length;
      const rows = await manager.query<ReplayRow[]>(BATCH_SQL, [
        ...this.selection(new Date(start), new Date(stop)),
        position?.observedAt ?? null,
        position?.receivedAt ?? null,
        position?.rawIngestionMessageId ?? null,
        wanted,
      ]);
      batch.push(...rows.map(toMessage));
      if (rows.length === wanted) {
        // The window held at least a whole batch: the next one is narrower.
        this.spanMs = Math.max(1, Math.floor(this.spanMs / 2));
        break;
      }
      this.spanMs = Math.min(MAX_SPAN_MS, this.spanMs * 2);
      start = stop;
      position = null;
    }
    return batch;
  }

  private selection(from: Date, to: Date): unknown[] {
    return [this.replay.tenantId, this.replay.deviceTypeId, this.replay.deviceIds, from.toISOString(), to.toISOString()];
  }
}

function toMessage(row: ReplayRow): ReplayMessage {
  return {
    uplink: storedUplinkOf(withStoredMapping(row)),
    device: { deviceId: row.device_id, tenantId: row.tenant_id, deviceTypeId: row.device_type_id, devEui: row.dev_eui, name: row.name, metadata: row.metadata },
    position: { observedAt: row.observed_text, receivedAt: row.received_text, rawIngestionMessageId: row.raw_ingestion_message_id },
  };
}
