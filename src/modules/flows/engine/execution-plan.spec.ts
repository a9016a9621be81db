import type { FlowGraphEdge, FlowGraphNode, FlowVersionForPlan, PlanContext } from './engine-types';
import { compilePlan, FlowPlanError, PlanCache, resolveParameterRefs } from './execution-plan';

const AT = { x: 0, y: 0 };

const block = (nodeId: string, key = 'scale'): FlowGraphNode => ({ kind: 'block', nodeId, name: nodeId, position: AT, block: { type: 'builtin', key, version: 1 }, configuration: { fieldKey: 'v' } });
const outputs: FlowGraphNode[] = [
  { kind: 'current-output', nodeId: 'current', name: 'current', position: AT, block: null, configuration: { fields: [] } },
  { kind: 'timeseries-output', nodeId: 'series', name: 'series', position: AT, block: null, configuration: { fields: [] } },
];
const edge = (fromNodeId: string, toNodeId: string, fromPort?: string): FlowGraphEdge => ({ fromNodeId, toNodeId, ...(fromPort ? { fromPort } : {}) });
const version = (nodes: FlowGraphNode[], edges: FlowGraphEdge[], flowVersionId = 'fv-1'): FlowVersionForPlan => ({ flowVersionId, graph: { schemaVersion: 'flow-graph.v2', deviceTypeId: 'dt-1', nodes, edges }, parameters: [], status: 'released', releasedAt: '2026-01-01T00:00:00.000Z' });
const context: PlanContext = { fields: {}, resolveBlock: () => undefined, sandbox: { invoke: () => Promise.reject(new Error('not called')) } };

describe('compilePlan', () => {
  it('orders nodes topologically, ties broken by the order of nodes, and wires ports', () => {
    const plan = compilePlan(
      version([block('d'), block('c'), { ...block('f', 'filter'), configuration: { path: 'values.v', operator: 'exists' } }, block('a'), ...outputs], [edge('a', 'f'), edge('f', 'c', 'pass'), edge('f', 'd', 'reject'), edge('c', 'current'), edge('d', 'current')]),
      context,
    );
    expect(plan.nodes.map((n) => n.nodeId)).toEqual(['a', 'f', 'd', 'c', 'current', 'series']);
    const filter = plan.nodes[1];
    expect(Object.fromEntries(filter.targets)).toEqual({ pass: [3], reject: [2] });
    expect(plan.nodes.map((n) => n.entry)).toEqual([true, false, false, false, false, false]);
    expect(plan.nodes.map((n) => n.terminal)).toEqual([false, false, false, false, true, true]);
  });

  it('marks configurations holding $param references', () => {
    const plan = compilePlan(version([{ ...block('a'), configuration: { fieldKey: 'v', multiply: { $param: 'k' } } }, block('b'), ...outputs], []), context);
    expect(plan.nodes.map((n) => n.hasParameterRefs)).toEqual([true, false, false, false]);
  });

  it.each([
    ['a cycle', [block('a'), block('b'), ...outputs], [edge('a', 'b'), edge('b', 'a')], 'cycle_detected'],
    ['a block with two inputs', [block('a'), block('b'), block('c'), ...outputs], [edge('a', 'c'), edge('b', 'c')], 'multiple_inputs'],
    ['an unknown port', [block('a'), ...outputs], [edge('a', 'current', 'pass')], 'invalid_port'],
    ['an edge leaving an output', [block('a'), ...outputs], [edge('current', 'a')], 'invalid_port'],
    ['an edge to a missing node', [block('a'), ...outputs], [edge('a', 'ghost')], 'reference_not_found'],
    ['a duplicate node id', [block('a'), block('a'), ...outputs], [], 'duplicate_node'],
  ])('refuses %s', (_label, nodes, edges, code) => {
    expect(() => compilePlan(version(nodes, edges), context)).toThrow(expect.objectContaining({ code }) as FlowPlanError);
  });

  it('allows several edges into an output node', () => {
    expect(() => compilePlan(version([block('a'), block('b'), ...outputs], [edge('a', 'current'), edge('b', 'current')]), context)).not.toThrow();
  });
});

describe('resolveParameterRefs', () => {
  it('replaces nested references and names the first missing one', () => {
    expect(resolveParameterRefs({ a: { $param: 'x' }, b: [{ $param: 'y' }, 1] }, { x: 2, y: 'z' })).toEqual({ ok: true, value: { a: 2, b: ['z', 1] } });
    expect(resolveParameterRefs({ a: [{ $param: 'missing' }] }, {})).toEqual({ ok: false, key: 'missing' });
    expect(resolveParameterRefs({ a: { $param: 'constructor' } }, {})).toEqual({ ok: false, key: 'constructor' });
  });
});

describe('PlanCache', () => {
  it('compiles a version once and loads its context only on a miss', async () => {
    const cache = new PlanCache(10);
    const load = jest.fn(() => context);
    const first = await cache.get(version([block('a'), ...outputs], []), load);
    const second = await cache.get(version([block('a'), ...outputs], []), load);
    expect(second).toBe(first);
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('compiles again under another tag', async () => {
    const cache = new PlanCache(10);
    const load = jest.fn(() => context);
    const first = await cache.get(version([block('a'), ...outputs], []), load, 'fields-1');
    const second = await cache.get(version([block('a'), ...outputs], []), load, 'fields-2');
    expect(second).not.toBe(first);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('drops the least recently used plan beyond its capacity', async () => {
    const cache = new PlanCache(2);
    const load = () => context;
    await cache.get(version([block('a'), ...outputs], [], 'v1'), load);
    await cache.get(version([block('a'), ...outputs], [], 'v2'), load);
    await cache.get(version([block('a'), ...outputs], [], 'v1'), load);
    await cache.get(version([block('a'), ...outputs], [], 'v3'), load);
    expect([cache.has('v1'), cache.has('v2'), cache.has('v3'), cache.size]).toEqual([true, false, true, 2]);
  });

  it('caches nothing for a graph that does not compile', async () => {
    const cache = new PlanCache(2);
    await expect(cache.get(version([block('a'), block('b'), ...outputs], [edge('a', 'b'), edge('b', 'a')]), () => context)).rejects.toBeInstanceOf(FlowPlanError);
    expect(cache.size).toBe(0);
  });
});
