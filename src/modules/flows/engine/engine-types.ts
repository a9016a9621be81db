import type { InvocationOutcome, JsonObject, JsonValue, ScriptArtifact, ScriptContextData, ScriptContract, ScriptMessage } from '../../sandbox';
import type { FlowGraph, FlowGraphNode, ParameterDeclaration } from '../domain/graph/flow-graph';

export type { JsonObject, JsonValue };
export type { BlockRef, FlowGraph, FlowGraphEdge, FlowGraphNode, NodeKind, ParameterDeclaration, ParameterType } from '../domain/graph/flow-graph';

/** What the engine needs of a flow version (immutable once stored, so its plan is cached by `flowVersionId`). */
export interface FlowVersionForPlan {
  flowVersionId: string;
  graph: FlowGraph;
  parameters: ParameterDeclaration[];
  status: 'draft' | 'released' | 'deprecated';
  /** ISO date-time or Date; fields deprecated after it are ignored (with a trace warning) instead of written. */
  releasedAt?: string | Date | null;
}

/** One entry of the device type's field contract, keyed by field key. */
export interface FieldContractEntry {
  schemaRef: string;
  storageTargets: readonly ('current' | 'timeseries')[];
  status: 'active' | 'deprecated';
  deprecatedAt?: string | Date | null;
}

/** A custom block version as the caller loaded it. `tenantId` null: a global block. */
export interface ResolvedBlockVersion {
  artifact: ScriptArtifact | null;
  tenantId: string | null;
  scriptContract: ScriptContract | null;
}

/** The part of ScriptSandbox the engine calls. A sandbox outage rejects with SandboxUnavailableError. */
export interface SandboxInvoker {
  invoke(tenantId: string, blockVersionId: string, artifact: ScriptArtifact, msg: ScriptMessage, ctx: ScriptContextData): Promise<InvocationOutcome>;
}

export interface PlanContext {
  /** field key -> contract entry; fields absent here are never written. */
  fields: Readonly<Record<string, FieldContractEntry>>;
  /** The custom block version behind a node; undefined: the node fails with `block_unavailable` when it runs. */
  resolveBlock: (flowBlockVersionId: string) => ResolvedBlockVersion | undefined;
  sandbox: SandboxInvoker;
}

/** The fixture input shape (`input` of a fixture or preview; the live envelope of an uplink). */
export interface FlowInput {
  mode?: string;
  rawPayload?: { encoding: string; data: string } | null;
  observedAt?: string;
  rawReceivedAt?: string;
  tenantId?: string;
  deviceId?: string;
  deviceTypeId?: string;
  correlationId?: string;
  connectionData?: JsonObject;
  parameters?: JsonObject;
  [key: string]: JsonValue | undefined;
}

export type ExecutionMode = 'live' | 'replay' | 'preview' | 'fixture';

export interface DeviceContext {
  deviceId: string;
  devEui?: string;
  name?: string;
  deviceTypeId: string;
  metadata: Record<string, string>;
}

export interface ExecuteOptions {
  mode: ExecutionMode;
  /** Whole-execution budget, ms (FLOW_EXECUTION_TIMEOUT_MS). */
  budgetMs: number;
  /** The tenant whose isolate runs custom blocks; default `input.tenantId`. */
  tenantId?: string;
  /** `ctx.device` of custom blocks; default from `input.deviceId`/`input.deviceTypeId`. */
  device?: DeviceContext;
  /** Monotonic clock in ms (default performance.now): offsets, durations and the budget. */
  now?: () => number;
}

export type NodeErrorCode =
  | 'script_error'
  | 'timeout'
  | 'memory_limit'
  | 'invalid_output'
  | 'output_too_large'
  | 'type_mismatch'
  | 'decode_error'
  | 'parameter_error'
  | 'block_unavailable';

export interface NodeError {
  code: NodeErrorCode;
  message: string;
}

export type NodeStatus = 'succeeded' | 'failed' | 'filtered' | 'skipped';

export interface NodeTrace {
  nodeId: string;
  kind: FlowGraphNode['kind'];
  block: FlowGraphNode['block'];
  status: NodeStatus;
  /** The port the node emitted on; null when it emitted nothing or has no ports. */
  port: string | null;
  startedAtOffsetMs: number;
  durationMs: number;
  /** The message after the node ({payload, values}; an output node: the values it wrote). Beyond 4 KiB: the first 4 KiB of its JSON text. */
  output: JsonValue | null;
  outputTruncated: boolean;
  /** At most 20 lines of at most 500 characters; warnings start with `warning: `. */
  logs: string[];
  error: NodeError | null;
}

export interface ActionRequest {
  nodeId: string;
  emailTemplateId: string;
}

export interface ExecutionResult {
  status: 'succeeded' | 'failed' | 'filtered';
  flowVersionId: string;
  durationMs: number;
  /** Writes to request (never done by the engine); empty unless `succeeded`. */
  current: Record<string, JsonValue>;
  timeseries: Record<string, JsonValue>;
  actions: ActionRequest[];
  /** `nodeId` null: the input itself failed (the payload did not decode). */
  error: { nodeId: string | null; code: NodeErrorCode; message: string } | null;
  trace: NodeTrace[];
}

/** The message travelling along the edges. */
export interface FlowMessage {
  payload: JsonValue;
  values: JsonObject;
  input: JsonObject;
}

/** What a block node did with its message: emitted it on a port, filtered it, or failed. */
export type NodeOutcome =
  | { kind: 'emitted'; port: string | null; message: FlowMessage; action?: ActionRequest; logs?: string[] }
  | { kind: 'filtered'; logs?: string[] }
  | { kind: 'failed'; error: NodeError; logs?: string[] };

/** What a block node runs with besides its message and configuration. */
export interface RunContext {
  tenantId: string;
  device: DeviceContext;
  parameters: JsonObject;
  observedAt: string;
  mode: string;
}

/** How a planned block node runs (a built-in's function, or a custom block through the sandbox). */
export type NodeExecutor = (message: FlowMessage, configuration: JsonObject, nodeId: string, run: RunContext) => NodeOutcome | Promise<NodeOutcome>;
