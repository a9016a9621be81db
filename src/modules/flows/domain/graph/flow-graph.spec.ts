import { outputTargetOf, parameterRefOf, portsOf } from './flow-graph';

describe('the flow-graph model helpers', () => {
  it('portsOf: outputs end a path, built-ins declare theirs, custom blocks emit on out, an unknown block has none known', () => {
    expect(portsOf({ kind: 'current-output', block: null })).toEqual([]);
    expect(portsOf({ kind: 'block', block: { type: 'builtin', key: 'filter', version: 1 } })).toEqual(['pass', 'reject']);
    expect(portsOf({ kind: 'block', block: { type: 'custom', flowBlockVersionId: 'x' } })).toEqual(['out']);
    expect(portsOf({ kind: 'block', block: { type: 'builtin', key: 'teleport', version: 1 } })).toBeNull();
    expect(portsOf({ kind: 'block', block: null })).toBeNull();
  });

  it('outputTargetOf: what each output kind writes', () => {
    expect([outputTargetOf('current-output'), outputTargetOf('timeseries-output'), outputTargetOf('block')]).toEqual(['current', 'timeseries', null]);
  });

  it('parameterRefOf: any object with an own $param is a reference; exact only as {"$param": "<key>"}', () => {
    expect(parameterRefOf({ $param: 'k' })).toEqual({ key: 'k', exact: true });
    expect(parameterRefOf({ $param: 'k', other: 1 })).toEqual({ key: 'k', exact: false });
    expect(parameterRefOf({ $param: 5 })).toEqual({ key: 5, exact: false });
    for (const value of [null, 'k', 3, [{ $param: 'k' }], { param: 'k' }, Object.create({ $param: 'k' }) as object]) expect(parameterRefOf(value)).toBeNull();
  });
});
