/**
 * Paths into JSON documents: names separated by dots and array indexes in brackets (`payload.a[0].b`,
 * `current.temperature`, `actions[1].emailTemplateId`). Field keys may themselves contain dots
 * (`env.temperature`), so at an object the longest run of dotted names that is an own key wins.
 * Only own properties are read: a path never reaches a prototype.
 */
export type PathToken = { name: string; dotted: boolean } | { index: number };

const hasOwn = Object.prototype.hasOwnProperty;

/** The tokens of `path`, or null when it is not a path (empty name, unclosed or non-numeric bracket). */
export function parsePath(path: string): PathToken[] | null {
  const tokens: PathToken[] = [];
  let i = 0;
  let afterDot = false;
  while (i < path.length) {
    if (path[i] === '[') {
      if (afterDot) return null;
      const close = path.indexOf(']', i);
      if (close < 0) return null;
      const digits = path.slice(i + 1, close);
      if (!/^\d{1,9}$/.test(digits)) return null;
      tokens.push({ index: Number(digits) });
      i = close + 1;
      if (i < path.length && path[i] !== '.' && path[i] !== '[') return null;
      if (path[i] === '.') {
        i += 1;
        afterDot = true;
        if (i === path.length) return null;
      }
      continue;
    }
    let end = i;
    while (end < path.length && path[end] !== '.' && path[end] !== '[') end += 1;
    if (end === i) return null;
    // a name continuing a dotted run may join its predecessor into one key (`env.temperature`)
    tokens.push({ name: path.slice(i, end), dotted: afterDot && tokens.length > 0 && 'name' in tokens[tokens.length - 1] });
    i = end;
    afterDot = false;
    if (path[i] === '.') {
      i += 1;
      afterDot = true;
      if (i === path.length) return null;
    }
  }
  return tokens.length > 0 ? tokens : null;
}

/** The value at `tokens` in `root`; `found` false when the path leads nowhere. */
export function readPath(root: unknown, tokens: readonly PathToken[]): { found: boolean; value: unknown } {
  return walk(root, tokens, 0);
}

function walk(current: unknown, tokens: readonly PathToken[], at: number): { found: boolean; value: unknown } {
  if (at === tokens.length) return { found: current !== undefined, value: current };
  const token = tokens[at];
  if ('index' in token) {
    if (!Array.isArray(current) || token.index >= current.length) return { found: false, value: undefined };
    return walk(current[token.index], tokens, at + 1);
  }
  if (current === null || typeof current !== 'object' || Array.isArray(current)) return { found: false, value: undefined };
  const record = current as Record<string, unknown>;
  // longest run of dotted names first: `values.env.temperature` finds the key `env.temperature`
  let end = at + 1;
  while (end < tokens.length && 'name' in tokens[end] && (tokens[end] as { dotted: boolean }).dotted) end += 1;
  for (let stop = end; stop > at; stop -= 1) {
    const key = tokens
      .slice(at, stop)
      .map((t) => (t as { name: string }).name)
      .join('.');
    if (hasOwn.call(record, key)) {
      const next = walk(record[key], tokens, stop);
      if (next.found || stop === at + 1) return next;
    }
  }
  return { found: false, value: undefined };
}

/** Parsed paths by text: configurations repeat the same few paths on every execution. */
const parsed = new Map<string, PathToken[] | null>();
const MAX_PARSED_PATHS = 10000;

/** `readPath` for a path given as text; an unparsable path leads nowhere. */
export function readPathText(root: unknown, path: string): { found: boolean; value: unknown } {
  let tokens = parsed.get(path);
  if (tokens === undefined) {
    tokens = parsePath(path);
    if (parsed.size >= MAX_PARSED_PATHS) parsed.clear();
    parsed.set(path, tokens);
  }
  return tokens ? readPath(root, tokens) : { found: false, value: undefined };
}

/** Deep JSON equality: object key order does not matter, array order does. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i += 1) if (!jsonEqual(a[i], other[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const leftKeys = Object.keys(left).filter((k) => left[k] !== undefined);
  const rightKeys = Object.keys(right).filter((k) => right[k] !== undefined);
  if (leftKeys.length !== rightKeys.length) return false;
  for (const key of leftKeys) {
    if (!hasOwn.call(right, key) || !jsonEqual(left[key], right[key])) return false;
  }
  return true;
}
