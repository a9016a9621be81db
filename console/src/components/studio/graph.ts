import type { components } from '../../api/schema';

export type CatalogItem = components['schemas']['CatalogItem'];
export type ValidationIssue = components['schemas']['ValidationIssueResponse'];
export type NodeTrace = components['schemas']['NodeTraceResponse'];

export type NodeKind = 'block' | 'current-output' | 'timeseries-output';
export type BlockRef = { type: 'builtin'; key: string; version: number } | { type: 'custom'; flowBlockVersionId: string };

export interface GraphNode {
  kind: NodeKind;
  nodeId: string;
  block: BlockRef | null;
  name: string;
  configuration: Record<string, unknown>;
  position: { x: number; y: number };
}

export interface GraphEdge {
  fromNodeId: string;
  fromPort?: string;
  toNodeId: string;
}

export interface FlowGraphDoc {
  schemaVersion: string;
  deviceTypeId: string | null;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

export type ParameterType = 'number' | 'string' | 'boolean' | 'json';

export interface Parameter {
  key: string;
  type: ParameterType;
  defaultValue: unknown;
  description?: string;
}

/** The graph of a version as the API returns it (an open object), with the parts the studio reads made safe. */
export function graphOf(raw: Record<string, unknown>): FlowGraphDoc {
  const nodes = Array.isArray(raw.nodes) ? (raw.nodes as GraphNode[]) : [];
  const edges = Array.isArray(raw.edges) ? (raw.edges as GraphEdge[]) : [];
  return {
    schemaVersion: typeof raw.schemaVersion === 'string' ? raw.schemaVersion : 'flow-graph.v2',
    deviceTypeId: typeof raw.deviceTypeId === 'string' ? raw.deviceTypeId : null,
    nodes: nodes.map((node) => ({ ...node, configuration: node.configuration ?? {}, position: node.position ?? { x: 0, y: 0 } })),
    edges,
  };
}

export const portOf = (edge: GraphEdge) => edge.fromPort ?? 'out';

/** The catalog entry a node's block names, and for a custom block the released version it uses. */
export function catalogEntryOf(node: GraphNode, catalog: CatalogItem[] | undefined) {
  const block = node.block;
  if (!block || !catalog) return undefined;
  if (block.type === 'builtin') {
    const item = catalog.find((entry) => entry.type === 'builtin' && entry.key === block.key && entry.version === block.version);
    return item ? { item, ports: item.ports ?? [], schema: item.configurationSchema ?? null, label: `${item.name} v${block.version}` } : undefined;
  }
  for (const item of catalog) {
    const version = item.versions?.find((entry) => entry.flowBlockVersionId === block.flowBlockVersionId);
    if (version) return { item, ports: version.ports, schema: version.configurationSchema ?? null, label: `${item.name} v${version.versionNumber}` };
  }
  return undefined;
}

/** A node's output ports: none on outputs; the catalog's when known, else the ports its edges use (at least `out`). */
export function portsOf(node: GraphNode, catalog: CatalogItem[] | undefined, edges: GraphEdge[]): string[] {
  if (node.kind !== 'block') return [];
  const entry = catalogEntryOf(node, catalog);
  if (entry) return entry.ports;
  const used = new Set(edges.filter((edge) => edge.fromNodeId === node.nodeId).map(portOf));
  return used.size > 0 ? [...used] : ['out'];
}

export function blockLabel(node: GraphNode, catalog?: CatalogItem[]): string {
  if (node.kind === 'current-output') return 'Current values output';
  if (node.kind === 'timeseries-output') return 'Time series output';
  const entry = catalogEntryOf(node, catalog);
  if (entry) return entry.label;
  if (node.block?.type === 'builtin') return `${node.block.key} v${node.block.version}`;
  if (node.block?.type === 'custom') return `custom block ${node.block.flowBlockVersionId.slice(0, 8)}`;
  return 'block';
}

/**
 * Positions by topological depth (the longest path from an entry node), outputs in the last column, for versions
 * whose stored positions say nothing (all the same). Nodes on a cycle go one column past the rest.
 */
export function layeredLayout(graph: FlowGraphDoc): Map<string, { x: number; y: number }> {
  const ids = graph.nodes.map((node) => node.nodeId);
  const incoming = new Map(ids.map((id) => [id, 0]));
  const next = new Map<string, string[]>(ids.map((id) => [id, []]));
  for (const edge of graph.edges) {
    if (!incoming.has(edge.toNodeId) || !next.has(edge.fromNodeId)) continue;
    incoming.set(edge.toNodeId, (incoming.get(edge.toNodeId) ?? 0) + 1);
    next.get(edge.fromNodeId)!.push(edge.toNodeId);
  }
  const depth = new Map<string, number>();
  const queue = ids.filter((id) => incoming.get(id) === 0);
  for (const id of queue) depth.set(id, 0);
  while (queue.length > 0) {
    const id = queue.shift()!;
    for (const to of next.get(id) ?? []) {
      depth.set(to, Math.max(depth.get(to) ?? 0, (depth.get(id) ?? 0) + 1));
      incoming.set(to, (incoming.get(to) ?? 0) - 1);
      if (incoming.get(to) === 0) queue.push(to);
    }
  }
  const deepest = Math.max(0, ...depth.values());
  const blocksDeepest = Math.max(0, ...graph.nodes.filter((node) => node.kind === 'block').map((node) => depth.get(node.nodeId) ?? 0));
  const column = (node: GraphNode) => {
    if (!depth.has(node.nodeId)) return deepest + 1;
    return node.kind === 'block' ? depth.get(node.nodeId)! : Math.max(depth.get(node.nodeId)!, blocksDeepest + 1);
  };
  const rows = new Map<number, number>();
  const positions = new Map<string, { x: number; y: number }>();
  for (const node of graph.nodes) {
    const x = column(node);
    const y = rows.get(x) ?? 0;
    rows.set(x, y + 1);
    positions.set(node.nodeId, { x: x * 260, y: y * 130 });
  }
  return positions;
}

/** Whether the stored positions carry a layout: some two nodes stand apart. */
export function hasStoredLayout(graph: FlowGraphDoc): boolean {
  const [first, ...rest] = graph.nodes;
  return first !== undefined && rest.some((node) => node.position.x !== first.position.x || node.position.y !== first.position.y);
}

export function withLayout(graph: FlowGraphDoc): FlowGraphDoc {
  if (hasStoredLayout(graph)) return graph;
  const positions = layeredLayout(graph);
  return { ...graph, nodes: graph.nodes.map((node) => ({ ...node, position: positions.get(node.nodeId) ?? node.position })) };
}

export interface PinnedIssues {
  byNode: Map<string, ValidationIssue[]>;
  byEdge: Map<number, ValidationIssue[]>;
  other: ValidationIssue[];
}

/** Each issue on the node or edge its path names (`graph.nodes[2]…`, `graph.edges[1]…`); the rest stay general. */
export function pinIssues(issues: ValidationIssue[], graph: FlowGraphDoc): PinnedIssues {
  const pinned: PinnedIssues = { byNode: new Map(), byEdge: new Map(), other: [] };
  for (const issue of issues) {
    const node = /^graph\.nodes\[(\d+)\]/.exec(issue.path);
    const edge = /^graph\.edges\[(\d+)\]/.exec(issue.path);
    const nodeId = node ? graph.nodes[Number(node[1])]?.nodeId : undefined;
    if (nodeId !== undefined) pinned.byNode.set(nodeId, [...(pinned.byNode.get(nodeId) ?? []), issue]);
    else if (edge && graph.edges[Number(edge[1])]) pinned.byEdge.set(Number(edge[1]), [...(pinned.byEdge.get(Number(edge[1])) ?? []), issue]);
    else pinned.other.push(issue);
  }
  return pinned;
}

/** The issues a 422 envelope carries in `details.issues`, if any. */
export function issuesOfFailure(details: Record<string, unknown>): ValidationIssue[] {
  return Array.isArray(details.issues) ? (details.issues as ValidationIssue[]) : [];
}

export const shortChecksum = (checksum: string | null) => (checksum ? `${checksum.slice(0, 12)}…` : '—');

export function json(value: unknown): string {
  return JSON.stringify(value, null, 2) ?? 'undefined';
}
