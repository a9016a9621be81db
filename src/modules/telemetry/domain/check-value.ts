import type { SchemaRef } from '../../device-types';

/** Limits a stored value must fit, by `schemaRef`. */
export const MAX_STRING_LENGTH = 4096;
export const MAX_JSON_BYTES = 16 * 1024;

/** A value as flows produce it: a JSON value (never null: null is never written). */
export type TelemetryValue = number | string | boolean | readonly unknown[] | { readonly [key: string]: unknown };

export type ValueCheck = { ok: true } | { ok: false; code: 'type_mismatch'; reason: string };

const OK: ValueCheck = { ok: true };
const mismatch = (reason: string): ValueCheck => ({ ok: false, code: 'type_mismatch', reason });

/**
 * Does `value` fit the field's `schemaRef`? number: finite; string: at most 4096 characters;
 * boolean; json: any JSON value (objects, arrays, scalars) whose serialization is at most 16 KiB of UTF-8.
 */
export function checkValue(schemaRef: SchemaRef, value: unknown): ValueCheck {
  if (value === null || value === undefined) return mismatch('null is never stored');
  switch (schemaRef) {
    case 'platform://schemas/number/v1':
      return typeof value === 'number' && Number.isFinite(value) ? OK : mismatch('expected a finite number');
    case 'platform://schemas/string/v1':
      if (typeof value !== 'string') return mismatch('expected a string');
      return value.length <= MAX_STRING_LENGTH ? OK : mismatch(`a string is at most ${MAX_STRING_LENGTH} characters`);
    case 'platform://schemas/boolean/v1':
      return typeof value === 'boolean' ? OK : mismatch('expected a boolean');
    case 'platform://schemas/json/v1': {
      const text = jsonText(value);
      if (text === null) return mismatch('expected a JSON value');
      return Buffer.byteLength(text, 'utf8') <= MAX_JSON_BYTES ? OK : mismatch(`a JSON value is at most ${MAX_JSON_BYTES} bytes`);
    }
    default:
      return mismatch(`unknown schema ${String(schemaRef)}`);
  }
}

/** The JSON text of a value, or null if it has none (functions, symbols, bigints, cycles, non-finite numbers). */
export function jsonText(value: unknown): string | null {
  if (typeof value === 'number' && !Number.isFinite(value)) return null;
  try {
    const text = JSON.stringify(value, (_key, inner: unknown) => {
      if (typeof inner === 'number' && !Number.isFinite(inner)) throw new TypeError('non-finite number');
      return inner;
    });
    return typeof text === 'string' ? text : null;
  } catch {
    return null;
  }
}
