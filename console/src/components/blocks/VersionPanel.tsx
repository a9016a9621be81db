import { useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { ErrorBox, QueryState, formatTime } from '../status';
import { CodeEditor, type CodeEditorHandle, type CodeMarker } from './CodeEditor';
import { GateReport, IssueList, JsonBlock, issueWhere, type GateIssue, type GateReportData } from './GateReport';
import { Playground } from './Playground';

type Version = components['schemas']['FlowBlockVersionResponse'];

const markersOf = (issues: GateIssue[]): CodeMarker[] =>
  issues
    .filter((issue) => issue.line !== undefined)
    .map((issue) => ({
      line: issue.line as number,
      column: issue.column,
      severity: issue.severity === 'warning' ? 'warning' : 'error',
      message: `${issue.code}: ${issue.message}`,
    }));

/** A 422 FLOW_FAILURE of the release: which gate refused and its issues. */
function gateFailureOf(error: unknown): { gate: string; issues: GateIssue[] } | null {
  if (!(error instanceof ApiError) || error.status !== 422) return null;
  const issues = Array.isArray(error.details.issues) ? (error.details.issues as GateIssue[]) : [];
  return { gate: typeof error.details.gate === 'string' ? error.details.gate : 'sandbox', issues };
}

/**
 * One version: its source (read-only, versions never change) with the last gate issues and the playground's last
 * failure marked at their line and column, and the actions its status allows: compile (the compile gate alone,
 * nothing changes), release (both gates on the sample; refused with the issues when a gate fails), deprecate, and
 * the codec playground (a dry run on any bytes or stored raw message, in any status).
 */
export function VersionPanel({
  flowBlockId,
  flowBlockVersionId,
  canWrite,
  canRelease,
  onEditAsDraft,
}: {
  flowBlockId: string;
  flowBlockVersionId: string;
  canWrite: boolean;
  canRelease: boolean;
  onEditAsDraft: (version: Version) => void;
}) {
  const queryClient = useQueryClient();
  const editor = useRef<CodeEditorHandle>(null);
  const [compiled, setCompiled] = useState<{ passed: boolean; gateReport: GateReportData } | null>(null);
  const [runIssues, setRunIssues] = useState<GateIssue[]>([]);
  const path = { flowBlockId, flowBlockVersionId };
  const version = useQuery({
    queryKey: ['flow-block-version', flowBlockVersionId],
    queryFn: () => unwrap(api.GET('/v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}', { params: { path } })),
  });
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: ['flow-block-version', flowBlockVersionId] });
    await queryClient.invalidateQueries({ queryKey: ['flow-block-versions', flowBlockId] });
    await queryClient.invalidateQueries({ queryKey: ['flow-block', flowBlockId] });
  };
  const compile = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}/compile', { params: { path } })),
    onSuccess: setCompiled,
  });
  const release = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}/release', { params: { path } })),
    onSuccess: async () => {
      setCompiled(null);
      await refresh();
    },
  });
  const deprecate = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flow-blocks/{flowBlockId}/versions/{flowBlockVersionId}/deprecate', { params: { path } })),
    onSuccess: refresh,
  });
  const goTo = (line: number, column?: number) => editor.current?.goTo(line, column);

  return (
    <QueryState query={version} what="the version">
      {(data) => {
        const failure = gateFailureOf(release.error);
        // The newest gate outcome wins: a failed release, else a compile run here, else the stored release report.
        const issues = failure?.issues ?? compiled?.gateReport.issues ?? data.gateReport?.issues ?? [];
        const first = issues.find((issue) => issue.line !== undefined);
        return (
          <section className="version" aria-labelledby="version-title">
            <h2 id="version-title">
              Version {data.versionNumber} <span className={`badge ${data.status}`}>{data.status}</span>
            </h2>
            <dl className="facts">
              <dt>Script contract</dt>
              <dd>{data.scriptContract ? <code>{data.scriptContract}</code> : 'not known until the source compiles'}</dd>
              <dt>Created</dt>
              <dd>{formatTime(data.createdAt)}</dd>
              {data.releasedAt ? (
                <>
                  <dt>Released</dt>
                  <dd>{formatTime(data.releasedAt)}</dd>
                </>
              ) : null}
              {data.deprecatedAt ? (
                <>
                  <dt>Deprecated</dt>
                  <dd>{formatTime(data.deprecatedAt)}</dd>
                </>
              ) : null}
              <dt>Source SHA-256</dt>
              <dd>
                <code>{data.sourceSha256}</code>
              </dd>
              {data.notes ? (
                <>
                  <dt>Notes</dt>
                  <dd>{data.notes}</dd>
                </>
              ) : null}
            </dl>
            {first ? (
              <p className="error" role="alert" data-testid="first-issue">
                <strong>{issueWhere(first)}</strong> {first.code}: {first.message}
              </p>
            ) : null}
            <CodeEditor ref={editor} value={data.sourceCode} language="javascript" label={`Script source of version ${data.versionNumber}`} markers={markersOf([...issues, ...runIssues])} testId="version-source" />
            <div className="row">
              {canWrite ? (
                <button type="button" onClick={() => compile.mutate()} disabled={compile.isPending}>
                  Compile
                </button>
              ) : null}
              {canRelease && data.status === 'draft' ? (
                <button type="button" className="primary" onClick={() => release.mutate()} disabled={release.isPending}>
                  {release.isPending ? 'Running the gates…' : 'Release'}
                </button>
              ) : null}
              {canRelease && data.status === 'released' ? (
                <button
                  type="button"
                  className="danger"
                  onClick={() => window.confirm(`Deprecate version ${data.versionNumber}? New flow releases can no longer use it; released flows keep running it.`) && deprecate.mutate()}
                  disabled={deprecate.isPending}
                >
                  Deprecate
                </button>
              ) : null}
              {canWrite ? (
                <button type="button" onClick={() => onEditAsDraft(data)}>
                  Edit as a new draft
                </button>
              ) : null}
            </div>
            {compile.error ? <ErrorBox error={compile.error} /> : null}
            {deprecate.error ? <ErrorBox error={deprecate.error} /> : null}
            {failure ? (
              <div className="card gate-report" role="region" aria-label="Release refused">
                <h3>Release refused: the {failure.gate} gate failed</h3>
                <p className="small">Nothing changed; the version is still a draft.</p>
                <IssueList issues={failure.issues} onGoTo={goTo} />
              </div>
            ) : release.error ? (
              <ErrorBox error={release.error} />
            ) : null}
            {compiled ? <GateReport report={compiled.gateReport} title={compiled.passed ? 'Compile passed' : 'Compile failed'} onGoTo={goTo} /> : null}
            {data.gateReport ? <GateReport report={data.gateReport} title="Release gate report" onGoTo={goTo} /> : null}
            {canWrite ? (
              <Playground flowBlockId={flowBlockId} flowBlockVersionId={flowBlockVersionId} sampleInput={data.sampleInput} onIssues={setRunIssues} onGoTo={goTo} />
            ) : null}
            <details>
              <summary>Sample input and configuration schema</summary>
              <h3>Sample input</h3>
              <JsonBlock value={data.sampleInput} label="Sample input" />
              <h3>Configuration schema</h3>
              {data.configurationSchema ? <JsonBlock value={data.configurationSchema} label="Configuration schema" /> : <p className="small">None.</p>}
            </details>
          </section>
        );
      }}
    </QueryState>
  );
}
