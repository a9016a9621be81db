import { evaluateAssertions } from './assertions';
import type { ExecutionResult } from './engine-types';
import { jsonEqual, parsePath, readPathText } from './message-path';

const result = (extra: Partial<ExecutionResult> = {}): ExecutionResult => ({
  status: 'succeeded',
  flowVersionId: 'fv',
  durationMs: 1,
  current: { temperature: 21.5, 'env.humidity': 40, nested: { list: [1, { x: true }] } },
  timeseries: { temperature: 21.5 },
  actions: [{ nodeId: 'mail', emailTemplateId: 'tpl-1' }],
  error: null,
  trace: [],
  ...extra,
});

describe('paths', () => {
  it.each([
    ['a', [{ name: 'a', dotted: false }]],
    ['a.b[2].c', [{ name: 'a', dotted: false }, { name: 'b', dotted: true }, { index: 2 }, { name: 'c', dotted: false }]],
    ['a[0][1]', [{ name: 'a', dotted: false }, { index: 0 }, { index: 1 }]],
  ])('parses %s', (path, tokens) => {
    expect(parsePath(path)).toEqual(tokens);
  });

  it.each(['', '.a', 'a.', 'a..b', 'a.[0]', 'a[', 'a[x]', 'a[-1]', 'a[0]b'])('refuses %j', (path) => {
    expect(parsePath(path)).toBeNull();
  });

  it('reads own properties only, and prefers the longest dotted key', () => {
    expect(readPathText({ a: {} }, 'a.constructor')).toEqual({ found: false, value: undefined });
    expect(readPathText({ 'a.b': 1, a: { b: 2 } }, 'a.b').value).toBe(1);
    expect(readPathText({ 'a.b': { x: 1 }, a: { b: { c: 3 } } }, 'a.b.c').value).toBe(3);
    expect(readPathText([1], 'a')).toEqual({ found: false, value: undefined });
  });

  it('compares JSON deeply', () => {
    expect(jsonEqual({ a: 1, b: [1, { c: null }] }, { b: [1, { c: null }], a: 1 })).toBe(true);
    expect(jsonEqual([1, 2], [2, 1])).toBe(false);
    expect(jsonEqual({ a: 1 }, { a: 1, b: 2 })).toBe(false);
    expect(jsonEqual({}, [])).toBe(false);
    expect(jsonEqual(1, '1')).toBe(false);
  });
});

describe('evaluateAssertions', () => {
  it('checks each path with deep equality and reports the actual values', () => {
    const outcome = evaluateAssertions(result(), [
      { path: 'status', expected: 'succeeded' },
      { path: 'current.temperature', expected: 21.5 },
      { path: 'current.env.humidity', expected: 40 },
      { path: 'current.nested.list[1]', expected: { x: true } },
      { path: 'actions[0].emailTemplateId', expected: 'tpl-1' },
      { path: 'actions', expected: [{ emailTemplateId: 'tpl-1', nodeId: 'mail' }] },
      { path: 'error', expected: null },
      { path: 'timeseries', expected: { temperature: 21.5 } },
    ]);
    expect(outcome.passed).toBe(true);
    expect(outcome.assertions[3]).toEqual({ path: 'current.nested.list[1]', expected: { x: true }, actual: { x: true }, passed: true });
  });

  it('fails a differing value, a missing path (even against null) and a path outside the result', () => {
    const outcome = evaluateAssertions(result(), [
      { path: 'current.temperature', expected: 21 },
      { path: 'current.pressure', expected: null },
      { path: 'trace', expected: [] },
      { path: 'flowVersionId', expected: 'fv' },
      { path: 'status', expected: 'succeeded' },
    ]);
    expect(outcome.passed).toBe(false);
    expect(outcome.assertions.map((a) => [a.actual, a.passed])).toEqual([
      [21.5, false],
      [null, false],
      [null, false],
      [null, false],
      ['succeeded', true],
    ]);
  });

  it('reads the error of a failed result', () => {
    const failed = result({ status: 'failed', error: { nodeId: 'scale', code: 'type_mismatch', message: 'bad' } });
    expect(evaluateAssertions(failed, [{ path: 'error.code', expected: 'type_mismatch' }]).passed).toBe(true);
  });

  it('without assertions passes iff the status is not failed', () => {
    expect(evaluateAssertions(result(), [])).toEqual({ passed: true, assertions: [] });
    expect(evaluateAssertions(result({ status: 'filtered' }), []).passed).toBe(true);
    expect(evaluateAssertions(result({ status: 'failed' }), []).passed).toBe(false);
  });
});
