import { decodeRawPayload } from '../../../shared/validation/raw-payload';
import type { StoredRawMessage } from '../../ingestion';
import type { JsonObject, JsonValue, SampleInput } from '../../sandbox';

/**
 * The payload a flow gives its first node for a stored message's raw payload (the shared decoding rule). A payload
 * that does not decode is the reason, as a string.
 */
export function payloadOfRaw(raw: StoredRawMessage['rawPayload']): { payload: JsonValue } | string {
  if (raw === null) return 'The raw message has no payload (it was not mapped at ingestion).';
  const decoded = decodeRawPayload(raw);
  return decoded.ok ? { payload: decoded.payload as JsonValue } : `The raw message's payload does not decode: ${decoded.message}`;
}

/**
 * A stored raw message as the sample of a dry run: its decoded payload, and as `msg.input` what a live run's
 * input carries of it (the connection data a codec takes `fPort` from, `observedAt` (else the receipt time) that
 * becomes `recvTime`, the receipt time, the correlation id, the routed device).
 */
export function sampleOfRawMessage(message: StoredRawMessage, payload: JsonValue): SampleInput {
  const input: JsonObject = {
    rawPayload: message.rawPayload,
    observedAt: (message.observedAt ?? message.receivedAt).toISOString(),
    rawReceivedAt: message.receivedAt.toISOString(),
    connectionData: (message.connectionData ?? {}) as JsonObject,
  };
  if (message.correlationId !== null) input.correlationId = message.correlationId;
  if (message.deviceId !== null) input.deviceId = message.deviceId;
  return { payload, input };
}
