import { resolveParameters } from './parameter-resolution';

describe('resolveParameters', () => {
  const declarations = [
    { key: 'factor', type: 'number' as const, defaultValue: 1 },
    { key: 'label', type: 'string' as const, defaultValue: null },
    { key: 'extra', type: 'json' as const, defaultValue: { a: 1 } },
  ];

  it('takes device over device type over tenant over the default', () => {
    const overrides = [
      { level: 'tenant' as const, key: 'factor', value: 2 },
      { level: 'device_type' as const, key: 'factor', value: 3 },
      { level: 'device' as const, key: 'factor', value: 4 },
      { level: 'tenant' as const, key: 'label', value: 'tenant' },
    ];
    expect(resolveParameters(declarations, overrides)).toEqual([
      { key: 'factor', type: 'number', value: 4, source: 'device' },
      { key: 'label', type: 'string', value: 'tenant', source: 'tenant' },
      { key: 'extra', type: 'json', value: { a: 1 }, source: 'default' },
    ]);
  });

  it('skips an override of the wrong type and falls through to the next level', () => {
    const overrides = [
      { level: 'device' as const, key: 'factor', value: 'ten' },
      { level: 'device_type' as const, key: 'factor', value: Number.NaN },
      { level: 'tenant' as const, key: 'factor', value: 5 },
      { level: 'device' as const, key: 'label', value: 7 },
    ];
    expect(resolveParameters(declarations, overrides)).toEqual([
      { key: 'factor', type: 'number', value: 5, source: 'tenant' },
      { key: 'label', type: 'string', value: null, source: 'default' },
      { key: 'extra', type: 'json', value: { a: 1 }, source: 'default' },
    ]);
  });

  it('ignores overrides of undeclared keys', () => {
    expect(resolveParameters([], [{ level: 'tenant', key: 'factor', value: 1 }])).toEqual([]);
  });
});
