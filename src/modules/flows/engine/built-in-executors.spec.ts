import { DECODE_BINARY_TYPES, FILTER_OPERATORS } from '../../blocks/domain/built-in-blocks';
import { decodeBinary, emailAction, filter, filterMatches, mapField, roundTo, scale } from './built-in-executors';
import type { FlowMessage, JsonObject, JsonValue } from './engine-types';

const message = (payload: JsonValue, values: JsonObject = {}): FlowMessage => ({ payload, values, input: { deviceId: 'd-1', connectionData: { rssi: -97, fPort: 2 } } });
const valuesOf = (outcome: ReturnType<typeof decodeBinary>) => (outcome.kind === 'emitted' ? outcome.message.values : outcome);

describe('decode-binary', () => {
  const FRAME = [0xff, 0xfe, 0x01, 0x02, 0x03, 0x04, 0x41, 0x20, 0x00, 0x00, 0x20, 0x41];
  it.each([
    ['uint8', 0, 255],
    ['int8', 0, -1],
    ['uint16be', 0, 0xfffe],
    ['uint16le', 0, 0xfeff],
    ['int16be', 0, -2],
    ['int16le', 0, -257],
    ['uint32be', 2, 0x01020304],
    ['uint32le', 2, 0x04030201],
    ['int32be', 0, -130814],
    ['int32le', 2, 0x04030201],
    ['float32be', 6, 10],
    ['float32le', 8, 10],
  ])('reads %s at offset %i', (type, offset, expected) => {
    expect(valuesOf(decodeBinary(message(FRAME), { reads: [{ offset, type, fieldKey: 'v' }] }, 'n'))).toEqual({ v: expected });
  });

  it('covers every type the block declares', () => {
    for (const type of DECODE_BINARY_TYPES) expect(decodeBinary(message([0, 0, 0, 0]), { reads: [{ offset: 0, type, fieldKey: 'v' }] }, 'n').kind).toBe('emitted');
  });

  it('keeps existing values and does not change the incoming message', () => {
    const incoming = message([1, 2], { a: 1 });
    expect(valuesOf(decodeBinary(incoming, { reads: [{ offset: 1, type: 'uint8', fieldKey: 'b' }] }, 'n'))).toEqual({ a: 1, b: 2 });
    expect(incoming.values).toEqual({ a: 1 });
  });

  it.each([
    ['a read past the end', [1, 2, 3], { offset: 0, type: 'uint32be' }, 'needs 4 bytes; the payload has 3'],
    ['an offset past the end', [1], { offset: 1, type: 'uint8' }, 'needs 2 bytes'],
    ['a string payload', 'AQI=', { offset: 0, type: 'uint8' }, 'not a byte array'],
    ['a non-byte element', [1, 256], { offset: 0, type: 'uint8' }, 'not a byte array'],
  ])('fails %s with decode_error', (_label, payload, read, text) => {
    const outcome = decodeBinary(message(payload as JsonValue), { reads: [{ ...read, fieldKey: 'v' }] }, 'n');
    expect(outcome).toMatchObject({ kind: 'failed', error: { code: 'decode_error' } });
    expect(outcome.kind === 'failed' && outcome.error.message).toContain(text);
  });
});

describe('map-field', () => {
  it('copies values from payload, input and values paths with dots and indexes; a missing path leaves the field unset', () => {
    const outcome = mapField(
      message({ a: [{ b: 7 }], 'x.y': 'dotted' }, { old: 1 }),
      {
        mappings: [
          { source: 'payload.a[0].b', fieldKey: 'b' },
          { source: 'input.connectionData.rssi', fieldKey: 'rssi' },
          { source: 'values.old', fieldKey: 'copy' },
          { source: 'payload.x.y', fieldKey: 'dotted' },
          { source: 'payload.a[3].b', fieldKey: 'missing' },
          { source: 'payload.a.length', fieldKey: 'length' },
          { source: 'payload.__proto__', fieldKey: 'proto' },
        ],
      },
      'n',
    );
    expect(valuesOf(outcome)).toEqual({ old: 1, b: 7, rssi: -97, copy: 1, dotted: 'dotted' });
  });

  it('copies null and whole objects as they are', () => {
    expect(valuesOf(mapField(message({ n: null, o: { k: [1] } }), { mappings: [{ source: 'payload.n', fieldKey: 'n' }, { source: 'payload.o', fieldKey: 'o' }] }, 'n'))).toEqual({ n: null, o: { k: [1] } });
  });
});

describe('scale', () => {
  it.each([
    [{ multiply: 0.1 }, 235, 23.5],
    [{ add: -40 }, 10, -30],
    [{ multiply: 2, add: 1 }, 3, 7],
    [{}, 5, 5],
    [{ multiply: 0.01, decimals: 1 }, 2345, 23.5],
    [{ multiply: 1, decimals: 2 }, 1.005, 1.01],
    [{ decimals: 0 }, -2.5, -3],
    [{ decimals: 0 }, -0.4, 0],
  ])('%j on %p gives %p', (config, value, expected) => {
    expect(valuesOf(scale(message(null, { v: value }), { fieldKey: 'v', ...config }, 'n'))).toEqual({ v: expected });
  });

  it('passes an absent or null value unchanged', () => {
    expect(valuesOf(scale(message(null, { other: 1 }), { fieldKey: 'v', multiply: 2 }, 'n'))).toEqual({ other: 1 });
    expect(valuesOf(scale(message(null, { v: null }), { fieldKey: 'v', multiply: 2 }, 'n'))).toEqual({ v: null });
  });

  it.each([['a string', '5'], ['a boolean', true], ['an object', { a: 1 }]])('fails on %s with type_mismatch', (_label, value) => {
    expect(scale(message(null, { v: value as JsonValue }), { fieldKey: 'v' }, 'n')).toMatchObject({ kind: 'failed', error: { code: 'type_mismatch' } });
  });

  it('rounds half away from zero', () => {
    expect([roundTo(0.125, 2), roundTo(-0.125, 2), roundTo(2.675, 2), roundTo(123.456, 0)]).toEqual([0.13, -0.13, 2.68, 123]);
  });
});

describe('filter', () => {
  const at = (value: unknown) => ({ found: value !== undefined, value });
  it.each([
    ['eq', 5, 5, true],
    ['eq', { a: [1] }, { a: [1] }, true],
    ['eq', 5, '5', false],
    ['eq', undefined, null, false],
    ['ne', 5, 6, true],
    ['ne', 5, 5, false],
    ['ne', undefined, 5, true],
    ['gt', 6, 5, true],
    ['gt', 5, 5, false],
    ['gt', 'b', 'a', true],
    ['gt', '6', 5, false],
    ['gte', 5, 5, true],
    ['gte', 4, 5, false],
    ['lt', 4, 5, true],
    ['lt', 5, 5, false],
    ['lt', undefined, 5, false],
    ['lte', 5, 5, true],
    ['lte', 6, 5, false],
    ['exists', 0, undefined, true],
    ['exists', null, undefined, false],
    ['exists', undefined, undefined, false],
    ['not_exists', undefined, undefined, true],
    ['not_exists', null, undefined, true],
    ['not_exists', false, undefined, false],
    ['in', 2, [1, 2, 3], true],
    ['in', { a: 1 }, [{ a: 1 }], true],
    ['in', 4, [1, 2, 3], false],
    ['in', undefined, [null], false],
  ])('%s: %j against %j is %s', (operator, actual, expected, passes) => {
    expect(filterMatches(operator, at(actual), expected)).toBe(passes);
  });

  it('covers every operator the block declares', () => {
    const tested = new Set(['eq', 'ne', 'gt', 'gte', 'lt', 'lte', 'exists', 'not_exists', 'in']);
    expect([...FILTER_OPERATORS].sort()).toEqual([...tested].sort());
  });

  it('emits the unchanged message on pass or reject', () => {
    const incoming = message({ t: 3 }, { v: 1 });
    expect(filter(incoming, { path: 'payload.t', operator: 'gte', value: 3 }, 'n')).toEqual({ kind: 'emitted', port: 'pass', message: incoming });
    expect(filter(incoming, { path: 'values.v', operator: 'in', value: [2, 3] }, 'n')).toEqual({ kind: 'emitted', port: 'reject', message: incoming });
    expect(filter(incoming, { path: 'input.connectionData.fPort', operator: 'eq', value: 2 }, 'n')).toMatchObject({ port: 'pass' });
  });
});

describe('email-action', () => {
  it('requests the e-mail as data', () => {
    const incoming = message(null);
    expect(emailAction(incoming, { emailTemplateId: 'tpl' }, 'mail')).toEqual({ kind: 'emitted', port: null, message: incoming, action: { nodeId: 'mail', emailTemplateId: 'tpl' } });
  });
});
