import type { BuiltInBlockKey } from '../../blocks';
import type { FlowMessage, JsonObject, JsonValue, NodeError, NodeOutcome } from './engine-types';
import { jsonEqual, readPathText } from './message-path';

export type BuiltInExecutor = (message: FlowMessage, configuration: JsonObject, nodeId: string) => NodeOutcome;

const fail = (code: NodeError['code'], message: string): NodeOutcome => ({ kind: 'failed', error: { code, message } });

/** [byte length, reader] of every decode-binary type. */
const READERS: Record<string, [number, (view: DataView, offset: number) => number]> = {
  uint8: [1, (v, o) => v.getUint8(o)],
  int8: [1, (v, o) => v.getInt8(o)],
  uint16be: [2, (v, o) => v.getUint16(o, false)],
  uint16le: [2, (v, o) => v.getUint16(o, true)],
  int16be: [2, (v, o) => v.getInt16(o, false)],
  int16le: [2, (v, o) => v.getInt16(o, true)],
  uint32be: [4, (v, o) => v.getUint32(o, false)],
  uint32le: [4, (v, o) => v.getUint32(o, true)],
  int32be: [4, (v, o) => v.getInt32(o, false)],
  int32le: [4, (v, o) => v.getInt32(o, true)],
  float32be: [4, (v, o) => v.getFloat32(o, false)],
  float32le: [4, (v, o) => v.getFloat32(o, true)],
};

function isByte(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= 255;
}

/** Numbers read at fixed offsets of a byte-array payload; a read beyond the payload is `decode_error`. */
export const decodeBinary: BuiltInExecutor = (message, configuration) => {
  const payload = message.payload;
  if (!Array.isArray(payload) || !payload.every(isByte)) return fail('decode_error', 'The payload is not a byte array.');
  const bytes = Uint8Array.from(payload as number[]);
  const view = new DataView(bytes.buffer);
  const values: JsonObject = { ...message.values };
  for (const read of configuration.reads as Array<{ offset: number; type: string; fieldKey: string }>) {
    const reader = READERS[read.type];
    if (!reader) return fail('decode_error', `Unknown read type ${JSON.stringify(read.type)}.`);
    const [size, get] = reader;
    if (!Number.isInteger(read.offset) || read.offset < 0 || read.offset + size > bytes.length) {
      return fail('decode_error', `Reading ${read.type} at offset ${read.offset} needs ${read.offset + size} bytes; the payload has ${bytes.length}.`);
    }
    values[read.fieldKey] = get(view, read.offset);
  }
  return { kind: 'emitted', port: 'out', message: { ...message, values } };
};

/** Values copied from paths of the message; a path leading nowhere leaves its field unset. */
export const mapField: BuiltInExecutor = (message, configuration) => {
  const values: JsonObject = { ...message.values };
  for (const mapping of configuration.mappings as Array<{ source: string; fieldKey: string }>) {
    const found = readPathText(message, mapping.source);
    if (found.found) values[mapping.fieldKey] = found.value as JsonValue;
  }
  return { kind: 'emitted', port: 'out', message: { ...message, values } };
};

/** Half away from zero at `decimals` places; near a half, toPrecision(15) first drops binary noise (1.005 * 100 = 100.49999...). */
export function roundTo(value: number, decimals: number): number {
  const factor = 10 ** decimals;
  let scaled = Math.abs(value) * factor;
  if (Math.abs(scaled - Math.floor(scaled) - 0.5) < 1e-6) scaled = Number(scaled.toPrecision(15));
  const rounded = (Math.sign(value) * Math.round(scaled)) / factor;
  return Object.is(rounded, -0) ? 0 : rounded;
}

/** value * multiply + add, optionally rounded; an absent value passes, a non-number is `type_mismatch`. */
export const scale: BuiltInExecutor = (message, configuration) => {
  const fieldKey = configuration.fieldKey as string;
  const value = Object.prototype.hasOwnProperty.call(message.values, fieldKey) ? message.values[fieldKey] : undefined;
  if (value === undefined || value === null) return { kind: 'emitted', port: 'out', message };
  if (typeof value !== 'number' || !Number.isFinite(value)) {
    return fail('type_mismatch', `values.${fieldKey} is ${describe(value)}, not a finite number.`);
  }
  const multiply = configuration.multiply ?? 1;
  const add = configuration.add ?? 0;
  if (typeof multiply !== 'number' || typeof add !== 'number') return fail('type_mismatch', 'multiply and add must be numbers.');
  let scaled = value * multiply + add;
  const decimals = configuration.decimals;
  if (typeof decimals === 'number') scaled = roundTo(scaled, decimals);
  return { kind: 'emitted', port: 'out', message: { ...message, values: { ...message.values, [fieldKey]: scaled } } };
};

function compare(actual: unknown, expected: unknown, test: (order: number) => boolean): boolean {
  if (typeof actual === 'number' && typeof expected === 'number') return test(actual < expected ? -1 : actual > expected ? 1 : 0);
  if (typeof actual === 'string' && typeof expected === 'string') return test(actual < expected ? -1 : actual > expected ? 1 : 0);
  return false;
}

/** Whether the value at `path` satisfies `operator`; ordering compares two numbers or two strings, anything else fails. */
export function filterMatches(operator: string, found: { found: boolean; value: unknown }, expected: unknown): boolean {
  const actual = found.found ? found.value : undefined;
  switch (operator) {
    case 'eq':
      return found.found && jsonEqual(actual, expected);
    case 'ne':
      return !(found.found && jsonEqual(actual, expected));
    case 'gt':
      return compare(actual, expected, (o) => o > 0);
    case 'gte':
      return compare(actual, expected, (o) => o >= 0);
    case 'lt':
      return compare(actual, expected, (o) => o < 0);
    case 'lte':
      return compare(actual, expected, (o) => o <= 0);
    case 'exists':
      return actual !== undefined && actual !== null;
    case 'not_exists':
      return actual === undefined || actual === null;
    case 'in':
      return found.found && Array.isArray(expected) && expected.some((candidate) => jsonEqual(actual, candidate));
    default:
      return false;
  }
}

/** The message goes on `pass` when the condition holds, else on `reject`. */
export const filter: BuiltInExecutor = (message, configuration) => {
  const found = readPathText(message, configuration.path as string);
  const port = filterMatches(configuration.operator as string, found, configuration.value) ? 'pass' : 'reject';
  return { kind: 'emitted', port, message };
};

/** An e-mail request, as data: the caller sends it (live executions only, after commit). */
export const emailAction: BuiltInExecutor = (message, configuration, nodeId) => ({
  kind: 'emitted',
  port: null,
  message,
  action: { nodeId, emailTemplateId: configuration.emailTemplateId as string },
});

export const BUILT_IN_EXECUTORS: Record<BuiltInBlockKey, BuiltInExecutor> = {
  'decode-binary': decodeBinary,
  'map-field': mapField,
  scale,
  filter,
  'email-action': emailAction,
};

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isFinite(value) ? 'a number' : String(value);
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
