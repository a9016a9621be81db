import type { InvocationErrorCode, InvocationOutcome, JsonObject, JsonValue, ScriptOutput } from './sandbox-contract';
import { SANDBOX_OUTPUT_LIMITS } from '../sandbox-limits';

/*
 * Host side of the envelope protocol of context-bootstrap.ts. The envelope is a string a tenant could in
 * principle have shaped, so nothing in it is trusted: sizes are checked before parsing, the JSON is parsed with
 * `__proto__` refused, and the result must have the exact shape of the script contract.
 */

const ISOLATE_CODES: ReadonlySet<string> = new Set(['script_error', 'memory_limit', 'invalid_output', 'output_too_large']);
/** Keys that would reach a prototype when `values` is merged into the flow's accumulated values. */
const FORBIDDEN_VALUE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);
const { maxResultBytes, maxLogLines, maxLogBytes, maxMessageChars } = SANDBOX_OUTPUT_LIMITS;
/** An envelope is result + logs + a little framing; anything longer did not come from the bootstrap. */
const MAX_ENVELOPE_CHARS = maxResultBytes + 6 * maxLogBytes + maxMessageChars + 1024;

export type Envelope =
  /** `line`/`column`: where in the script a failure happened (1-based), when the stack told. */
  | { kind: 'done'; outcome: InvocationOutcome; line?: number; column?: number }
  /** transform returned a thenable: its outcome is collected by a second call. */
  | { kind: 'pending'; id: string }
  /** The thenable had not settled once its promise jobs ran out: with no timers or I/O, it never will. */
  | { kind: 'never_settled'; logs: string[]; logsTruncated: boolean };

/** A failed outcome without logs, for limits enforced from the host (timeout, memory). */
export function failed(code: InvocationErrorCode, message: string, logs: string[] = [], logsTruncated = false): InvocationOutcome {
  return { ok: false, error: { code, message }, logs, logsTruncated };
}

export function decodeEnvelope(envelope: unknown): Envelope {
  if (typeof envelope !== 'string' || envelope.length === 0) return done(failed('invalid_output', 'the sandbox returned no result'));
  if (envelope.length > MAX_ENVELOPE_CHARS) return done(failed('output_too_large', `the result exceeds ${maxResultBytes} bytes`));
  const kind = envelope[0];
  if (kind === 'P') return { kind: 'pending', id: envelope.slice(1) };
  if (kind === 'N') {
    const logs = decodeLogs(envelope.slice(1));
    return { kind: 'never_settled', logs: logs?.logs ?? [], logsTruncated: logs?.truncated ?? true };
  }
  if (kind === 'R') return decodeSuccess(envelope);
  if (kind === 'E') return decodeFailure(envelope);
  return done(failed('invalid_output', 'the sandbox returned an unreadable result'));
}

function done(outcome: InvocationOutcome): Envelope {
  return { kind: 'done', outcome };
}

function decodeSuccess(envelope: string): Envelope {
  const newline = envelope.indexOf('\n');
  const logs = newline > 0 ? decodeLogs(envelope.slice(1, newline)) : null;
  if (!logs) return done(failed('invalid_output', 'the sandbox returned unreadable logs'));
  const json = envelope.slice(newline + 1);
  if (json === '') return done({ ok: true, result: null, logs: logs.logs, logsTruncated: logs.truncated });
  if (Buffer.byteLength(json, 'utf8') > maxResultBytes) {
    return done(failed('output_too_large', `the result exceeds ${maxResultBytes} bytes`, logs.logs, logs.truncated));
  }
  const checked = parseOutput(json);
  if (typeof checked === 'string') return done(failed('invalid_output', checked, logs.logs, logs.truncated));
  return done({ ok: true, result: checked, logs: logs.logs, logsTruncated: logs.truncated });
}

function decodeFailure(envelope: string): Envelope {
  const [head, where, logPart, ...rest] = envelope.slice(1).split('\n');
  const code = head ?? '';
  const logs = logPart === undefined ? null : decodeLogs(logPart);
  if (!ISOLATE_CODES.has(code) || !logs) return done(failed('invalid_output', 'the sandbox returned an unreadable error'));
  const message = rest.join('\n').slice(0, maxMessageChars);
  const position = /^(\d+):(\d+)$/.exec(where ?? '');
  const outcome = failed(code as InvocationErrorCode, message, logs.logs, logs.truncated);
  return position ? { kind: 'done', outcome, line: Number(position[1]), column: Number(position[2]) } : done(outcome);
}

function decodeLogs(part: string): { logs: string[]; truncated: boolean } | null {
  const flag = part[0];
  if (flag !== '0' && flag !== '1') return null;
  let logs: unknown;
  try {
    logs = JSON.parse(part.slice(1));
  } catch {
    return null;
  }
  if (!Array.isArray(logs) || logs.length > maxLogLines || !logs.every((line) => typeof line === 'string')) return null;
  const bytes = (logs as string[]).reduce((sum, line) => sum + Buffer.byteLength(line, 'utf8'), 0);
  if (bytes > maxLogBytes) return null;
  return { logs: logs as string[], truncated: flag === '1' };
}

class RejectedKey extends Error {}

/**
 * The contract shape of a non-null result, or the reason it is not one. `__proto__` is refused at any depth: JSON.parse
 * makes it an own property, but any later `Object.assign` or spread-and-set would turn it into a prototype.
 */
export function parseOutput(json: string): ScriptOutput | string {
  let value: unknown;
  try {
    // The reviver costs a visit per node; only an escaped or literal __proto__ key can need it.
    value = json.includes('__proto__') || json.includes('\\')
      ? JSON.parse(json, (key, nested: unknown) => {
          if (key === '__proto__') throw new RejectedKey();
          return nested;
        })
      : JSON.parse(json);
  } catch (error) {
    if (error instanceof RejectedKey) return 'the result contains a "__proto__" key';
    return 'the result is not JSON';
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    return `transform must return an object with payload and/or values, null or undefined; got ${Array.isArray(value) ? 'an array' : typeof value}`;
  }
  const output = value as Record<string, JsonValue>;
  const unknown = Object.keys(output).filter((key) => key !== 'payload' && key !== 'values');
  if (unknown.length > 0) return `unknown result properties: ${unknown.slice(0, 5).join(', ')} (allowed: payload, values)`;
  if ('values' in output) {
    const values = output.values;
    if (typeof values !== 'object' || values === null || Array.isArray(values)) return 'values must be an object';
    const forbidden = Object.keys(values).find((key) => FORBIDDEN_VALUE_KEYS.has(key));
    if (forbidden) return `values must not have a "${forbidden}" key`;
  }
  return output as { payload?: JsonValue; values?: JsonObject };
}
