/** The encodings a raw payload comes in, wherever one is accepted (ingestion, fixture inputs). */
export const PAYLOAD_ENCODINGS = ['base64', 'hex', 'utf8', 'json'] as const;
/** A raw payload's `data` is at most this many characters. */
export const MAX_PAYLOAD_DATA_LENGTH = 65536;
/** A message's `connectionData` is at most this many bytes as JSON. */
export const MAX_CONNECTION_DATA_BYTES = 16 * 1024;

/**
 * The one rule for whether a raw payload decodes, shared by the flow engine (which decodes it), fixture inputs and
 * ingestion (which accept it), so nothing is accepted that an execution would then fail to decode.
 */
export const BASE64_PATTERN = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** An even number of hex digits, either case. */
export const HEX_PATTERN = /^(?:[0-9a-fA-F]{2})*$/;

/** Whether `data` decodes in `encoding` (base64, hex, JSON text; utf8 text always does). Callers check the encoding name first. */
export function rawPayloadDecodes(encoding: string, data: string): boolean {
  switch (encoding) {
    case 'base64':
      return BASE64_PATTERN.test(data);
    case 'hex':
      return HEX_PATTERN.test(data);
    case 'json':
      try {
        JSON.parse(data);
        return true;
      } catch {
        return false;
      }
    default:
      return true;
  }
}

/**
 * What a flow's first node gets as `payload` from a raw payload: `base64` and `hex` become an array of byte integers,
 * `utf8` the string itself, `json` the parsed document (a JSON value in every case). Anything that does not decode
 * is the reason as a string. Live runs, replays and dry runs of a stored message all decode through this.
 */
export function decodeRawPayload(raw: unknown): { ok: true; payload: unknown } | { ok: false; message: string } {
  if (raw === null || typeof raw !== 'object') return { ok: false, message: 'The input has no rawPayload.' };
  const { encoding, data } = raw as { encoding?: unknown; data?: unknown };
  if (typeof data !== 'string') return { ok: false, message: 'rawPayload.data is not a string.' };
  switch (encoding) {
    case 'base64':
      if (!BASE64_PATTERN.test(data)) return { ok: false, message: 'rawPayload.data is not base64.' };
      return { ok: true, payload: [...Buffer.from(data, 'base64')] };
    case 'hex':
      if (!HEX_PATTERN.test(data)) return { ok: false, message: 'rawPayload.data is not an even number of hex digits.' };
      return { ok: true, payload: [...Buffer.from(data, 'hex')] };
    case 'utf8':
      return { ok: true, payload: data };
    case 'json':
      try {
        return { ok: true, payload: JSON.parse(data) as unknown };
      } catch {
        return { ok: false, message: 'rawPayload.data is not JSON.' };
      }
    default:
      return { ok: false, message: `rawPayload.encoding ${JSON.stringify(encoding)} is not one of base64, hex, utf8, json.` };
  }
}
