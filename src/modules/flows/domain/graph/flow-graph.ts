import type { FieldViolation, ValidationRule } from '../../../../shared/errors/error-codes';
import { builtInBlock } from '../../../blocks';
import type { JsonObject, JsonValue } from '../../../sandbox';

export type { JsonObject, JsonValue };

export const GRAPH_SCHEMA_VERSION = 'flow-graph.v2';
export const NODE_KINDS = ['current-output', 'timeseries-output', 'block'] as const;
export type NodeKind = (typeof NODE_KINDS)[number];
export const OUTPUT_KINDS: readonly NodeKind[] = ['current-output', 'timeseries-output'];
export const PARAMETER_TYPES = ['number', 'string', 'boolean', 'json'] as const;
export type ParameterType = (typeof PARAMETER_TYPES)[number];

export const MIN_NODES = 2;
export const MAX_NODES = 102;
export const MAX_EDGES = 500;
export const MAX_NODE_ID_LENGTH = 120;
export const MAX_CONFIGURATION_BYTES = 32 * 1024;
export const MAX_GRAPH_BYTES = 1024 * 1024;
export const MAX_PARAMETERS = 50;
export const PARAMETER_KEY_PATTERN = /^[a-zA-Z][a-zA-Z0-9_]{0,63}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export type BlockRef = { type: 'builtin'; key: string; version: number } | { type: 'custom'; flowBlockVersionId: string };

/**
 * The `flow-graph.v2` model: the graph of a stored flow version as save-time validation, planning and execution
 * all read it (a stored graph has passed graphSaveViolations).
 */
export interface FlowGraphNode {
  kind: NodeKind;
  nodeId: string;
  /** null on output nodes. */
  block: BlockRef | null;
  name: string;
  configuration: JsonObject;
  position: { x: number; y: number };
}

export interface FlowGraphEdge {
  fromNodeId: string;
  /** Default `out`. */
  fromPort?: string;
  toNodeId: string;
}

export interface FlowGraph {
  schemaVersion: typeof GRAPH_SCHEMA_VERSION;
  /** The flow's device type; null in a flow template, which belongs to none. */
  deviceTypeId: string | null;
  nodes: FlowGraphNode[];
  edges: FlowGraphEdge[];
}

export interface ParameterDeclaration {
  key: string;
  type: ParameterType;
  /** null: no default. */
  defaultValue: JsonValue;
  description?: string;
}

export type OutputTarget = 'current' | 'timeseries';

/** What an output node writes: current values or time-series points. null for a block node. */
export function outputTargetOf(kind: NodeKind): OutputTarget | null {
  return kind === 'current-output' ? 'current' : kind === 'timeseries-output' ? 'timeseries' : null;
}

/**
 * The ports a node emits on: none for an output (it ends a path), a built-in block's declared ports, `out` for a
 * custom block. null when the block is unknown, so the ports of its edges cannot be judged.
 */
export function portsOf(node: Pick<FlowGraphNode, 'kind' | 'block'>): readonly string[] | null {
  if (node.kind !== 'block') return [];
  const block = node.block;
  if (!block) return null;
  if (block.type === 'builtin') return builtInBlock(block.key, block.version)?.ports ?? null;
  return ['out'];
}

/**
 * A configuration value that names a parameter: an object with an own `$param` property. `exact` when it is
 * `{"$param": "<key>"}` and nothing else, the only form save-time validation resolves; execution resolves any
 * reference and fails a run on one whose key is not a string. null: not a reference.
 */
export function parameterRefOf(value: unknown): { key: unknown; exact: boolean } | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !Object.prototype.hasOwnProperty.call(value, '$param')) return null;
  const key = (value as { $param: unknown }).$param;
  return { key, exact: typeof key === 'string' && Object.keys(value).length === 1 };
}

/** The graph of a new flow's first draft: the two output nodes, writing nothing yet, and no edges. */
export function initialGraph(deviceTypeId: string): FlowGraph {
  return {
    schemaVersion: GRAPH_SCHEMA_VERSION,
    deviceTypeId,
    nodes: [
      { kind: 'current-output', nodeId: 'current-output', block: null, name: 'Current values', configuration: { fields: [] }, position: { x: 600, y: 0 } },
      { kind: 'timeseries-output', nodeId: 'timeseries-output', block: null, name: 'Time series', configuration: { fields: [] }, position: { x: 600, y: 200 } },
    ],
    edges: [],
  };
}

/** Whether `value` is of the declared parameter type (`json` takes any JSON value). */
export function valueFitsType(type: ParameterType, value: unknown): boolean {
  switch (type) {
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'string':
      return typeof value === 'string';
    case 'boolean':
      return typeof value === 'boolean';
    case 'json':
      return value !== undefined;
  }
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const byteLength = (value: unknown): number => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
const codePoints = (value: string): number => [...value].length;

class Violations {
  readonly list: FieldViolation[] = [];
  add(path: string, rule: ValidationRule, message: string): void {
    this.list.push({ path, rule, message });
  }
  unknownKeys(value: Record<string, unknown>, allowed: readonly string[], path: string): void {
    for (const key of Object.keys(value)) if (!allowed.includes(key)) this.add(`${path}.${key}`, 'unknown_property', `${key} is not a property here.`);
  }
  text(value: unknown, path: string, min: number, max: number, required = true): value is string {
    if (value === undefined) {
      if (required) this.add(path, 'required', 'Required.');
      return false;
    }
    if (typeof value !== 'string') {
      this.add(path, 'type', 'Must be a string.');
      return false;
    }
    const length = codePoints(value);
    if (length < min) this.add(path, 'min_length', `At least ${min} characters.`);
    else if (length > max) this.add(path, 'max_length', `At most ${max} characters.`);
    else if (min > 0 && value.trim() === '') this.add(path, 'blank', 'Must not be blank.');
    else return true;
    return false;
  }
}

/**
 * The rules a graph must satisfy to be saved at all (400, paths under `body.graph`): its shape and limits, the
 * format version, the flow's device type, exactly one node of each output kind, unique node ids, a block on
 * every block node and none on outputs, edges between existing nodes without self-loops or duplicates.
 * `deviceTypeId` null checks everything but the device type (before the flow is looked up).
 */
export function graphSaveViolations(graph: unknown, deviceTypeId: string | null, base = 'body.graph'): FieldViolation[] {
  return saveViolations(graph, { template: false, deviceTypeId }, base);
}

/**
 * The save rules of a flow template's graph: the same as a flow's, except that `deviceTypeId` must be null (a
 * template belongs to no device type; a copy into a flow sets the flow's).
 */
export function templateGraphSaveViolations(graph: unknown, base = 'body.graph'): FieldViolation[] {
  return saveViolations(graph, { template: true }, base);
}

type GraphOwner = { template: false; deviceTypeId: string | null } | { template: true };

function saveViolations(graph: unknown, owner: GraphOwner, base: string): FieldViolation[] {
  const v = new Violations();
  if (!isObject(graph)) {
    v.add(base, 'type', 'The graph must be an object.');
    return v.list;
  }
  if (byteLength(graph) > MAX_GRAPH_BYTES) {
    v.add(base, 'max_length', 'The graph is larger than 1 MiB of JSON.');
    return v.list;
  }
  v.unknownKeys(graph, ['schemaVersion', 'deviceTypeId', 'nodes', 'edges'], base);
  if (graph.schemaVersion === undefined) v.add(`${base}.schemaVersion`, 'required', 'Required.');
  else if (graph.schemaVersion !== GRAPH_SCHEMA_VERSION) v.add(`${base}.schemaVersion`, 'enum', `Must be "${GRAPH_SCHEMA_VERSION}".`);
  if (graph.deviceTypeId === undefined) v.add(`${base}.deviceTypeId`, 'required', 'Required.');
  else if (owner.template) {
    if (graph.deviceTypeId !== null) v.add(`${base}.deviceTypeId`, 'type', 'Must be null: a template belongs to no device type.');
  } else if (typeof graph.deviceTypeId !== 'string' || !UUID.test(graph.deviceTypeId)) v.add(`${base}.deviceTypeId`, 'format', 'Must be a UUID.');
  else if (owner.deviceTypeId !== null && graph.deviceTypeId.toLowerCase() !== owner.deviceTypeId.toLowerCase()) {
    v.add(`${base}.deviceTypeId`, 'mismatch', "Must be the flow's device type.");
  }

  const nodeIds = new Set<string>();
  if (graph.nodes === undefined) v.add(`${base}.nodes`, 'required', 'Required.');
  else if (!Array.isArray(graph.nodes)) v.add(`${base}.nodes`, 'type', 'Must be an array.');
  else if (graph.nodes.length < MIN_NODES) v.add(`${base}.nodes`, 'min_items', `At least ${MIN_NODES} nodes (the two outputs).`);
  else if (graph.nodes.length > MAX_NODES) v.add(`${base}.nodes`, 'max_items', `At most ${MAX_NODES} nodes (the two outputs and 100 blocks).`);
  else {
    const kindCounts = new Map<string, number>();
    graph.nodes.forEach((node: unknown, index: number) => {
      const path = `${base}.nodes[${index}]`;
      if (!isObject(node)) return v.add(path, 'type', 'A node must be an object.');
      v.unknownKeys(node, ['kind', 'nodeId', 'block', 'name', 'configuration', 'position'], path);
      const kind = node.kind;
      if (kind === undefined) v.add(`${path}.kind`, 'required', 'Required.');
      else if (!(NODE_KINDS as readonly unknown[]).includes(kind)) v.add(`${path}.kind`, 'enum', `One of ${NODE_KINDS.join(', ')}.`);
      else kindCounts.set(kind as string, (kindCounts.get(kind as string) ?? 0) + 1);
      if (v.text(node.nodeId, `${path}.nodeId`, 1, MAX_NODE_ID_LENGTH)) {
        if (nodeIds.has(node.nodeId)) v.add(`${path}.nodeId`, 'unique', `nodeId "${node.nodeId}" is used by an earlier node.`);
        nodeIds.add(node.nodeId);
      }
      v.text(node.name, `${path}.name`, 1, 200);
      if (node.configuration === undefined) v.add(`${path}.configuration`, 'required', 'Required.');
      else if (!isObject(node.configuration)) v.add(`${path}.configuration`, 'type', 'Must be an object.');
      else if (byteLength(node.configuration) > MAX_CONFIGURATION_BYTES) v.add(`${path}.configuration`, 'max_length', 'At most 32 KiB of JSON.');
      const position = node.position;
      if (position === undefined) v.add(`${path}.position`, 'required', 'Required.');
      else if (!isObject(position)) v.add(`${path}.position`, 'type', 'Must be an object with numbers x and y.');
      else {
        v.unknownKeys(position, ['x', 'y'], `${path}.position`);
        for (const axis of ['x', 'y'] as const) {
          if (position[axis] === undefined) v.add(`${path}.position.${axis}`, 'required', 'Required.');
          else if (typeof position[axis] !== 'number' || !Number.isFinite(position[axis])) v.add(`${path}.position.${axis}`, 'type', 'Must be a finite number.');
        }
      }
      const isOutput = OUTPUT_KINDS.includes(kind as NodeKind);
      if (isOutput) {
        if (node.block !== null && node.block !== undefined) v.add(`${path}.block`, 'type', 'Output nodes have no block (null).');
      } else if (kind === 'block') {
        blockRefViolations(v, node.block, `${path}.block`);
      }
    });
    for (const kind of OUTPUT_KINDS) {
      const count = kindCounts.get(kind) ?? 0;
      if (count !== 1) v.add(`${base}.nodes`, 'system_node_count', `Exactly one ${kind} node is required; found ${count}.`);
    }
  }

  if (graph.edges === undefined) v.add(`${base}.edges`, 'required', 'Required.');
  else if (!Array.isArray(graph.edges)) v.add(`${base}.edges`, 'type', 'Must be an array.');
  else if (graph.edges.length > MAX_EDGES) v.add(`${base}.edges`, 'max_items', `At most ${MAX_EDGES} edges.`);
  else {
    const seen = new Set<string>();
    const nodesKnown = Array.isArray(graph.nodes);
    graph.edges.forEach((edge: unknown, index: number) => {
      const path = `${base}.edges[${index}]`;
      if (!isObject(edge)) return v.add(path, 'type', 'An edge must be an object.');
      v.unknownKeys(edge, ['fromNodeId', 'fromPort', 'toNodeId'], path);
      const from = v.text(edge.fromNodeId, `${path}.fromNodeId`, 1, MAX_NODE_ID_LENGTH);
      const to = v.text(edge.toNodeId, `${path}.toNodeId`, 1, MAX_NODE_ID_LENGTH);
      const port = edge.fromPort === undefined || v.text(edge.fromPort, `${path}.fromPort`, 1, 64);
      if (from && nodesKnown && !nodeIds.has(edge.fromNodeId as string)) v.add(`${path}.fromNodeId`, 'reference_not_found', `No node "${edge.fromNodeId}".`);
      if (to && nodesKnown && !nodeIds.has(edge.toNodeId as string)) v.add(`${path}.toNodeId`, 'reference_not_found', `No node "${edge.toNodeId}".`);
      if (from && to && edge.fromNodeId === edge.toNodeId) v.add(`${path}.toNodeId`, 'mismatch', 'An edge cannot lead from a node to itself.');
      if (from && to && port) {
        const key = JSON.stringify([edge.fromNodeId, edge.fromPort ?? 'out', edge.toNodeId]);
        if (seen.has(key)) v.add(path, 'unique', 'The same edge appears earlier.');
        seen.add(key);
      }
    });
  }
  return v.list;
}

function blockRefViolations(v: Violations, block: unknown, path: string): void {
  if (block === undefined || block === null) return v.add(path, 'required', 'A block node names its block.');
  if (!isObject(block)) return v.add(path, 'type', 'Must be an object.');
  if (block.type === 'builtin') {
    v.unknownKeys(block, ['type', 'key', 'version'], path);
    v.text(block.key, `${path}.key`, 1, 128);
    if (block.version === undefined) v.add(`${path}.version`, 'required', 'Required.');
    else if (typeof block.version !== 'number' || !Number.isInteger(block.version)) v.add(`${path}.version`, 'type', 'Must be an integer.');
    else if (block.version < 1) v.add(`${path}.version`, 'minimum', 'At least 1.');
  } else if (block.type === 'custom') {
    v.unknownKeys(block, ['type', 'flowBlockVersionId'], path);
    if (block.flowBlockVersionId === undefined) v.add(`${path}.flowBlockVersionId`, 'required', 'Required.');
    else if (typeof block.flowBlockVersionId !== 'string' || !UUID.test(block.flowBlockVersionId)) v.add(`${path}.flowBlockVersionId`, 'format', 'Must be a UUID.');
  } else if (block.type === undefined) v.add(`${path}.type`, 'required', 'Required.');
  else v.add(`${path}.type`, 'enum', 'One of builtin, custom.');
}

/** The declarations' save rules (400, paths under `body.parameters`): ≤ 50, keys unique and well-formed, typed defaults. */
export function parameterSaveViolations(parameters: unknown, base = 'body.parameters'): FieldViolation[] {
  const v = new Violations();
  if (!Array.isArray(parameters)) {
    v.add(base, 'type', 'Must be an array.');
    return v.list;
  }
  if (parameters.length > MAX_PARAMETERS) {
    v.add(base, 'max_items', `At most ${MAX_PARAMETERS} parameters.`);
    return v.list;
  }
  const keys = new Set<string>();
  parameters.forEach((declaration: unknown, index: number) => {
    const path = `${base}[${index}]`;
    if (!isObject(declaration)) return v.add(path, 'type', 'A parameter declaration must be an object.');
    v.unknownKeys(declaration, ['key', 'type', 'defaultValue', 'description'], path);
    if (v.text(declaration.key, `${path}.key`, 1, 64)) {
      if (!PARAMETER_KEY_PATTERN.test(declaration.key)) v.add(`${path}.key`, 'pattern', `Must match ${PARAMETER_KEY_PATTERN.source}.`);
      else if (keys.has(declaration.key)) v.add(`${path}.key`, 'unique', `Parameter "${declaration.key}" is declared earlier.`);
      keys.add(declaration.key);
    }
    const type = declaration.type;
    if (type === undefined) v.add(`${path}.type`, 'required', 'Required.');
    else if (!(PARAMETER_TYPES as readonly unknown[]).includes(type)) v.add(`${path}.type`, 'enum', `One of ${PARAMETER_TYPES.join(', ')}.`);
    else if (declaration.defaultValue !== undefined && declaration.defaultValue !== null && !valueFitsType(type as ParameterType, declaration.defaultValue)) {
      v.add(`${path}.defaultValue`, 'type', `The default must be a ${type} or null.`);
    }
    if (declaration.description !== undefined) v.text(declaration.description, `${path}.description`, 0, 500, false);
  });
  return v.list;
}

/** Declarations as stored: `defaultValue` null when left out, `description` only when given. */
export function normalizeParameters(parameters: Array<Omit<ParameterDeclaration, 'defaultValue'> & { defaultValue?: JsonValue }>): ParameterDeclaration[] {
  return parameters.map(({ key, type, defaultValue, description }) => ({
    key,
    type,
    defaultValue: defaultValue === undefined ? null : defaultValue,
    ...(description === undefined ? {} : { description }),
  }));
}
