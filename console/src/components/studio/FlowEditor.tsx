import { lazy, Suspense, useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { Loading } from '../status';
import { Failure } from './Failure';
import { blockLabel, catalogEntryOf, portOf, portsOf, withLayout, type BlockRef, type CatalogItem, type FlowGraphDoc, type GraphEdge, type GraphNode, type Parameter, type ParameterType } from './graph';
import { JsonEditor, SchemaForm } from './SchemaForm';
import { defaultsOf, type Schema } from './schema';
import { versionsKey, type FlowVersion } from './queries';

const FlowGraph = lazy(() => import('./FlowGraph'));

const SCHEMA_REFS = ['platform://schemas/number/v1', 'platform://schemas/string/v1', 'platform://schemas/boolean/v1', 'platform://schemas/json/v1'];

/** What an output node's configuration looks like (the output nodes are not in the block catalog). */
const OUTPUT_SCHEMA: Schema = {
  type: 'object',
  additionalProperties: false,
  required: ['fields'],
  properties: {
    fields: {
      type: 'array',
      maxItems: 200,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['fieldKey', 'schemaRef'],
        properties: { fieldKey: { type: 'string', pattern: '^[a-z][a-z0-9._-]{0,119}$' }, schemaRef: { enum: SCHEMA_REFS } },
      },
    },
  },
};

const typedDefault = (type: ParameterType): unknown => (type === 'number' ? 0 : type === 'string' ? '' : type === 'boolean' ? false : null);

function uniqueNodeId(base: string, nodes: GraphNode[]): string {
  const clean = base.replace(/[^a-zA-Z0-9._-]/g, '-').slice(0, 100) || 'node';
  const taken = new Set(nodes.map((node) => node.nodeId));
  if (!taken.has(clean)) return clean;
  for (let n = 2; ; n++) if (!taken.has(`${clean}-${n}`)) return `${clean}-${n}`;
}

interface Props {
  flowId: string;
  base: FlowVersion;
  catalog: CatalogItem[];
  onSaved: (version: FlowVersion) => void;
  onCancel: () => void;
}

/**
 * Edits a copy of a version into a new draft (versions are immutable): nodes from the block catalog, edges from a
 * port to a node (drawn on the graph or chosen in the Connect form), each node's configuration in a form generated
 * from its block's schema with `$param` references, and the version's parameters.
 */
export function FlowEditor({ flowId, base, catalog, onSaved, onCancel }: Props) {
  const queryClient = useQueryClient();
  const [graph, setGraph] = useState<FlowGraphDoc>(() => withLayout(structuredClone(base.graph) as unknown as FlowGraphDoc));
  const [parameters, setParameters] = useState<Parameter[]>(() => structuredClone(base.parameters) as unknown as Parameter[]);
  const [selected, setSelected] = useState<string>(graph.nodes[0]?.nodeId ?? '');
  const [notice, setNotice] = useState<string | null>(null);

  const updateNode = (nodeId: string, change: (node: GraphNode) => GraphNode) =>
    setGraph((current) => ({ ...current, nodes: current.nodes.map((node) => (node.nodeId === nodeId ? change(node) : node)) }));

  const addNode = (item: CatalogItem, versionId?: string) => {
    const version = item.versions?.find((entry) => entry.flowBlockVersionId === versionId) ?? item.versions?.[0];
    const block: BlockRef = item.type === 'builtin' ? { type: 'builtin', key: item.key, version: item.version ?? 1 } : { type: 'custom', flowBlockVersionId: version!.flowBlockVersionId };
    const schema = item.type === 'builtin' ? item.configurationSchema : version?.configurationSchema;
    const defaults = defaultsOf(schema ?? undefined);
    const nodeId = uniqueNodeId(item.key, graph.nodes);
    const right = Math.max(0, ...graph.nodes.filter((node) => node.kind === 'block').map((node) => node.position.x));
    const node: GraphNode = {
      kind: 'block',
      nodeId,
      block,
      name: item.name,
      configuration: typeof defaults === 'object' && defaults !== null ? (defaults as Record<string, unknown>) : {},
      position: { x: right + 40, y: 320 },
    };
    setGraph({ ...graph, nodes: [...graph.nodes, node] });
    setSelected(nodeId);
    setNotice(`Added node ${nodeId}.`);
  };

  const removeNode = (nodeId: string) => {
    setGraph((current) => ({
      ...current,
      nodes: current.nodes.filter((node) => node.nodeId !== nodeId),
      edges: current.edges.filter((edge) => edge.fromNodeId !== nodeId && edge.toNodeId !== nodeId),
    }));
    setSelected('');
    setNotice(`Removed node ${nodeId} and its edges.`);
  };

  const connect = (edge: GraphEdge) => {
    if (edge.fromNodeId === edge.toNodeId) return setNotice('A node cannot be connected to itself.');
    if (graph.edges.some((existing) => existing.fromNodeId === edge.fromNodeId && portOf(existing) === portOf(edge) && existing.toNodeId === edge.toNodeId))
      return setNotice('That edge exists already.');
    setGraph((current) => ({ ...current, edges: [...current.edges, edge] }));
    setNotice(`Connected ${edge.fromNodeId} (${portOf(edge)}) to ${edge.toNodeId}.`);
  };

  const save = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/flows/{flowId}/versions', {
          params: { path: { flowId } },
          body: {
            graph: graph as unknown as Record<string, never>,
            parameters: parameters.map(({ description, ...rest }) => (description ? { ...rest, description } : rest)) as unknown as Record<string, never>[],
          },
        }),
      ),
    onSuccess: async (version) => {
      await queryClient.invalidateQueries({ queryKey: versionsKey(flowId) });
      onSaved(version);
    },
  });

  const node = graph.nodes.find((entry) => entry.nodeId === selected);
  const entry = node ? catalogEntryOf(node, catalog) : undefined;
  const schema = node ? (node.kind === 'block' ? ((entry?.schema as Schema | null | undefined) ?? null) : OUTPUT_SCHEMA) : null;

  return (
    <section className="editor" aria-labelledby="editor-title">
      <h2 id="editor-title">New draft from version {base.versionNumber}</h2>
      <p className="small">Changes stay in this page until you save them as a new draft version; the versions you edit from are never changed.</p>
      <Suspense fallback={<Loading what="the graph" />}>
        <FlowGraph
          graph={graph}
          label={`Graph of the new draft (${graph.nodes.length} nodes, ${graph.edges.length} edges)`}
          catalog={catalog}
          selectedNodeId={selected}
          onSelectNode={setSelected}
          onMoveNode={(nodeId, position) => updateNode(nodeId, (current) => ({ ...current, position }))}
          onConnect={connect}
        />
      </Suspense>
      <p className="small" role="status" aria-live="polite">
        {notice}
      </p>
      <div className="editor-panels">
        <CatalogPanel catalog={catalog} onAdd={addNode} />
        <div className="card" role="region" aria-label="Node">
          <h3>Node</h3>
          <label>
            Node to configure
            <select value={selected} onChange={(event) => setSelected(event.target.value)}>
              <option value="">Choose a node…</option>
              {graph.nodes.map((entry) => (
                <option key={entry.nodeId} value={entry.nodeId}>
                  {entry.name} ({entry.nodeId})
                </option>
              ))}
            </select>
          </label>
          {node ? (
            <>
              <p className="small">{blockLabel(node, catalog)}</p>
              <label>
                Node name
                <input required maxLength={200} value={node.name} onChange={(event) => updateNode(node.nodeId, (current) => ({ ...current, name: event.target.value }))} />
              </label>
              <SchemaForm
                key={node.nodeId}
                title={`Configuration of ${node.nodeId}`}
                schema={schema}
                value={node.configuration}
                parameters={parameters}
                onChange={(configuration) => updateNode(node.nodeId, (current) => ({ ...current, configuration }))}
              />
              {node.kind === 'block' ? (
                <button type="button" className="danger" onClick={() => removeNode(node.nodeId)}>
                  Remove node {node.nodeId}
                </button>
              ) : null}
            </>
          ) : null}
        </div>
        <EdgesPanel graph={graph} catalog={catalog} onConnect={connect} onRemove={(index) => setGraph((current) => ({ ...current, edges: current.edges.filter((_, at) => at !== index) }))} />
      </div>
      <ParametersPanel parameters={parameters} onChange={setParameters} />
      {save.error ? <Failure error={save.error} what="flow" /> : null}
      <div className="row">
        <button type="button" className="primary" onClick={() => save.mutate()} disabled={save.isPending}>
          Save as a new draft
        </button>
        <button type="button" onClick={onCancel}>
          Discard changes
        </button>
      </div>
    </section>
  );
}

function CatalogPanel({ catalog, onAdd }: { catalog: CatalogItem[]; onAdd: (item: CatalogItem, versionId?: string) => void }) {
  const [versions, setVersions] = useState<Record<string, string>>({});
  return (
    <div className="card" role="region" aria-label="Block catalog">
      <h3>Add a node</h3>
      <ul className="catalog">
        {catalog.map((item) => {
          const id = item.type === 'builtin' ? `builtin:${item.key}` : (item.flowBlockId ?? item.key);
          return (
            <li key={id}>
              <strong>{item.name}</strong> <span className="badge">{item.type === 'builtin' ? 'built-in' : item.scope}</span>
              <p className="small">{item.description}</p>
              {item.versions && item.versions.length > 1 ? (
                <label>
                  Version of {item.name}
                  <select value={versions[id] ?? item.versions[0]!.flowBlockVersionId} onChange={(event) => setVersions({ ...versions, [id]: event.target.value })}>
                    {item.versions.map((version) => (
                      <option key={version.flowBlockVersionId} value={version.flowBlockVersionId}>
                        v{version.versionNumber} ({version.scriptContract})
                      </option>
                    ))}
                  </select>
                </label>
              ) : null}
              <button type="button" onClick={() => onAdd(item, versions[id])} disabled={item.type === 'custom' && (item.versions ?? []).length === 0}>
                Add {item.name}
              </button>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function EdgesPanel({ graph, catalog, onConnect, onRemove }: { graph: FlowGraphDoc; catalog: CatalogItem[]; onConnect: (edge: GraphEdge) => void; onRemove: (index: number) => void }) {
  const sources = graph.nodes.filter((node) => portsOf(node, catalog, graph.edges).length > 0);
  const [from, setFrom] = useState('');
  const [port, setPort] = useState('');
  const [to, setTo] = useState('');
  const fromNode = graph.nodes.find((node) => node.nodeId === from);
  const ports = useMemo(() => (fromNode ? portsOf(fromNode, catalog, graph.edges) : []), [fromNode, catalog, graph.edges]);
  const chosenPort = ports.includes(port) ? port : (ports[0] ?? '');
  return (
    <div className="card" role="region" aria-label="Edges">
      <h3>Edges</h3>
      <div className="grid3">
        <label>
          From node
          <select value={from} onChange={(event) => setFrom(event.target.value)}>
            <option value="">Choose…</option>
            {sources.map((node) => (
              <option key={node.nodeId} value={node.nodeId}>
                {node.name} ({node.nodeId})
              </option>
            ))}
          </select>
        </label>
        <label>
          From port
          <select value={chosenPort} onChange={(event) => setPort(event.target.value)} disabled={ports.length === 0}>
            {ports.map((entry) => (
              <option key={entry} value={entry}>
                {entry}
              </option>
            ))}
          </select>
        </label>
        <label>
          To node
          <select value={to} onChange={(event) => setTo(event.target.value)}>
            <option value="">Choose…</option>
            {graph.nodes
              .filter((node) => node.nodeId !== from)
              .map((node) => (
                <option key={node.nodeId} value={node.nodeId}>
                  {node.name} ({node.nodeId})
                </option>
              ))}
          </select>
        </label>
      </div>
      <button type="button" disabled={!from || !to || !chosenPort} onClick={() => onConnect({ fromNodeId: from, fromPort: chosenPort, toNodeId: to })}>
        Connect
      </button>
      <ul className="edge-list">
        {graph.edges.map((edge, index) => (
          <li key={`${edge.fromNodeId}-${portOf(edge)}-${edge.toNodeId}`}>
            <code>{edge.fromNodeId}</code> ({portOf(edge)}) → <code>{edge.toNodeId}</code>{' '}
            <button type="button" className="link" onClick={() => onRemove(index)}>
              Remove edge {edge.fromNodeId} to {edge.toNodeId}
            </button>
          </li>
        ))}
      </ul>
    </div>
  );
}

function ParametersPanel({ parameters, onChange }: { parameters: Parameter[]; onChange: (parameters: Parameter[]) => void }) {
  const set = (index: number, change: Partial<Parameter>) => onChange(parameters.map((parameter, at) => (at === index ? { ...parameter, ...change } : parameter)));
  return (
    <div className="card" role="region" aria-label="Parameters">
      <h3>Parameters</h3>
      <p className="small">
        A node's configuration value can come from a parameter (<code>$param</code>); devices, the device type and the tenant can override its default.
      </p>
      {parameters.map((parameter, index) => (
        <fieldset key={index} className="param-row">
          <legend>Parameter {index + 1}</legend>
          <div className="grid3">
            <label>
              Parameter key
              <input required pattern="[a-zA-Z][a-zA-Z0-9_]{0,63}" value={parameter.key} onChange={(event) => set(index, { key: event.target.value })} />
            </label>
            <label>
              Parameter type
              <select value={parameter.type} onChange={(event) => set(index, { type: event.target.value as ParameterType, defaultValue: typedDefault(event.target.value as ParameterType) })}>
                <option value="number">number</option>
                <option value="string">string</option>
                <option value="boolean">boolean</option>
                <option value="json">json</option>
              </select>
            </label>
            {parameter.type === 'number' ? (
              <label>
                Default value
                <input
                  type="number"
                  step="any"
                  value={typeof parameter.defaultValue === 'number' ? String(parameter.defaultValue) : ''}
                  onChange={(event) => set(index, { defaultValue: event.target.value === '' ? null : Number(event.target.value) })}
                />
              </label>
            ) : parameter.type === 'string' ? (
              <label>
                Default value
                <input value={typeof parameter.defaultValue === 'string' ? parameter.defaultValue : ''} onChange={(event) => set(index, { defaultValue: event.target.value })} />
              </label>
            ) : parameter.type === 'boolean' ? (
              <label className="inline">
                <input type="checkbox" checked={parameter.defaultValue === true} onChange={(event) => set(index, { defaultValue: event.target.checked })} /> Default value
              </label>
            ) : (
              <JsonEditor label="Default value (JSON)" value={parameter.defaultValue} onChange={(value) => set(index, { defaultValue: value ?? null })} single />
            )}
          </div>
          <label>
            Description
            <input maxLength={500} value={parameter.description ?? ''} onChange={(event) => set(index, { description: event.target.value })} />
          </label>
          <button type="button" className="danger" onClick={() => onChange(parameters.filter((_, at) => at !== index))}>
            Remove parameter {parameter.key || index + 1}
          </button>
        </fieldset>
      ))}
      <button type="button" onClick={() => onChange([...parameters, { key: `param${parameters.length + 1}`, type: 'number', defaultValue: 0 }])} disabled={parameters.length >= 50}>
        Add a parameter
      </button>
    </div>
  );
}
