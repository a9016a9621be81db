import type { ExecutionResult, JsonValue } from './engine-types';
import { jsonEqual, readPathText } from './message-path';

export interface Assertion {
  path: string;
  expected: JsonValue;
}

export interface AssertionResult {
  path: string;
  expected: JsonValue;
  /** The value at `path`; null when the path leads nowhere (which equals no expectation, not even null). */
  actual: JsonValue;
  passed: boolean;
}

/**
 * Fixture assertions against an execution result: `path` (dots and `[n]`) into {status, current, timeseries,
 * actions, error}, compared by deep JSON equality. Without assertions a result passes unless it failed.
 */
export function evaluateAssertions(result: Pick<ExecutionResult, 'status' | 'current' | 'timeseries' | 'actions' | 'error'>, assertions: readonly Assertion[]): { passed: boolean; assertions: AssertionResult[] } {
  if (assertions.length === 0) return { passed: result.status !== 'failed', assertions: [] };
  const root = { status: result.status, current: result.current, timeseries: result.timeseries, actions: result.actions, error: result.error };
  const results = assertions.map(({ path, expected }) => {
    const found = readPathText(root, path);
    const actual = found.found ? (found.value as JsonValue) : null;
    return { path, expected, actual, passed: found.found && jsonEqual(actual, expected) };
  });
  return { passed: results.every((r) => r.passed), assertions: results };
}
