import type { ExecutionContext } from '@nestjs/common';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { ConflictError, ValidationFailedError } from '../errors/domain-error';
import { assertLockVersion, IfMatch, parseIfMatch } from './if-match';

describe('parseIfMatch', () => {
  it.each([
    ['"1"', 1],
    ['"42"', 42],
    ['W/"7"', 7],
  ])('accepts %s', (header, expected) => {
    expect(parseIfMatch(header)).toBe(expected);
  });

  it.each([undefined, ''])('refuses a missing header (%p) as required', (header) => {
    expect(() => parseIfMatch(header)).toThrow(expect.objectContaining({ fields: [expect.objectContaining({ path: 'headers.if-match', rule: 'required' })] }));
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
    expect(() => assertLockVersion(4, 3)).toThrow(ConflictError);
    expect(() => assertLockVersion(4, 3)).toThrow(expect.objectContaining({ details: { reason: 'lock_version_mismatch', currentLockVersion: 4 } }));
  });
});

describe('@IfMatch()', () => {
  // The factory Nest runs for the parameter: what the decorator reads from a request.
  const factoryOf = (decorator: ParameterDecorator): ((data: unknown, context: ExecutionContext) => unknown) => {
    class Probe {
      handle(_value: number): void {}
    }
    decorator(Probe.prototype, 'handle', 0);
    const metadata = Reflect.getMetadata(ROUTE_ARGS_METADATA, Probe, 'handle') as Record<string, { factory: (data: unknown, context: ExecutionContext) => unknown }>;
    return Object.values(metadata)[0]!.factory;
  };
  const contextOf = (params: Record<string, string>, headers: Record<string, string>) =>
    ({ switchToHttp: () => ({ getRequest: () => ({ params, headers }) }) }) as unknown as ExecutionContext;
  const ruleOf = (work: () => unknown) => {
    try {
      work();
    } catch (error) {
      return (error as ValidationFailedError).fields[0];
    }
    return undefined;
  };

  it('reports a malformed path id before a missing If-Match', () => {
    const factory = factoryOf(IfMatch());
    expect(ruleOf(() => factory(undefined, contextOf({ deviceTypeId: 'nope' }, {})))).toEqual(
      expect.objectContaining({ path: 'params.deviceTypeId', rule: 'format' }),
    );
    expect(ruleOf(() => factory(undefined, contextOf({ deviceTypeId: '8b0c3f8e-4c8e-4a57-9a59-0f5b8e2f1a11' }, {})))).toEqual(
      expect.objectContaining({ path: 'headers.if-match', rule: 'required' }),
    );
    expect(factory(undefined, contextOf({ deviceTypeId: '8b0c3f8e-4c8e-4a57-9a59-0f5b8e2f1a11' }, { 'if-match': 'W/"4"' }))).toBe(4);
  });

  it('runs the route’s own path checks before If-Match', () => {
    const factory = factoryOf(
      IfMatch(() => {
        throw ValidationFailedError.single('params.key', 'pattern', 'bad key');
      }),
    );
    expect(ruleOf(() => factory(undefined, contextOf({}, {})))).toEqual(expect.objectContaining({ path: 'params.key', rule: 'pattern' }));
  });
});
