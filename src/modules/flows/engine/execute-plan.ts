import { SandboxUnavailableError } from '../../sandbox';
import type { ActionRequest, ExecuteOptions, ExecutionResult, FlowInput, FlowMessage, JsonObject, JsonValue, NodeError, NodeOutcome, NodeTrace, RunContext } from './engine-types';
import { resolveParameterRefs, type ExecutionPlan, type PlanNode } from './execution-plan';
import { decodeRawPayload } from '../../../shared/validation/raw-payload';
import { checkSchemaRef } from './schema-ref';

export const MAX_TRACE_OUTPUT_BYTES = 4096;
export const MAX_TRACE_LOG_LINES = 20;
export const MAX_TRACE_LOG_CHARS = 500;

const defaultClock = (): number => performance.now();
const ms = (value: number): number => Math.round(value * 1000) / 1000;

/**
 * An upper bound of the UTF-8 length of `value`'s JSON text, given up once it passes `limit`: small outputs (the
 * usual case) skip serialization. Every UTF-16 unit of a string counts 6 bytes (a `\u0000` escape), byte-sized
 * integers 3, other numbers 24.
 */
function jsonBytesAtMost(value: unknown, limit: number): number {
  if (value === null || typeof value === 'boolean') return 5;
  if (typeof value === 'number') return Number.isInteger(value) && value >= 0 && value < 1000 ? 3 : 24;
  if (typeof value === 'string') return value.length * 6 + 2;
  if (typeof value !== 'object') return 0;
  let total = 2;
  if (Array.isArray(value)) {
    for (const item of value) {
      total += jsonBytesAtMost(item, limit - total) + 1;
      if (total > limit) return total;
    }
    return total;
  }
  for (const key in value as Record<string, unknown>) {
    total += key.length * 6 + 4 + jsonBytesAtMost((value as Record<string, unknown>)[key], limit - total);
    if (total > limit) return total;
  }
  return total;
}

/** A trace's `output`: the value itself up to 4 KiB of JSON, else the first 4 KiB of its JSON text. */
export function traceOutput(value: JsonValue): { output: JsonValue; outputTruncated: boolean } {
  if (jsonBytesAtMost(value, MAX_TRACE_OUTPUT_BYTES) <= MAX_TRACE_OUTPUT_BYTES) return { output: value, outputTruncated: false };
  const json = JSON.stringify(value);
  if (Buffer.byteLength(json, 'utf8') <= MAX_TRACE_OUTPUT_BYTES) return { output: value, outputTruncated: false };
  // a cut through a multi-byte character decodes to U+FFFD: dropped
  const text = Buffer.from(json, 'utf8').subarray(0, MAX_TRACE_OUTPUT_BYTES).toString('utf8').replace(/\uFFFD+$/, '');
  return { output: text, outputTruncated: true };
}

/** At most 20 lines of at most 500 characters. */
export function traceLogs(logs: readonly string[] | undefined): string[] {
  if (!logs || logs.length === 0) return [];
  return logs.slice(0, MAX_TRACE_LOG_LINES).map((line) => (line.length > MAX_TRACE_LOG_CHARS ? line.slice(0, MAX_TRACE_LOG_CHARS) : line));
}

function budgetExceeded(budgetMs: number): NodeOutcome {
  return { kind: 'failed', error: { code: 'timeout', message: `The execution exceeded its budget of ${budgetMs} ms.` } };
}

/** The node's outcome, or a budget timeout if it does not settle within `remainingMs`. */
function withinBudget(pending: Promise<NodeOutcome>, remainingMs: number, budgetMs: number): Promise<NodeOutcome> {
  return new Promise<NodeOutcome>((resolve, reject) => {
    const timer = setTimeout(() => resolve(budgetExceeded(budgetMs)), Math.max(0, remainingMs));
    pending.then(
      (outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error ? error : new Error(String(error)));
      },
    );
  });
}

function runContext(input: FlowInput, parameters: JsonObject, options: ExecuteOptions): RunContext {
  return {
    tenantId: options.tenantId ?? (typeof input.tenantId === 'string' ? input.tenantId : ''),
    device: options.device ?? {
      deviceId: typeof input.deviceId === 'string' ? input.deviceId : '',
      deviceTypeId: typeof input.deviceTypeId === 'string' ? input.deviceTypeId : '',
      metadata: {},
    },
    parameters,
    observedAt: typeof input.observedAt === 'string' ? input.observedAt : '',
    mode: options.mode,
  };
}

function traceOf(node: PlanNode, offset: number): NodeTrace {
  return {
    nodeId: node.nodeId,
    kind: node.kind,
    block: node.block,
    status: 'skipped',
    port: null,
    startedAtOffsetMs: ms(offset),
    durationMs: 0,
    output: null,
    outputTruncated: false,
    logs: [],
    error: null,
  };
}

/**
 * Runs a compiled plan on one input with resolved parameters. Pure apart from the sandbox calls: storage
 * writes (`current`, `timeseries`) and e-mail requests (`actions`) come back as data, never done here.
 *
 * - The initial message is {payload: decoded rawPayload, values: {}, input}; entry nodes receive it, every
 *   other node runs at most once, in plan order, only if a predecessor emitted on the port wired to it.
 * - Output nodes merge the `values` of every message they received (later in plan order wins) and write their
 *   configured fields that hold a value (null and undefined are not written), each checked against its schemaRef.
 * - The first failing node ends the execution: `failed`, every node not yet run `skipped`, nothing written or
 *   requested. Otherwise `succeeded` if an output or action node received a message, else `filtered`.
 * - Throws SandboxUnavailableError when the sandbox itself fails (no outcome exists for that execution).
 */
export async function executePlan(plan: ExecutionPlan, input: FlowInput, parameters: JsonObject, options: ExecuteOptions): Promise<ExecutionResult> {
  const now = options.now ?? defaultClock;
  const started = now();
  const deadline = started + options.budgetMs;
  const nodes = plan.nodes;
  const trace: NodeTrace[] = [];
  const inbox: Array<FlowMessage[] | undefined> = new Array<FlowMessage[] | undefined>(nodes.length);
  const current: Record<string, JsonValue> = {};
  const timeseries: Record<string, JsonValue> = {};
  const actions: ActionRequest[] = [];
  let failure: ExecutionResult['error'] = null;
  let reachedTerminal = false;

  const decoded = decodeRawPayload(input.rawPayload);
  if (!decoded.ok) failure = { nodeId: null, code: 'decode_error', message: decoded.message };
  const initial: FlowMessage | null = decoded.ok ? { payload: decoded.payload as JsonValue, values: {}, input: input as JsonObject } : null;
  const run = runContext(input, parameters, options);

  for (const node of nodes) {
    const startedAt = now();
    const entry = traceOf(node, startedAt - started);
    trace.push(entry);
    if (failure) continue;
    const messages = node.entry && initial ? [initial] : inbox[node.index];
    if (!messages) continue;

    let outcome: NodeOutcome;
    let written: Record<string, JsonValue> | null = null;
    if (startedAt >= deadline) outcome = budgetExceeded(options.budgetMs);
    else if (node.output) {
      const result = writeOutput(node, messages);
      outcome = result.outcome;
      written = result.written;
    } else {
      // built-ins answer synchronously: only script calls cost an await
      const pending = runBlock(node, messages[0], parameters, run, deadline - startedAt, options.budgetMs);
      outcome = pending instanceof Promise ? await pending : pending;
    }

    entry.durationMs = ms(now() - startedAt);
    entry.logs = traceLogs(outcome.logs);
    if (outcome.kind === 'failed') {
      entry.status = 'failed';
      entry.error = outcome.error;
      failure = { nodeId: node.nodeId, ...outcome.error };
      continue;
    }
    if (node.terminal) reachedTerminal = true;
    if (outcome.kind === 'filtered') {
      entry.status = 'filtered';
      continue;
    }
    entry.status = 'succeeded';
    entry.port = outcome.port;
    if (written && node.output) {
      Object.assign(node.output.target === 'current' ? current : timeseries, written);
      Object.assign(entry, traceOutput(written));
      continue;
    }
    Object.assign(entry, traceOutput({ payload: outcome.message.payload, values: outcome.message.values }));
    if (outcome.action) actions.push(outcome.action);
    const targets = outcome.port === null ? undefined : node.targets.get(outcome.port);
    if (targets) for (const target of targets) (inbox[target] ??= []).push(outcome.message);
  }

  const status = failure ? 'failed' : reachedTerminal ? 'succeeded' : 'filtered';
  return {
    status,
    flowVersionId: plan.flowVersionId,
    durationMs: ms(now() - started),
    current: status === 'succeeded' ? current : {},
    timeseries: status === 'succeeded' ? timeseries : {},
    actions: status === 'succeeded' ? actions : [],
    error: failure,
    trace,
  };
}

function runBlock(
  node: PlanNode,
  message: FlowMessage,
  parameters: JsonObject,
  run: RunContext,
  remainingMs: number,
  budgetMs: number,
): NodeOutcome | Promise<NodeOutcome> {
  let configuration = node.configuration;
  if (node.hasParameterRefs) {
    const resolved = resolveParameterRefs(configuration, parameters);
    if (!resolved.ok) {
      return { kind: 'failed', error: { code: 'parameter_error', message: `The parameter ${resolved.key} has no value.` } };
    }
    configuration = resolved.value as JsonObject;
  }
  try {
    const result = node.executor!(message, configuration, node.nodeId, run);
    return result instanceof Promise ? withinBudget(result, remainingMs, budgetMs) : result;
  } catch (error) {
    if (error instanceof SandboxUnavailableError) throw error;
    // a configuration the block cannot work with (the validator refuses these before release)
    return { kind: 'failed', error: { code: 'block_unavailable', message: 'The block cannot run with its configuration.' } };
  }
}

function writeOutput(node: PlanNode, messages: readonly FlowMessage[]): { outcome: NodeOutcome; written: Record<string, JsonValue> | null } {
  const values: JsonObject = messages.length === 1 ? messages[0].values : Object.assign({}, ...messages.map((m) => m.values)) as JsonObject;
  const written: Record<string, JsonValue> = {};
  const logs: string[] = [];
  for (const field of node.output!.fields) {
    if (field.ignoredBecause) {
      logs.push(`warning: ${field.ignoredBecause}`);
      continue;
    }
    const value = Object.prototype.hasOwnProperty.call(values, field.fieldKey) ? values[field.fieldKey] : undefined;
    if (value === undefined || value === null) continue;
    const mismatch = checkSchemaRef(field.schemaRef, value);
    if (mismatch) {
      const error: NodeError = { code: 'type_mismatch', message: `values.${field.fieldKey} ${mismatch}` };
      return { outcome: { kind: 'failed', error, logs }, written: null };
    }
    written[field.fieldKey] = value;
  }
  return { outcome: { kind: 'emitted', port: null, message: messages[messages.length - 1], logs }, written };
}
