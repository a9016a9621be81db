import { resolveCorrelationId } from './correlation-id';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('resolveCorrelationId', () => {
  it.each([
    ['a UUID', '0b6f3c1e-2d4a-4f8b-9c7d-1a2b3c4d5e6f'],
    ['letters and digits', 'abcXYZ0189'],
    ['dots, underscores, colons and dashes', 'edge.gw-1:req_42'],
    ['a single character', 'a'],
    ['exactly 128 characters', 'x'.repeat(128)],
  ])("adopts the caller's id made of %s", (_case, header) => {
    expect(resolveCorrelationId(header)).toBe(header);
  });

  it.each([
    ['an empty string', ''],
    ['129 characters', 'x'.repeat(129)],
    ['a space', 'abc def'],
    ['a trailing newline', 'abc\n'],
    ['a header injection attempt', 'abc\r\nSet-Cookie: a=b'],
    ['a slash', 'tenant/123'],
    ['markup', '<script>'],
    ['non-ASCII letters', 'añb'],
  ])('replaces an id containing %s with a fresh UUID v4', (_case, header) => {
    const id = resolveCorrelationId(header);
    expect(id).toMatch(UUID_V4);
    expect(id).not.toBe(header);
  });

  it.each([
    ['a missing header', undefined],
    ['null', null],
    ['a number', 42],
    ['a repeated header (array)', ['abc', 'def']],
    ['a one-element array', ['abc']],
  ])('replaces %s with a fresh UUID v4', (_case, header) => {
    expect(resolveCorrelationId(header)).toMatch(UUID_V4);
  });

  it('generates a different id each time', () => {
    expect(resolveCorrelationId(undefined)).not.toBe(resolveCorrelationId(undefined));
  });
});
