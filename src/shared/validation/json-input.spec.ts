import { exceedsJsonDepth, inputViolations, MAX_JSON_DEPTH } from './json-input';
import { textLength } from './text-length';
import { instantOf, utcDateTimeOf } from './time-window';
import { EMAIL_PATTERN } from './email';

describe('request input rules', () => {
  it('measures JSON depth outside strings only, escapes included', () => {
    expect(exceedsJsonDepth('['.repeat(MAX_JSON_DEPTH) + ']'.repeat(MAX_JSON_DEPTH))).toBe(false);
    expect(exceedsJsonDepth('['.repeat(MAX_JSON_DEPTH + 1))).toBe(true);
    expect(exceedsJsonDepth(`{"a":"${'['.repeat(200)}"}`)).toBe(false);
    expect(exceedsJsonDepth(`{"a":"\\"${'{'.repeat(200)}"}`)).toBe(false);
    expect(exceedsJsonDepth(`["\\\\",${'['.repeat(100)}`)).toBe(true);
  });

  it('names every NUL, lone surrogate and prototype-member name with its path', () => {
    const value = JSON.parse('{"a":"x\\u0000","b":["ok","\\ud800"],"m":{"toString":"v","k\\u0000":"v","__proto__":"p"},"e":"\\ud83d\\ude80","l":[[{"ok":1},{"x":"\\u0000"}]]}');
    expect(inputViolations(value, 'body').map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: 'body.a', rule: 'format' },
      { path: 'body.b[1]', rule: 'format' },
      { path: 'body.m.toString', rule: 'unknown_property' },
      { path: 'body.m.k\u0000', rule: 'format' },
      { path: 'body.m.__proto__', rule: 'unknown_property' },
      { path: 'body.l[0][1].x', rule: 'format' },
    ]);
  });

  it('counts code points as PostgreSQL does', () => {
    expect(textLength('a\uFE0F')).toBe(2);
    expect(textLength('\u{1F680}')).toBe(1);
    expect(textLength('é')).toBe(1);
  });

  it.each([
    ['2026-01-02T03:04:05Z', true],
    ['2026-01-02t03:04:05.123456789+05:30', true],
    ['2024-02-29T00:00:00-00:00', true],
    ['2026-W01-1', false],
    ['2026-001', false],
    ['2026-01-02', false],
    ['2026-01-02T03:04:05', false],
    ['2026-01-02 03:04:05Z', false],
    ['2025-02-29T00:00:00Z', false],
    ['2026-01-02T24:00:00Z', false],
    ['2026-01-02T03:04:60Z', false],
    ['0000-01-01T00:00:00Z', false],
    ['2026-01-02T03:04:05+24:00', false],
    ['2026-01-01T00:00:00+23:59', true],
    ['2026-01-01T00:00:00-23:59', true],
    ['0001-01-01T00:00:00Z', true],
    ['9999-12-31T23:59:59.999Z', true],
    // instants an offset moves out of years 0001..9999: no answer could write them back
    ['0001-01-01T00:00:00+00:01', false],
    ['9999-12-31T23:59:59-00:01', false],
  ])('reads %s as an RFC 3339 date-time: %s', (value, ok) => {
    expect(instantOf(value) !== null).toBe(ok);
  });

  it.each([
    ['2026-01-01T00:00:00-23:59', '2026-01-01T23:59:00Z'],
    ['2026-01-01t00:00:00.123456+23:59', '2025-12-31T00:01:00.123456Z'],
    ['0001-01-01T23:59:00.5+23:59', '0001-01-01T00:00:00.5Z'],
    ['9999-12-31T23:59:59.999999z', '9999-12-31T23:59:59.999999Z'],
  ])('writes %s in UTC for the database as %s', (value, utc) => {
    expect(utcDateTimeOf(value)).toBe(utc);
  });

  it.each([
    ['name@example.com', true],
    ['first.last+tag@sub.example.co', true],
    ['"a b"@x.test', false],
    ['a b@x.test', false],
    ['admin@localhost', true],
    ['a@-x.test', false],
    ['@x.test', false],
  ])('reads %s as an e-mail address: %s', (value, ok) => {
    expect(EMAIL_PATTERN.test(value)).toBe(ok);
  });
});
