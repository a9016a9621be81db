import { decodeEnvelope, parseOutput } from './script-output';

/*
 * The host's checks of what comes out of an isolate, fed with envelopes the bootstrap would never produce: the
 * host must hold even if a script managed to shape the string.
 */

function outcomeOf(envelope: unknown) {
  const decoded = decodeEnvelope(envelope);
  if (decoded.kind !== 'done') throw new Error(`not done: ${decoded.kind}`);
  return decoded.outcome;
}

describe('decodeEnvelope', () => {
  it('reads a success with logs and a result', () => {
    expect(outcomeOf('R0["a","b"]\n{"values":{"x":1}}')).toEqual({ ok: true, result: { values: { x: 1 } }, logs: ['a', 'b'], logsTruncated: false });
  });

  it('reads a filtered success and a truncation flag', () => {
    expect(outcomeOf('R1[]\n')).toEqual({ ok: true, result: null, logs: [], logsTruncated: true });
  });

  it('reads a failure with its position', () => {
    expect(decodeEnvelope('Escript_error\n3:7\n0["l"]\nTypeError: x\nmore')).toEqual({
      kind: 'done',
      outcome: { ok: false, error: { code: 'script_error', message: 'TypeError: x\nmore' }, logs: ['l'], logsTruncated: false },
      line: 3,
      column: 7,
    });
  });

  it('reads pending and never-settled calls', () => {
    expect(decodeEnvelope('P12')).toEqual({ kind: 'pending', id: '12' });
    expect(decodeEnvelope('N0["waiting"]')).toEqual({ kind: 'never_settled', logs: ['waiting'], logsTruncated: false });
  });

  it.each([
    ['not a string', 42],
    ['empty', ''],
    ['an unknown kind', 'X'],
    ['logs that are not an array of strings', 'R0[1]\n{}'],
    ['more than 100 log lines', `R0${JSON.stringify(Array.from({ length: 101 }, () => 'x'))}\n`],
    ['more than 8 KiB of logs', `R0${JSON.stringify(['€'.repeat(3000)])}\n`],
    ['a code the isolate may not produce', 'Etimeout\n\n0[]\nforged'],
    ['no logs part', 'R'],
  ])('refuses %s as invalid_output', (_case, envelope) => {
    expect(outcomeOf(envelope)).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
  });

  it('refuses an oversized envelope before parsing it', () => {
    expect(outcomeOf(`R0[]\n{"payload":"${'x'.repeat(200 * 1024)}"}`)).toMatchObject({ ok: false, error: { code: 'output_too_large' } });
  });

  it('counts the result in UTF-8 bytes', () => {
    expect(outcomeOf(`R0[]\n{"payload":"${'€'.repeat(22000)}"}`)).toMatchObject({ ok: false, error: { code: 'output_too_large' } });
  });
});

describe('parseOutput', () => {
  it.each([
    ['a literal __proto__', '{"payload":{"__proto__":{"polluted":true}}}'],
    ['an escaped __proto__', '{"values":{"\\u005f_proto__":{"polluted":true}}}'],
    ['a deep __proto__', '{"payload":[[{"a":{"__proto__":1}}]]}'],
  ])('refuses %s anywhere', (_case, json) => {
    expect(parseOutput(json)).toBe('the result contains a "__proto__" key');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('keeps "__proto__" inside string values', () => {
    expect(parseOutput('{"payload":"__proto__ \\\\ text"}')).toEqual({ payload: '__proto__ \\ text' });
  });

  it.each(['constructor', 'prototype'])('refuses a values key %s', (key) => {
    expect(parseOutput(`{"values":{"${key}":{"prototype":{"x":1}}}}`)).toBe(`values must not have a "${key}" key`);
  });
});
