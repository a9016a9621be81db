import { describe } from './built-in-executors';

export const MAX_STRING_VALUE_CHARS = 4096;
export const MAX_JSON_VALUE_BYTES = 16 * 1024;

function codePoints(value: string): number {
  let count = 0;
  for (const _ of value) count += 1;
  return count;
}

/** Why `value` does not fit `schemaRef` (a sentence fragment), or null when it fits. */
export function checkSchemaRef(schemaRef: string, value: unknown): string | null {
  switch (schemaRef) {
    case 'platform://schemas/number/v1':
      return typeof value === 'number' && Number.isFinite(value) ? null : `is ${describe(value)}, not a finite number.`;
    case 'platform://schemas/string/v1':
      if (typeof value !== 'string') return `is ${describe(value)}, not a string.`;
      return value.length <= MAX_STRING_VALUE_CHARS || codePoints(value) <= MAX_STRING_VALUE_CHARS ? null : `is longer than ${MAX_STRING_VALUE_CHARS} characters.`;
    case 'platform://schemas/boolean/v1':
      return typeof value === 'boolean' ? null : `is ${describe(value)}, not a boolean.`;
    case 'platform://schemas/json/v1': {
      const json = JSON.stringify(value);
      if (json === undefined) return 'is not JSON.';
      return Buffer.byteLength(json, 'utf8') <= MAX_JSON_VALUE_BYTES ? null : `is larger than ${MAX_JSON_VALUE_BYTES} bytes of JSON.`;
    }
    default:
      return `cannot be checked against the unknown schema ${schemaRef}.`;
  }
}
