import { randomUUID } from 'node:crypto';
import type { ExecutionMode, FlowInput, JsonObject } from './engine-types';

/** A stored raw message as a flow run needs it. */
export interface StoredUplink {
  rawIngestionMessageId: string;
  receivedAt: Date;
  /** The message's observedAt, else its receipt time. */
  observedAt: Date;
  rawPayload: { encoding: string; data: string } | null;
  connectionData: JsonObject | null;
  correlationId: string;
}

/** The raw-message columns a flow run reads. */
export interface StoredUplinkRow {
  raw_ingestion_message_id: string;
  received_at: Date;
  observed_at: Date | null;
  raw_payload: { encoding: string; data: string } | null;
  connection_data: JsonObject | null;
  correlation_id: string | null;
}

/** A raw-message row as a flow run sees it: observedAt falls back to the receipt time, a missing correlation id to a new one. */
export function storedUplinkOf(row: StoredUplinkRow): StoredUplink {
  return {
    rawIngestionMessageId: row.raw_ingestion_message_id,
    receivedAt: row.received_at,
    observedAt: row.observed_at ?? row.received_at,
    rawPayload: row.raw_payload,
    connectionData: row.connection_data,
    correlationId: row.correlation_id ?? randomUUID(),
  };
}

/**
 * The input envelope of a stored uplink routed to a device: what live runs and replays execute, and what a
 * fixture saved from a raw message stores.
 */
export function storedUplinkInput(
  message: StoredUplink,
  target: { tenantId: string; deviceId: string; deviceTypeId: string },
  mode: ExecutionMode,
  parameters: JsonObject,
): FlowInput {
  return {
    mode,
    rawPayload: message.rawPayload,
    observedAt: message.observedAt.toISOString(),
    rawReceivedAt: message.receivedAt.toISOString(),
    tenantId: target.tenantId,
    deviceId: target.deviceId,
    deviceTypeId: target.deviceTypeId,
    correlationId: message.correlationId,
    connectionData: message.connectionData ?? {},
    parameters,
  };
}
