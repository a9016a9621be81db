import { builtInBlock } from '../../blocks';
import { outputTargetOf, parameterRefOf, portsOf, type OutputTarget } from '../domain/graph/flow-graph';
import { BUILT_IN_EXECUTORS } from './built-in-executors';
import { customExecutor } from './custom-executor';
import type { FlowGraphNode, FlowVersionForPlan, JsonObject, JsonValue, NodeExecutor, PlanContext } from './engine-types';

export interface PlanOutputField {
  fieldKey: string;
  schemaRef: string;
  /** Why the field is never written (a trace warning), or null. */
  ignoredBecause: string | null;
}

export interface PlanNode {
  /** Position in `ExecutionPlan.nodes` (topological order). */
  index: number;
  nodeId: string;
  kind: FlowGraphNode['kind'];
  block: FlowGraphNode['block'];
  configuration: JsonObject;
  /** Whether `configuration` holds `{"$param": key}` values to resolve per execution. */
  hasParameterRefs: boolean;
  /** Block nodes: how the node runs. */
  executor: NodeExecutor | null;
  /** Port -> indexes of the nodes fed from it, ascending. */
  targets: ReadonlyMap<string, readonly number[]>;
  /** Output nodes: which write they produce and their fields. */
  output: { target: OutputTarget; fields: readonly PlanOutputField[] } | null;
  /** Output and action nodes: receiving a message makes the execution `succeeded`. */
  terminal: boolean;
  /** Entry nodes (block nodes without an incoming edge) receive the initial message. */
  entry: boolean;
}

/** A flow version compiled for execution: no graph analysis is left for run time. */
export interface ExecutionPlan {
  flowVersionId: string;
  nodes: readonly PlanNode[];
}

/** The graph cannot be executed at all (the validator reports these as errors before release). */
export class FlowPlanError extends Error {
  constructor(
    readonly code: 'cycle_detected' | 'multiple_inputs' | 'invalid_port' | 'reference_not_found' | 'duplicate_node',
    message: string,
  ) {
    super(message);
    this.name = 'FlowPlanError';
  }
}

function toTime(value: string | Date | null | undefined): number | null {
  if (value === null || value === undefined) return null;
  const time = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isNaN(time) ? null : time;
}

function containsParameterRef(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(containsParameterRef);
  if (parameterRefOf(value)) return true;
  return Object.values(value).some(containsParameterRef);
}

const unavailable =
  (message: string): NodeExecutor =>
  () => ({ kind: 'failed', error: { code: 'block_unavailable', message } });

function executorOf(node: FlowGraphNode, context: PlanContext): NodeExecutor {
  const block = node.block;
  if (!block) return unavailable('The node has no block.');
  if (block.type === 'builtin') {
    const definition = builtInBlock(block.key, block.version);
    if (!definition) return unavailable(`No built-in block ${block.key} version ${block.version}.`);
    const run = BUILT_IN_EXECUTORS[definition.key];
    return (message, configuration, nodeId) => run(message, configuration, nodeId);
  }
  const resolved = context.resolveBlock(block.flowBlockVersionId);
  if (!resolved?.artifact) return unavailable('The custom block version is missing or has no compiled artifact.');
  return customExecutor(context.sandbox, block.flowBlockVersionId, resolved.artifact);
}

function outputFields(node: FlowGraphNode, target: OutputTarget, version: FlowVersionForPlan, context: PlanContext): PlanOutputField[] {
  const releasedAt = toTime(version.releasedAt);
  const configured = Array.isArray(node.configuration?.fields) ? (node.configuration.fields as Array<{ fieldKey: string; schemaRef: string }>) : [];
  return configured.map(({ fieldKey, schemaRef }) => {
    const field = Object.prototype.hasOwnProperty.call(context.fields, fieldKey) ? context.fields[fieldKey] : undefined;
    let ignoredBecause: string | null = null;
    if (!field) ignoredBecause = `field ${fieldKey} is not a field of the device type; not written`;
    else if (field.status === 'deprecated') {
      const deprecatedAt = toTime(field.deprecatedAt);
      ignoredBecause =
        releasedAt !== null && deprecatedAt !== null && deprecatedAt > releasedAt
          ? `field ${fieldKey} was deprecated after this version's release; not written`
          : `field ${fieldKey} is deprecated; not written`;
    } else if (!field.storageTargets.includes(target)) ignoredBecause = `field ${fieldKey} is not stored in ${target}; not written`;
    return { fieldKey, schemaRef, ignoredBecause };
  });
}

/**
 * Compiles a flow version into an executable plan: topological order (ties broken by the order of `nodes`),
 * each block node's executor bound (built-ins, or custom blocks through the sandbox with the artifact the
 * resolver supplies), ports wired, output nodes' fields checked against the field contract once.
 * A custom block the resolver does not know fails with `block_unavailable` when its node runs.
 */
export function compilePlan(version: FlowVersionForPlan, context: PlanContext): ExecutionPlan {
  const graphNodes = version.graph.nodes;
  const position = new Map<string, number>();
  graphNodes.forEach((node, i) => {
    if (position.has(node.nodeId)) throw new FlowPlanError('duplicate_node', `Node ${node.nodeId} appears twice.`);
    position.set(node.nodeId, i);
  });
  const ports = graphNodes.map(portsOf);
  const outgoing: Array<Array<{ port: string; to: number }>> = graphNodes.map(() => []);
  const incomingCount = graphNodes.map(() => 0);
  for (const edge of version.graph.edges) {
    const from = position.get(edge.fromNodeId);
    const to = position.get(edge.toNodeId);
    if (from === undefined || to === undefined) throw new FlowPlanError('reference_not_found', `An edge references a missing node (${edge.fromNodeId} -> ${edge.toNodeId}).`);
    const port = edge.fromPort ?? 'out';
    const fromPorts = ports[from];
    // an unknown block has no known ports; its node fails when it runs
    if (fromPorts !== null && !fromPorts.includes(port)) throw new FlowPlanError('invalid_port', `Node ${edge.fromNodeId} has no port ${port}.`);
    incomingCount[to] += 1;
    if (graphNodes[to].kind === 'block' && incomingCount[to] > 1) throw new FlowPlanError('multiple_inputs', `Node ${edge.toNodeId} has more than one incoming edge.`);
    outgoing[from].push({ port, to });
  }

  // Kahn's algorithm, always taking the ready node that comes first in `nodes`
  const remaining = incomingCount.slice();
  const ready = new Set<number>();
  remaining.forEach((count, i) => count === 0 && ready.add(i));
  const order: number[] = [];
  while (ready.size > 0) {
    const next = Math.min(...ready);
    ready.delete(next);
    order.push(next);
    for (const { to } of outgoing[next]) {
      remaining[to] -= 1;
      if (remaining[to] === 0) ready.add(to);
    }
  }
  if (order.length !== graphNodes.length) throw new FlowPlanError('cycle_detected', 'The graph has a cycle.');

  const planIndex = new Map<number, number>();
  order.forEach((graphIndex, i) => planIndex.set(graphIndex, i));
  const nodes: PlanNode[] = order.map((graphIndex, index) => {
    const node = graphNodes[graphIndex];
    const targets = new Map<string, number[]>();
    for (const { port, to } of outgoing[graphIndex]) {
      const list = targets.get(port) ?? [];
      list.push(planIndex.get(to)!);
      targets.set(port, list);
    }
    for (const list of targets.values()) list.sort((a, b) => a - b);
    const outputTarget = outputTargetOf(node.kind);
    const isAction = node.kind === 'block' && node.block?.type === 'builtin' && node.block.key === 'email-action';
    const configuration = (node.configuration ?? {}) as JsonObject;
    return {
      index,
      nodeId: node.nodeId,
      kind: node.kind,
      block: node.block ?? null,
      configuration,
      hasParameterRefs: containsParameterRef(configuration),
      executor: outputTarget ? null : executorOf(node, context),
      targets,
      output: outputTarget ? { target: outputTarget, fields: outputFields(node, outputTarget, version, context) } : null,
      terminal: outputTarget !== null || isAction,
      entry: node.kind === 'block' && incomingCount[graphIndex] === 0,
    };
  });
  return { flowVersionId: version.flowVersionId, nodes };
}

/** `{"$param": key}` values replaced by the resolved parameters; a missing or null parameter is named in the error. */
export function resolveParameterRefs(value: JsonValue, parameters: JsonObject): { ok: true; value: JsonValue } | { ok: false; key: string } {
  if (value === null || typeof value !== 'object') return { ok: true, value };
  if (Array.isArray(value)) {
    const out: JsonValue[] = [];
    for (const item of value) {
      const resolved = resolveParameterRefs(item, parameters);
      if (!resolved.ok) return resolved;
      out.push(resolved.value);
    }
    return { ok: true, value: out };
  }
  const ref = parameterRefOf(value);
  if (ref) {
    const key = ref.key;
    if (typeof key !== 'string') return { ok: false, key: String(key) };
    const resolved = Object.prototype.hasOwnProperty.call(parameters, key) ? parameters[key] : undefined;
    if (resolved === undefined || resolved === null) return { ok: false, key };
    return { ok: true, value: resolved };
  }
  const out: JsonObject = {};
  for (const [key, item] of Object.entries(value)) {
    const resolved = resolveParameterRefs(item, parameters);
    if (!resolved.ok) return resolved;
    out[key] = resolved.value;
  }
  return { ok: true, value: out };
}

/** Compiled plans by flow version id (versions are immutable), least recently used dropped beyond `capacity`. */
export class PlanCache {
  private readonly entries = new Map<string, { tag: string; plan: ExecutionPlan }>();

  constructor(private readonly capacity = 500) {}

  /**
   * The cached plan of `version`, else one compiled from the context `load` supplies (called only on a miss).
   * `tag` identifies the field contract and block versions the plan was compiled against: a different tag
   * (a field deprecated since) compiles again.
   */
  async get(version: FlowVersionForPlan, load: () => PlanContext | Promise<PlanContext>, tag = ''): Promise<ExecutionPlan> {
    const hit = this.entries.get(version.flowVersionId);
    if (hit && hit.tag === tag) {
      this.entries.delete(version.flowVersionId);
      this.entries.set(version.flowVersionId, hit);
      return hit.plan;
    }
    const plan = compilePlan(version, await load());
    this.entries.delete(version.flowVersionId);
    this.entries.set(version.flowVersionId, { tag, plan });
    while (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
    return plan;
  }

  has(flowVersionId: string): boolean {
    return this.entries.has(flowVersionId);
  }

  get size(): number {
    return this.entries.size;
  }

  delete(flowVersionId: string): void {
    this.entries.delete(flowVersionId);
  }
}
