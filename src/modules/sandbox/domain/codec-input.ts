import type { JsonObject, JsonValue, ScriptContextData, ScriptMessage } from './sandbox-contract';

/** Payloads beyond this are no uplink frame (LoRaWAN allows 242 bytes); they are refused before any script runs. */
export const MAX_CODEC_PAYLOAD_BYTES = 64 * 1024;

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}(?:==)?|[A-Za-z0-9+/]{3}=?)?$/;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * The `bytes` a codec receives, from a message payload: a byte array (integers 0..255, what the flow engine
 * makes of a `base64` or `hex` raw payload) is taken as it is, a string is read as base64 (standard or URL-safe
 * alphabet, padding optional: how network servers hand over `frm_payload`). Anything else is no frame: the
 * reason is returned instead.
 */
export function codecBytes(payload: JsonValue): number[] | string {
  if (Array.isArray(payload)) {
    if (payload.length > MAX_CODEC_PAYLOAD_BYTES) return `the payload exceeds ${MAX_CODEC_PAYLOAD_BYTES} bytes`;
    for (let i = 0; i < payload.length; i += 1) {
      const byte = payload[i];
      if (typeof byte !== 'number' || !Number.isInteger(byte) || byte < 0 || byte > 255) {
        return `payload[${i}] is not a byte (an integer 0..255)`;
      }
    }
    return payload as number[];
  }
  if (typeof payload === 'string') {
    if (payload.length > Math.ceil(MAX_CODEC_PAYLOAD_BYTES / 3) * 4) return `the payload exceeds ${MAX_CODEC_PAYLOAD_BYTES} bytes`;
    const urlSafe = !BASE64.test(payload);
    if (urlSafe && (!BASE64URL.test(payload) || payload.length % 4 === 1)) return 'the payload string is not base64';
    return [...Buffer.from(payload, urlSafe ? 'base64url' : 'base64')];
  }
  return `the payload must be a byte array or a base64 string; got ${payload === null ? 'null' : typeof payload}`;
}

/**
 * A codec's call as the sandbox host receives it (JSON of `msg` and `ctx`), or the reason its payload is no frame.
 * A codec is called with the bytes, fPort (`input.connectionData.fPort`), the receive time (`input.observedAt`, else
 * `ctx.observedAt`) and its variables (`ctx.configuration`) only: the rest of the message (the whole uplink
 * envelope) and of the context is not sent.
 */
export function codecCall(msg: ScriptMessage, ctx: ScriptContextData): { msgJson: string; ctxJson: string } | string {
  const bytes = codecBytes(msg.payload);
  if (typeof bytes === 'string') return bytes;
  const connection = msg.input.connectionData;
  const fPort = isJsonObject(connection) ? connection.fPort : undefined;
  return {
    msgJson: JSON.stringify({ payload: bytes, input: { connectionData: { fPort }, observedAt: msg.input.observedAt } }),
    ctxJson: JSON.stringify({ configuration: ctx.configuration, observedAt: ctx.observedAt }),
  };
}

function isJsonObject(value: unknown): value is JsonObject {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}
