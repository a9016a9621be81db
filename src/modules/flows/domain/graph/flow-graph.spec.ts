import { graphSaveViolations, outputTargetOf, parameterRefOf, portsOf, templateGraphSaveViolations } from './flow-graph';

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

describe('templateGraphSaveViolations', () => {
  const outputs = [
    { kind: 'current-output', nodeId: 'c', block: null, name: 'C', configuration: { fields: [] }, position: { x: 0, y: 0 } },
    { kind: 'timeseries-output', nodeId: 't', block: null, name: 'T', configuration: { fields: [] }, position: { x: 0, y: 0 } },
  ];
  it('wants deviceTypeId null and otherwise the flow save rules', () => {
    expect(templateGraphSaveViolations({ schemaVersion: 'flow-graph.v2', deviceTypeId: null, nodes: outputs, edges: [] })).toEqual([]);
    expect(
      templateGraphSaveViolations({ schemaVersion: 'flow-graph.v2', deviceTypeId: '6f1e9d2c-3b4a-4c5d-8e7f-9a0b1c2d3e4f', nodes: outputs, edges: [] }).map(({ path, rule }) => ({ path, rule })),
    ).toEqual([{ path: 'body.graph.deviceTypeId', rule: 'type' }]);
    expect(templateGraphSaveViolations({ schemaVersion: 'flow-graph.v2', nodes: outputs.slice(1), edges: [] }).map(({ path, rule }) => ({ path, rule }))).toEqual([
      { path: 'body.graph.deviceTypeId', rule: 'required' },
      { path: 'body.graph.nodes', rule: 'min_items' },
    ]);
  });
  it('a flow graph still needs a UUID', () => {
    expect(graphSaveViolations({ schemaVersion: 'flow-graph.v2', deviceTypeId: null, nodes: outputs, edges: [] }, null).map(({ rule }) => rule)).toEqual(['format']);
  });
});
