import { plainArrayLiteral } from './array-literal';

describe('plainArrayLiteral', () => {
  it('joins uuids, instants and numbers unquoted, null as NULL', () => {
    expect(plainArrayLiteral(['0190a4b2-7c1e-7000-8000-000000000001', null, '2026-11-28T19:30:00.123Z'])).toBe(
      '{0190a4b2-7c1e-7000-8000-000000000001,NULL,2026-11-28T19:30:00.123Z}',
    );
    expect(plainArrayLiteral([1, -2.5, 1e21, 0, null])).toBe('{1,-2.5,1e+21,0,NULL}');
    expect(plainArrayLiteral([])).toBe('{}');
  });

  it.each([[''], ['a,b'], ['a b'], ['"x"'], ['{x}'], ['a\\b'], ['null'], ['NULL'], ['NuLl']])('refuses %j, which would change the literal', (value) => {
    expect(() => plainArrayLiteral([value])).toThrow(TypeError);
  });

  it('refuses non-finite numbers', () => {
    expect(() => plainArrayLiteral([Number.NaN])).toThrow(TypeError);
    expect(() => plainArrayLiteral([Number.POSITIVE_INFINITY])).toThrow(TypeError);
  });
});
