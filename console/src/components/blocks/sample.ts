import { toHex } from './bytes';

/** A JSON object typed by the user; anything else is an error naming `what`. */
export const parseObject = (text: string, what: string): Record<string, unknown> => {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new Error(`${what} is not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw new Error(`${what} must be a JSON object.`);
  return value as Record<string, unknown>;
};

/** A sample input whose payload is a byte array and whose input envelope has an fPort: a codec's input, as form fields. */
export function codecPartsOf(sample: Record<string, unknown>): { bytes: string; fPort: string; variables: string } | null {
  const payload = sample.payload;
  if (!Array.isArray(payload) || !payload.every((byte) => Number.isInteger(byte) && byte >= 0 && byte <= 255)) return null;
  const input = (sample.input ?? {}) as { connectionData?: { fPort?: unknown } };
  const fPort = input.connectionData?.fPort;
  return {
    bytes: toHex(payload as number[]),
    fPort: typeof fPort === 'number' ? String(fPort) : '',
    variables: sample.configuration ? JSON.stringify(sample.configuration, null, 2) : '{}',
  };
}

/** An fPort typed by the user: a whole number 0..255 (empty reads as 0). */
export function parsePort(text: string): number {
  const port = Number(text);
  if (!Number.isInteger(port) || port < 0 || port > 255) throw new Error('fPort must be a whole number from 0 to 255.');
  return port;
}
