import { useEffect, useMemo, useState } from 'react';
import {
  applyNodeChanges,
  Background,
  Controls,
  Handle,
  MarkerType,
  Position,
  ReactFlow,
  useReactFlow,
  type Edge,
  type Node,
  type NodeChange,
  type NodeProps,
} from '@xyflow/react';
import '@xyflow/react/dist/style.css';
import {
  blockLabel,
  portOf,
  portsOf,
  withLayout,
  type CatalogItem,
  type FlowGraphDoc,
  type GraphEdge,
  type NodeTrace,
  type PinnedIssues,
  type ValidationIssue,
} from './graph';

interface NodeData extends Record<string, unknown> {
  name: string;
  nodeId: string;
  label: string;
  ports: string[];
  takesInput: boolean;
  trace?: NodeTrace;
  issues: ValidationIssue[];
  selected: boolean;
}

type UplinkNode = Node<NodeData, 'uplink'>;

function UplinkNodeView({ data }: NodeProps<UplinkNode>) {
  const errors = data.issues.filter((issue) => issue.severity === 'error').length;
  const className = ['fg-node', data.trace ? `trace-${data.trace.status}` : '', errors > 0 ? 'has-errors' : data.issues.length > 0 ? 'has-warnings' : '', data.selected ? 'chosen' : '']
    .filter(Boolean)
    .join(' ');
  return (
    <div className={className} data-node-id={data.nodeId}>
      {data.takesInput ? <Handle type="target" position={Position.Left} id="in" /> : null}
      <strong className="fg-name">{data.name}</strong>
      <span className="fg-meta">
        <code>{data.nodeId}</code> · {data.label}
      </span>
      {data.trace ? (
        <span className="fg-trace" data-testid={`trace-${data.nodeId}`}>
          {data.trace.status}
          {data.trace.port ? ` · port ${data.trace.port}` : ''} · {formatMs(data.trace.durationMs)}
          {data.trace.error ? ` · ${data.trace.error.code}: ${data.trace.error.message}` : ''}
        </span>
      ) : null}
      {data.issues.length > 0 ? (
        <ul className="fg-issues" data-testid={`issues-${data.nodeId}`}>
          {data.issues.map((issue, index) => (
            <li key={index} className={issue.severity}>
              {issue.severity === 'error' ? 'Error' : 'Warning'} <code>{issue.code}</code>: {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
      {data.ports.map((port, index) => (
        <Handle
          key={port}
          type="source"
          position={Position.Right}
          id={port}
          style={{ top: `${((index + 1) * 100) / (data.ports.length + 1)}%` }}
          title={`Port ${port}`}
        >
          {data.ports.length > 1 || port !== 'out' ? <span className="fg-port">{port}</span> : null}
        </Handle>
      ))}
    </div>
  );
}

const nodeTypes = { uplink: UplinkNodeView };

/** Fits the view again when what the nodes show changes size (issues pinned, a trace drawn, a node added). */
function FitOnChange({ signal }: { signal: unknown }) {
  const { fitView } = useReactFlow();
  useEffect(() => {
    const timer = setTimeout(() => void fitView({ padding: 0.15 }), 60);
    return () => clearTimeout(timer);
  }, [signal, fitView]);
  return null;
}

export const formatMs = (ms: number) => `${ms < 10 ? ms.toFixed(2) : Math.round(ms)} ms`;

export interface FlowGraphProps {
  graph: FlowGraphDoc;
  /** What the graph is, for screen readers (e.g. "Graph of version 3"). */
  label: string;
  catalog?: CatalogItem[];
  pinned?: PinnedIssues;
  /** Per node id, the node's entry of an execution's trace: drawn on the node, and the edges the message took. */
  trace?: NodeTrace[];
  selectedNodeId?: string | null;
  onSelectNode?: (nodeId: string) => void;
  /** Editable graphs: a node dragged to a new place, an edge drawn from a port to a node. */
  onMoveNode?: (nodeId: string, position: { x: number; y: number }) => void;
  onConnect?: (edge: GraphEdge) => void;
}

/**
 * A flow version's graph (React Flow): nodes with their ports, the validate report's issues pinned on the nodes and
 * edges they name, and an execution's trace (status, port, duration, error) on each node. Versions without a
 * stored layout are laid out by topological depth.
 */
export default function FlowGraph({ graph, label, catalog, pinned, trace, selectedNodeId, onSelectNode, onMoveNode, onConnect }: FlowGraphProps) {
  const editable = onMoveNode !== undefined;
  const laidOut = useMemo(() => withLayout(graph), [graph]);
  const traceById = useMemo(() => new Map((trace ?? []).map((entry) => [entry.nodeId, entry])), [trace]);
  const built = useMemo(
    (): UplinkNode[] =>
      laidOut.nodes.map((node) => {
        const used = laidOut.edges.filter((edge) => edge.fromNodeId === node.nodeId).map(portOf);
        const ports = [...new Set([...portsOf(node, catalog, laidOut.edges), ...used])];
        return {
          id: node.nodeId,
          type: 'uplink',
          position: node.position,
          draggable: editable,
          connectable: onConnect !== undefined,
          ariaLabel: `Node ${node.name}`,
          data: {
            name: node.name,
            nodeId: node.nodeId,
            label: blockLabel(node, catalog),
            ports,
            takesInput: true,
            trace: traceById.get(node.nodeId),
            issues: pinned?.byNode.get(node.nodeId) ?? [],
            selected: selectedNodeId === node.nodeId,
          },
        };
      }),
    [laidOut, catalog, traceById, pinned, selectedNodeId, editable, onConnect],
  );
  const [nodes, setNodes] = useState(built);
  useEffect(() => setNodes(built), [built]);
  const edges = useMemo(
    (): Edge[] =>
      laidOut.edges.map((edge, index) => {
        const issues = pinned?.byEdge.get(index) ?? [];
        const from = traceById.get(edge.fromNodeId);
        const to = traceById.get(edge.toNodeId);
        const taken = from?.port === portOf(edge) && to !== undefined && to.status !== 'skipped';
        const port = portOf(edge);
        return {
          id: `edge-${index}`,
          source: edge.fromNodeId,
          sourceHandle: port,
          target: edge.toNodeId,
          targetHandle: 'in',
          label: issues.length > 0 ? `${port !== 'out' ? `${port}: ` : ''}${issues.map((issue) => issue.code).join(', ')}` : port !== 'out' ? port : undefined,
          className: [issues.length > 0 ? 'fg-edge-issue' : '', taken ? 'fg-edge-taken' : ''].filter(Boolean).join(' '),
          markerEnd: { type: MarkerType.ArrowClosed },
        };
      }),
    [laidOut, pinned, traceById],
  );

  return (
    <div className="flow-graph" role="figure" aria-label={label}>
      <ReactFlow
        nodes={nodes}
        edges={edges}
        nodeTypes={nodeTypes}
        onNodesChange={(changes: NodeChange<UplinkNode>[]) => setNodes((current) => applyNodeChanges(changes, current))}
        onNodeDragStop={(_event, node) => onMoveNode?.(node.id, { x: Math.round(node.position.x), y: Math.round(node.position.y) })}
        onNodeClick={(_event, node) => onSelectNode?.(node.id)}
        onConnect={(connection) => {
          if (connection.source && connection.target) onConnect?.({ fromNodeId: connection.source, fromPort: connection.sourceHandle ?? 'out', toNodeId: connection.target });
        }}
        nodesDraggable={editable}
        nodesConnectable={onConnect !== undefined}
        elementsSelectable={onSelectNode !== undefined}
        fitView
        fitViewOptions={{ padding: 0.15 }}
        minZoom={0.2}
        proOptions={{ hideAttribution: true }}
        deleteKeyCode={null}
      >
        <Background gap={20} />
        <Controls showInteractive={false} />
        <FitOnChange signal={`${laidOut.nodes.length}:${pinned ? [...pinned.byNode.values()].flat().length : '-'}:${trace?.length ?? '-'}`} />
      </ReactFlow>
    </div>
  );
}
