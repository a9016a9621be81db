import type { FlowGraphNode, JsonValue, NodeError, NodeStatus, NodeTrace } from '../../flows/engine';

/**
 * One node of a stored (compact) trace. There is one execution row per uplink, so the stored trace keeps only
 * what the flow version's graph cannot tell: the node's kind and block are taken from the graph when the trace is
 * read, and node outputs are kept only for executions that failed (the messages worth debugging) or were recorded
 * under a debug capture of their flow; otherwise a succeeded or filtered execution's outputs are its `current`,
 * `timeseries` and `actions`.
 */
export interface CompactNodeTrace {
  /** nodeId */
  n: string;
  /** status */
  s: NodeStatus;
  /** port, when the node emitted */
  p?: string;
  /** startedAtOffsetMs */
  t: number;
  /** durationMs */
  d: number;
  /** logs, when there are any */
  l?: string[];
  /** error */
  e?: NodeError;
  /** output (failed and captured executions only) */
  o?: JsonValue;
  /** outputTruncated (with `o`) */
  ot?: true;
}

const round = (ms: number) => Math.round(ms * 1000) / 1000;

/** The stored form of an engine trace; `keepOutputs` for failed and captured executions. */
export function compactTrace(trace: readonly NodeTrace[], keepOutputs: boolean): CompactNodeTrace[] {
  return trace.map((node) => {
    const compact: CompactNodeTrace = { n: node.nodeId, s: node.status, t: round(node.startedAtOffsetMs), d: round(node.durationMs) };
    if (node.port) compact.p = node.port;
    if (node.logs.length > 0) compact.l = node.logs;
    if (node.error) compact.e = node.error;
    if (keepOutputs && node.output !== null && node.output !== undefined) {
      compact.o = node.output;
      if (node.outputTruncated) compact.ot = true;
    }
    return compact;
  });
}

/** The NodeTrace records of a stored trace, kind and block taken from the version's graph nodes. */
export function expandTrace(stored: readonly CompactNodeTrace[], nodes: readonly Pick<FlowGraphNode, 'nodeId' | 'kind' | 'block'>[]): NodeTrace[] {
  const byId = new Map(nodes.map((node) => [node.nodeId, node]));
  return stored.map((compact) => {
    const node = byId.get(compact.n);
    return {
      nodeId: compact.n,
      kind: node?.kind ?? 'block',
      block: node?.block ?? null,
      status: compact.s,
      port: compact.p ?? null,
      startedAtOffsetMs: compact.t,
      durationMs: compact.d,
      output: compact.o ?? null,
      outputTruncated: compact.ot ?? false,
      logs: compact.l ?? [],
      error: compact.e ?? null,
    };
  });
}
