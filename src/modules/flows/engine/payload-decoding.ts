import { BASE64_PATTERN, HEX_PATTERN } from '../../../shared/validation/raw-payload';
import type { JsonValue } from './engine-types';


/**
 * The initial message's `payload` from a raw payload: `base64` and `hex` become an array of byte integers,
 * `utf8` the string itself, `json` the parsed document. Anything that does not decode is the reason as a string.
 */
export function decodeRawPayload(raw: unknown): { ok: true; payload: JsonValue } | { ok: false; message: string } {
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
        return { ok: true, payload: JSON.parse(data) as JsonValue };
      } catch {
        return { ok: false, message: 'rawPayload.data is not JSON.' };
      }
    default:
      return { ok: false, message: `rawPayload.encoding ${JSON.stringify(encoding)} is not one of base64, hex, utf8, json.` };
  }
}
