import type { SeededDeviceType } from './devices';

/*
 * Flow graphs for the flows suites: a valid graph builder and small helpers to bend it.
 */

export const NUMBER_REF = 'platform://schemas/number/v1';

export interface GraphOptions {
  currentFields?: { fieldKey: string; schemaRef: string }[];
  timeseriesFields?: { fieldKey: string; schemaRef: string }[];
}

/** decode-binary -> scale -> both outputs, writing `fieldKey`. */
export function pipelineGraph(type: SeededDeviceType | { deviceTypeId: string }, fieldKey: string, options: GraphOptions = {}) {
  const fields = [{ fieldKey, schemaRef: NUMBER_REF }];
  return {
    schemaVersion: 'flow-graph.v2',
    deviceTypeId: type.deviceTypeId,
    nodes: [
      {
        kind: 'block',
        nodeId: 'decode',
        block: { type: 'builtin', key: 'decode-binary', version: 1 },
        name: 'Decode',
        configuration: { reads: [{ offset: 0, type: 'uint16be', fieldKey }] },
        position: { x: 0, y: 0 },
      },
      {
        kind: 'block',
        nodeId: 'scale',
        block: { type: 'builtin', key: 'scale', version: 1 },
        name: 'Scale',
        configuration: { fieldKey, multiply: 0.1, add: 0 },
        position: { x: 200, y: 0 },
      },
      { kind: 'current-output', nodeId: 'current', block: null, name: 'Current', configuration: { fields: options.currentFields ?? fields }, position: { x: 400, y: 0 } },
      { kind: 'timeseries-output', nodeId: 'history', block: null, name: 'History', configuration: { fields: options.timeseriesFields ?? fields }, position: { x: 400, y: 200 } },
    ],
    edges: [
      { fromNodeId: 'decode', toNodeId: 'scale' },
      { fromNodeId: 'scale', fromPort: 'out', toNodeId: 'current' },
      { fromNodeId: 'scale', toNodeId: 'history' },
    ],
  };
}

export type Graph = ReturnType<typeof pipelineGraph>;
export type GraphNode = Graph['nodes'][number] & Record<string, unknown>;

/** A deep copy of `graph` changed by `edit`. */
export function bend(graph: Graph, edit: (copy: { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] } & Record<string, unknown>) => void): Graph {
  const copy = structuredClone(graph) as unknown as { nodes: Record<string, unknown>[]; edges: Record<string, unknown>[] } & Record<string, unknown>;
  edit(copy);
  return copy as unknown as Graph;
}

/** A block node. */
export const blockNode = (nodeId: string, key: string, configuration: Record<string, unknown>, block: Record<string, unknown> = { type: 'builtin', key, version: 1 }) => ({
  kind: 'block',
  nodeId,
  block,
  name: nodeId,
  configuration,
  position: { x: 0, y: 0 },
});
