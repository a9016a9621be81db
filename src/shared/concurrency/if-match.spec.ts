import { ConflictError, ValidationFailedError } from '../errors/domain-error';
import { assertLockVersion, parseIfMatch } from './if-match';

describe('parseIfMatch', () => {
  it.each([
    ['"1"', 1],
    ['"42"', 42],
    ['W/"7"', 7],
  ])('accepts %s', (header, expected) => {
    expect(parseIfMatch(header)).toBe(expected);
  });

  it.each([undefined, ''])('refuses a missing header (%p) as required', (header) => {
    expect(() => parseIfMatch(header)).toThrow(ValidationFailedError);
    try {
      parseIfMatch(header);
    } catch (error) {
      expect((error as ValidationFailedError).fields[0]).toMatchObject({ path: 'headers.if-match', rule: 'required' });
    }
  });

  it.each(['1', '"0"', '"01"', '"-1"', '*', 'w/"1"', '"1", "2"', '"abc"', '"99999999999999999999"', ['"1"']])(
    'refuses %p as a pattern violation',
    (header) => {
      try {
        parseIfMatch(header);
        throw new Error('accepted');
      } catch (error) {
        expect((error as ValidationFailedError).fields[0]).toMatchObject({ path: 'headers.if-match', rule: 'pattern' });
      }
    },
  );
});

describe('assertLockVersion', () => {
  it('passes on a match and names the current version on a mismatch', () => {
    expect(() => assertLockVersion(3, 3)).not.toThrow();
    try {
      assertLockVersion(4, 3);
    } catch (error) {
      expect(error).toBeInstanceOf(ConflictError);
      expect((error as ConflictError).details).toEqual({ reason: 'lock_version_mismatch', currentLockVersion: 4 });
    }
  });
});
