import { useMemo, useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import { canTenantWide, useMe } from '../../auth/me';
import { ErrorBox, formatTime, Loading } from '../../components/status';
import { ActivateButton } from '../../components/studio/Activate';
import { Failure } from '../../components/studio/Failure';
import FlowGraph from '../../components/studio/FlowGraph';
import { FlowEditor } from '../../components/studio/FlowEditor';
import { FixtureRunPanel } from '../../components/studio/Fixtures';
import { graphOf, issuesOfFailure, pinIssues, type FlowGraphDoc, type ValidationIssue } from '../../components/studio/graph';
import { ExecutionOutcome, PreviewForm, type ExecutionResult } from '../../components/studio/Preview';
import { useCatalog, useFlow, useVersions, versionsKey, type FlowVersion, type FlowWithTag } from '../../components/studio/queries';
import { TraceList } from '../../components/studio/TraceList';
import { useTenantNumber } from '../../tenant';

/** One version of a flow: its graph, validate report and release gate pinned to nodes, preview with the trace, fixtures, activation. */
export function FlowVersionPage() {
  const tenantNumber = useTenantNumber();
  const { flowId = '', version: versionParam = '' } = useParams();
  const flow = useFlow(flowId);
  const versions = useVersions(flowId);
  if (flow.isPending || versions.isPending) return <Loading what="the flow version" />;
  if (flow.error || versions.error) return <ErrorBox error={flow.error ?? versions.error} onRetry={() => void Promise.all([flow.refetch(), versions.refetch()])} />;
  const version = versions.data!.find((entry) => String(entry.versionNumber) === versionParam || entry.flowVersionId === versionParam);
  if (!version) return <ErrorBox error={new Error(`This flow has no version ${versionParam}.`)} />;
  return <VersionView key={version.flowVersionId} tenantNumber={tenantNumber} current={flow.data!} version={version} versions={versions.data!} />;
}

function VersionView({ tenantNumber, current, version, versions }: { tenantNumber: number; current: FlowWithTag; version: FlowVersion; versions: FlowVersion[] }) {
  const { flow } = current;
  const me = useMe(tenantNumber);
  const canWrite = canTenantWide(me.data, tenantNumber, 'flows:write');
  const canRelease = canTenantWide(me.data, tenantNumber, 'flows:release');
  const catalog = useCatalog(tenantNumber);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const graph: FlowGraphDoc = useMemo(() => graphOf(version.graph), [version.graph]);
  const [issues, setIssues] = useState<ValidationIssue[] | null>(null);
  const [issuesFrom, setIssuesFrom] = useState<'validate' | 'release'>('validate');
  const [preview, setPreview] = useState<{ result: ExecutionResult | null; error: unknown }>({ result: null, error: null });
  const [editing, setEditing] = useState(false);
  const pinned = useMemo(() => (issues ? pinIssues(issues, graph) : undefined), [issues, graph]);
  const names = useMemo(() => new Map(graph.nodes.map((node) => [node.nodeId, node.name])), [graph]);
  const failureIssues = (error: unknown) => {
    // Preview and fixture runs of a draft that does not compile answer 422 with the same issues: pin them too.
    if (error instanceof ApiError && error.status === 422) {
      setIssues(issuesOfFailure(error.details));
      setIssuesFrom('release');
    }
  };

  const validate = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flows/{flowId}/versions/{flowVersionId}/validate', { params: { path: { flowId: flow.flowId, flowVersionId: version.flowVersionId } } })),
    onSuccess: (report) => {
      setIssues(report.issues);
      setIssuesFrom('validate');
    },
  });
  const release = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flows/{flowId}/versions/{flowVersionId}/release', { params: { path: { flowId: flow.flowId, flowVersionId: version.flowVersionId } } })),
    onSuccess: async () => {
      setIssues(null);
      await queryClient.invalidateQueries({ queryKey: versionsKey(flow.flowId) });
    },
    onError: failureIssues,
  });
  const deprecate = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flows/{flowId}/versions/{flowVersionId}/deprecate', { params: { path: { flowId: flow.flowId, flowVersionId: version.flowVersionId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: versionsKey(flow.flowId) }),
  });
  const versionUrl = (versionNumber: number) => `/t/${tenantNumber}/flows/${flow.flowId}/versions/${versionNumber}`;
  const active = flow.activeVersionId === version.flowVersionId;
  const errors = issues?.filter((issue) => issue.severity === 'error').length ?? 0;

  return (
    <section aria-labelledby="version-title">
      <p className="small">
        <Link to={`/t/${tenantNumber}/device-types/${flow.deviceTypeId}/flow`}>{flow.name}</Link> / Version {version.versionNumber}
      </p>
      <h1 id="version-title">
        {flow.name}: version {version.versionNumber} <span className={`badge ${version.status}`}>{version.status}</span>
        {active ? (
          <>
            {' '}
            <span className="badge active">active</span>
          </>
        ) : null}
      </h1>
      <dl className="facts">
        <dt>Checksum</dt>
        <dd>
          <code title={version.checksum ?? undefined}>{version.checksum ?? '— (set on release)'}</code>
        </dd>
        <dt>Source template</dt>
        <dd>{version.sourceTemplate ? `template version ${version.sourceTemplate.versionNumber}` : '—'}</dd>
        <dt>Created</dt>
        <dd>{formatTime(version.createdAt)}</dd>
        <dt>Released</dt>
        <dd>{formatTime(version.releasedAt)}</dd>
        <dt>Parameters</dt>
        <dd>
          {version.parameters.length === 0
            ? 'none'
            : version.parameters.map((parameter) => (
                <span key={String(parameter.key)} className="param-chip">
                  <code>{String(parameter.key)}</code> ({String(parameter.type)}) = <code>{JSON.stringify(parameter.defaultValue)}</code>
                </span>
              ))}
        </dd>
      </dl>
      {editing && catalog.data ? (
        <FlowEditor
          flowId={flow.flowId}
          base={version}
          catalog={catalog.data.items}
          onCancel={() => setEditing(false)}
          onSaved={(saved) => navigate(versionUrl(saved.versionNumber))}
        />
      ) : (
        <>
          <div className="row">
            <button type="button" onClick={() => validate.mutate()} disabled={validate.isPending}>
              Validate
            </button>
            {version.status === 'draft' && canRelease ? (
              <button type="button" className="primary" onClick={() => release.mutate()} disabled={release.isPending}>
                Release version {version.versionNumber}
              </button>
            ) : null}
            {canRelease ? <ActivateButton current={current} version={version} /> : null}
            {canRelease && version.status === 'released' ? (
              <button
                type="button"
                className="danger"
                disabled={deprecate.isPending}
                onClick={() =>
                  window.confirm(
                    active
                      ? `Deprecate version ${version.versionNumber}? It stays active until another version is activated, and can't be activated again.`
                      : `Deprecate version ${version.versionNumber}? It can't be activated again.`,
                  ) && deprecate.mutate()
                }
              >
                Deprecate version {version.versionNumber}
              </button>
            ) : null}
            {canWrite ? (
              <button type="button" onClick={() => setEditing(true)} disabled={!catalog.data}>
                Edit into a new draft
              </button>
            ) : null}
          </div>
          {catalog.error ? <ErrorBox error={catalog.error} /> : null}
          {validate.error ? <ErrorBox error={validate.error} /> : null}
          {deprecate.error ? <Failure error={deprecate.error} what="flow version" /> : null}
          {release.error && !(release.error instanceof ApiError && release.error.status === 422) ? <Failure error={release.error} what="flow version" /> : null}
          {release.isSuccess ? <p className="notice">Released. Activate it when its fixtures pass.</p> : null}
          {issues ? (
            <div className={errors > 0 ? 'error' : 'notice'} role={errors > 0 ? 'alert' : 'status'}>
              <p>
                {issuesFrom === 'release' ? 'Refused: the version does not compile. ' : ''}
                {errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : 'Valid'}
                {issues.length > errors ? `, ${issues.length - errors} warning${issues.length - errors === 1 ? '' : 's'}` : ''}
                {errors > 0 ? ': they are shown on the nodes and edges they concern.' : '.'}
              </p>
              <ul className="issue-list" aria-label="Validation issues">
                {issues.map((issue, index) => (
                  <li key={index}>
                    {issue.severity} <code>{issue.code}</code> at <code>{issue.path}</code>: {issue.message}
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
          <FlowGraph
            graph={graph}
            label={`Graph of version ${version.versionNumber}${preview.result ? ', with the preview trace' : ''}`}
            catalog={catalog.data?.items}
            pinned={pinned}
            trace={preview.result?.trace}
          />
          {canWrite ? (
            <>
              <PreviewForm
                flow={flow}
                version={version}
                onResult={(result, error) => {
                  setPreview({ result, error });
                  if (error) failureIssues(error);
                }}
              />
              {preview.result ? (
                <section aria-labelledby="preview-result-title" className="card">
                  <h2 id="preview-result-title">Preview result</h2>
                  <ExecutionOutcome result={preview.result} />
                  <h3>Trace</h3>
                  <TraceList trace={preview.result.trace} names={names} />
                </section>
              ) : null}
              <FixtureRunPanel key={version.flowVersionId} flowId={flow.flowId} versions={versions} initialVersionId={version.flowVersionId} />
            </>
          ) : null}
          <p className="small">
            <Link to={`/t/${tenantNumber}/executions?flowId=${flow.flowId}`}>Executions of this flow</Link>
          </p>
        </>
      )}
    </section>
  );
}
