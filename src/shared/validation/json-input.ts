import type { FieldViolation } from '../errors/error-codes';

/*
 * Rules every request value obeys before any DTO sees it, because the database or the JavaScript object model
 * cannot represent the value faithfully: no NUL character (PostgreSQL text and jsonb cannot hold U+0000), no lone
 * UTF-16 surrogate (not a Unicode character, so not storable as UTF-8), no property named like a member of
 * Object.prototype (class-transformer and the validation pipe would drop it silently), and bounded nesting
 * (recursive validation of a deeply nested body would overflow the stack).
 */

/** Deepest JSON nesting accepted in a body: arrays and objects count one level each. */
export const MAX_JSON_DEPTH = 64;

/** `toString`, `constructor`, `__proto__`, `valueOf`, `hasOwnProperty`, `__defineGetter__`, ... */
export const PROTOTYPE_MEMBER_NAMES: ReadonlySet<string> = new Set(Object.getOwnPropertyNames(Object.prototype));

/** True when the JSON text nests arrays/objects more than `max` levels (brackets inside strings do not count). */
export function exceedsJsonDepth(text: string, max = MAX_JSON_DEPTH): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The problem with one string (a value or a property name), or undefined when it is storable. */
export function stringProblem(value: string): string | undefined {
  if (value.includes('\u0000')) return 'Must not contain the NUL character (U+0000).';
  if (LONE_SURROGATE.test(value)) return 'Must be valid Unicode: a lone UTF-16 surrogate (e.g. \\ud800) is not a character.';
  return undefined;
}

/**
 * Every NUL, lone surrogate and prototype-member property name in a parsed JSON value (or a parsed query), with
 * its location-prefixed path (`body.metadata.x`, `body.items[2]`, `query.q`). The value's depth is already bounded.
 */
export function inputViolations(value: unknown, path: string, out: FieldViolation[] = []): FieldViolation[] {
  collectViolations(value, [path], out);
  return out;
}

/**
 * The walk behind inputViolations. `trail` is the path so far (the location, then property names and array
 * indexes); it is joined into a string only for a value that is reported, so a clean body costs no path strings.
 */
function collectViolations(value: unknown, trail: (string | number)[], out: FieldViolation[]): void {
  if (typeof value === 'string') {
    const problem = stringProblem(value);
    if (problem) out.push({ path: pathOf(trail), rule: 'format', message: problem });
  } else if (Array.isArray(value)) {
    for (let index = 0; index < value.length; index++) {
      trail.push(index);
      collectViolations(value[index], trail, out);
      trail.pop();
    }
  } else if (value !== null && typeof value === 'object') {
    for (const key of Object.keys(value)) {
      trail.push(key);
      const keyProblem = stringProblem(key);
      if (keyProblem) {
        out.push({ path: pathOf(trail), rule: 'format', message: `The property name is invalid. ${keyProblem}` });
      } else if (PROTOTYPE_MEMBER_NAMES.has(key)) {
        out.push({
          path: pathOf(trail),
          rule: 'unknown_property',
          message: `"${key}" is the name of a built-in JavaScript object member and is not accepted as a property name.`,
        });
      } else {
        collectViolations((value as Record<string, unknown>)[key], trail, out);
      }
      trail.pop();
    }
  }
}

/** `body.items[2].name` from ['body', 'items', 2, 'name']. */
function pathOf(trail: readonly (string | number)[]): string {
  let path = String(trail[0]);
  for (let i = 1; i < trail.length; i++) {
    const segment = trail[i]!;
    path += typeof segment === 'number' ? `[${segment}]` : `.${segment}`;
  }
  return path;
}
