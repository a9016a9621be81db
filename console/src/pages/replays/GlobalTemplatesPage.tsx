import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { isPlatformAdmin, useMe } from '../../auth/me';
import { Empty, ErrorBox, QueryState, formatTime } from '../../components/status';
import { RequiredFields } from './FlowTemplatesPage';
import { Pager } from '../../components/Pager';

type TemplateVersion = components['schemas']['FlowTemplateVersionResponse'];
type TemplateReport = components['schemas']['FlowTemplateValidationReport'];

/** Platform admins: every global flow template (any status), and a new one. */
export function GlobalTemplatesPage() {
  const me = useMe();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const templates = useQuery({
    queryKey: ['flow-templates', 'all', cursor ?? null],
    queryFn: () => unwrap(api.GET('/v1/flow-templates', { params: { query: { limit: 50, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="global-templates-title">
      <h1 id="global-templates-title">Global flow templates</h1>
      <p className="small">Templates every tenant can copy into its flows. They may use built-in blocks and released global blocks only.</p>
      <QueryState query={templates} what="flow templates">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No templates yet.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table data-testid="global-templates">
                  <caption className="visually-hidden">Flow templates</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Key</th>
                      <th scope="col">Newest version</th>
                      <th scope="col">Newest released</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((template) => (
                      <tr key={template.flowTemplateId}>
                        <td>
                          <Link to={`/flow-templates/${template.flowTemplateId}`}>{template.name}</Link>
                        </td>
                        <td>
                          <code>{template.key}</code>
                        </td>
                        <td>{template.latestVersionNumber === null ? '—' : `v${template.latestVersionNumber}`}</td>
                        <td>{template.latestReleasedVersionNumber === null ? '—' : `v${template.latestReleasedVersionNumber}`}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <p className="small">{page.totalCount} templates</p>
              <div className="row">
                <Pager cursors={cursors} onChange={setCursors} nextCursor={page.nextCursor} />
              </div>
            </>
          )
        }
      </QueryState>
      {isPlatformAdmin(me.data) ? <CreateTemplate /> : null}
    </section>
  );
}

function CreateTemplate() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flow-templates', { body: { key, name, ...(description ? { description } : {}) } })),
    onSuccess: async (template) => {
      await queryClient.invalidateQueries({ queryKey: ['flow-templates'] });
      navigate(`/flow-templates/${template.flowTemplateId}`);
    },
  });
  return (
    <details className="card">
      <summary>New template</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid3">
          <label>
            Template key
            <input required pattern="[a-z0-9][a-z0-9._\-]{0,63}" value={key} onChange={(event) => setKey(event.target.value)} />
          </label>
          <label>
            Template name
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          <label>
            Description
            <input maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
          </label>
        </div>
        {create.error ? <ErrorBox error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create the template
        </button>
      </form>
    </details>
  );
}

const EMPTY_GRAPH = {
  schemaVersion: 'flow-graph.v2',
  deviceTypeId: null,
  nodes: [
    { kind: 'current-output', nodeId: 'current', block: null, name: 'Current values', configuration: { fields: [] }, position: { x: 400, y: 0 } },
    { kind: 'timeseries-output', nodeId: 'history', block: null, name: 'History', configuration: { fields: [] }, position: { x: 400, y: 200 } },
  ],
  edges: [],
};

/** One global template: its versions with validate, release and deprecate, and a new draft from JSON. */
export function GlobalTemplatePage() {
  const { flowTemplateId = '' } = useParams();
  const me = useMe();
  const admin = isPlatformAdmin(me.data);
  const template = useQuery({
    queryKey: ['flow-template', flowTemplateId],
    queryFn: () => unwrap(api.GET('/v1/flow-templates/{flowTemplateId}', { params: { path: { flowTemplateId } } })),
  });
  const versions = useQuery({
    queryKey: ['flow-template-versions', flowTemplateId],
    queryFn: () => unwrap(api.GET('/v1/flow-templates/{flowTemplateId}/versions', { params: { path: { flowTemplateId }, query: { limit: 100 } } })),
  });
  return (
    <QueryState query={template} what="the template">
      {(data) => (
        <section aria-labelledby="template-title">
          <p className="small">
            <Link to="/flow-templates">Global flow templates</Link> / {data.name}
          </p>
          <h1 id="template-title">{data.name}</h1>
          <dl className="facts">
            <dt>Key</dt>
            <dd>
              <code>{data.key}</code>
            </dd>
            <dt>Description</dt>
            <dd>{data.description || '—'}</dd>
            <dt>Fields it needs</dt>
            <dd>
              <RequiredFields fields={data.requiredFields} />
            </dd>
          </dl>
          <h2>Versions</h2>
          <QueryState query={versions} what="versions">
            {(page) =>
              page.items.length === 0 ? (
                <Empty>No versions yet.</Empty>
              ) : (
                <ul className="template-list">
                  {page.items.map((version) => (
                    <VersionCard key={version.flowTemplateVersionId} version={version} admin={admin} />
                  ))}
                </ul>
              )
            }
          </QueryState>
          {admin ? <NewVersion flowTemplateId={flowTemplateId} base={versions.data?.items[0]} /> : null}
        </section>
      )}
    </QueryState>
  );
}

function VersionCard({ version, admin }: { version: TemplateVersion; admin: boolean }) {
  const queryClient = useQueryClient();
  const [report, setReport] = useState<TemplateReport | null>(null);
  const path = { params: { path: { flowTemplateId: version.flowTemplateId, flowTemplateVersionId: version.flowTemplateVersionId } } };
  const done = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: ['flow-template-versions', version.flowTemplateId] }),
      queryClient.invalidateQueries({ queryKey: ['flow-template', version.flowTemplateId] }),
      queryClient.invalidateQueries({ queryKey: ['flow-templates'] }),
    ]);
  const validate = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}/validate', path)),
    onSuccess: setReport,
  });
  const release = useMutation({ mutationFn: () => unwrap(api.POST('/v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}/release', path)), onSuccess: done });
  const deprecate = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}/deprecate', path)),
    onSuccess: done,
  });
  return (
    <li className="card" data-testid="template-version">
      <h3>
        v{version.versionNumber} <span className={`badge ${version.status === 'released' ? 'active' : version.status}`}>{version.status}</span>
      </h3>
      <p className="small">
        Created {formatTime(version.createdAt)}
        {version.releasedAt ? ` · released ${formatTime(version.releasedAt)}` : ''}
        {version.deprecatedAt ? ` · deprecated ${formatTime(version.deprecatedAt)}` : ''} · {version.graph.nodes instanceof Array ? version.graph.nodes.length : '?'} nodes ·{' '}
        {version.parameters.length} parameters
        {version.checksum ? (
          <>
            {' '}
            · checksum <code>{version.checksum.slice(0, 12)}</code>
          </>
        ) : null}
      </p>
      <div className="row">
        <button type="button" onClick={() => validate.mutate()} disabled={validate.isPending}>
          Validate
        </button>
        {admin && version.status === 'draft' ? (
          <button type="button" className="primary" onClick={() => release.mutate()} disabled={release.isPending}>
            Release v{version.versionNumber}
          </button>
        ) : null}
        {admin && version.status === 'released' ? (
          <button
            type="button"
            className="danger"
            onClick={() => window.confirm(`Deprecate v${version.versionNumber}? Tenants can no longer copy it; flows keep their copies.`) && deprecate.mutate()}
            disabled={deprecate.isPending}
          >
            Deprecate
          </button>
        ) : null}
      </div>
      {report ? (
        <div className={report.valid ? 'notice' : 'error'}>
          <p>{report.valid ? 'Valid.' : 'Not valid:'}</p>
          {report.issues.length > 0 ? (
            <ul>
              {report.issues.map((issue, index) => (
                <li key={index}>
                  {issue.severity} <code>{issue.code}</code> {issue.path ? <code>{issue.path}</code> : null} {issue.message}
                </li>
              ))}
            </ul>
          ) : null}
        </div>
      ) : null}
      {[validate.error, release.error, deprecate.error].map((error, index) => (error ? <ErrorBox key={index} error={error} /> : null))}
    </li>
  );
}

/** A new draft from JSON (graph and parameters), prefilled from the newest version; graphs are edited in detail in the studio's format. */
function NewVersion({ flowTemplateId, base }: { flowTemplateId: string; base?: TemplateVersion }) {
  const queryClient = useQueryClient();
  const [graph, setGraph] = useState(() => JSON.stringify(base?.graph ?? EMPTY_GRAPH, null, 2));
  const [parameters, setParameters] = useState(() => JSON.stringify(base?.parameters ?? [], null, 2));
  const [parseError, setParseError] = useState<string | null>(null);
  const create = useMutation({
    mutationFn: (body: { graph: Record<string, unknown>; parameters: Record<string, unknown>[] }) =>
      unwrap(api.POST('/v1/flow-templates/{flowTemplateId}/versions', { params: { path: { flowTemplateId } }, body: body as never })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['flow-template-versions', flowTemplateId] }),
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    try {
      const body = { graph: JSON.parse(graph) as Record<string, unknown>, parameters: JSON.parse(parameters) as Record<string, unknown>[] };
      setParseError(null);
      create.mutate(body);
    } catch (error) {
      setParseError(`Not JSON: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
  return (
    <details className="card">
      <summary>New draft version</summary>
      <form onSubmit={submit}>
        <label>
          Graph (flow-graph.v2, deviceTypeId null)
          <textarea className="json" rows={14} value={graph} onChange={(event) => setGraph(event.target.value)} spellCheck={false} />
        </label>
        <label>
          Parameters
          <textarea className="json" rows={4} value={parameters} onChange={(event) => setParameters(event.target.value)} spellCheck={false} />
        </label>
        {parseError ? <ErrorBox error={new Error(parseError)} /> : null}
        {create.error ? <ErrorBox error={create.error} /> : null}
        {create.isSuccess ? <p className="notice">Draft v{create.data.versionNumber} saved.</p> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Save as a draft
        </button>
      </form>
    </details>
  );
}
