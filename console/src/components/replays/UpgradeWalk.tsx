import { useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { WriteError } from '../Conflict';
import { ErrorBox, Loading } from '../status';
import { ReplayProgress, isFinished, useReplay } from './ReplayView';
import { activateVersion, replayUrl, studioUrl, useFlowVersions, versionUrl, type Flow, type ValidationReport } from './flows';

/** How far back the walk's dry run looks: a week of stored uplinks. */
const DRY_RUN_DAYS = 7;

/**
 * The upgrade of a flow to its template's newer version, one step after the other: copy it into the flow as a draft,
 * validate it, release it, dry-run it against the active version, activate it. A walk left half-way resumes where
 * it stopped (the copy is found by its source template version, the dry run by its version).
 */
export function UpgradeWalk({ flow, tenantNumber, canWrite, canRelease }: { flow: Flow; tenantNumber: number; canWrite: boolean; canRelease: boolean }) {
  const update = flow.templateUpdate!;
  const queryClient = useQueryClient();
  const active = useQuery({
    queryKey: ['flow-version', flow.flowId, flow.activeVersionId],
    enabled: Boolean(flow.activeVersionId),
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/versions/{flowVersionId}', { params: { path: { flowId: flow.flowId, flowVersionId: flow.activeVersionId! } } })),
    staleTime: Infinity,
  });
  const versions = useFlowVersions(flow.flowId);
  const candidate = versions.data?.items.find((version) => version.sourceTemplate?.flowTemplateVersionId === update.flowTemplateVersionId);
  const replays = useQuery({
    queryKey: ['replays', flow.flowId, 'walk'],
    enabled: Boolean(candidate && candidate.status !== 'draft'),
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/replays', { params: { path: { flowId: flow.flowId }, query: { limit: 25 } } })),
  });
  const dryRun = replays.data?.items.find((replay) => replay.dryRun && replay.flowVersionId === candidate?.flowVersionId);
  // The same query the dry run's progress polls, so activation is offered as soon as it has finished.
  const dryRunNow = useReplay(flow.flowId, dryRun?.replayId);
  const [report, setReport] = useState<ValidationReport | null>(null);
  const refreshVersions = () => queryClient.invalidateQueries({ queryKey: ['flow-versions', flow.flowId] });

  const copy = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}/copy', {
          params: { path: { flowTemplateId: active.data!.sourceTemplate!.flowTemplateId, flowTemplateVersionId: update.flowTemplateVersionId } },
          body: { flowId: flow.flowId },
        }),
      ),
    onSuccess: refreshVersions,
  });
  const validate = useMutation({
    mutationFn: (flowVersionId: string) => unwrap(api.POST('/v1/flows/{flowId}/versions/{flowVersionId}/validate', { params: { path: { flowId: flow.flowId, flowVersionId } } })),
    onSuccess: setReport,
  });
  const release = useMutation({
    mutationFn: (flowVersionId: string) => unwrap(api.POST('/v1/flows/{flowId}/versions/{flowVersionId}/release', { params: { path: { flowId: flow.flowId, flowVersionId } } })),
    onSuccess: refreshVersions,
  });
  const startDryRun = useMutation({
    mutationFn: (flowVersionId: string) => {
      const now = Date.now();
      return unwrap(
        api.POST('/v1/flows/{flowId}/replays', {
          params: { path: { flowId: flow.flowId } },
          body: { from: new Date(now - DRY_RUN_DAYS * 86_400_000).toISOString(), to: new Date(now + 60_000).toISOString(), flowVersionId, dryRun: true },
        }),
      );
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['replays', flow.flowId] }),
  });
  const activate = useMutation({
    mutationFn: (flowVersionId: string) => activateVersion(flow.flowId, flowVersionId),
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: ['flows'] }), queryClient.invalidateQueries({ queryKey: ['flow', flow.flowId] })]),
  });

  if (active.isPending || versions.isPending) return <Loading what="the upgrade" />;
  if (active.error) return <ErrorBox error={active.error} />;
  if (versions.error) return <ErrorBox error={versions.error} />;
  const source = active.data.sourceTemplate;
  const released = candidate !== undefined && candidate.status !== 'draft';
  const valid = report?.valid === true || released;
  const dryRunDone = (dryRunNow.data ?? dryRun)?.status === 'succeeded';

  return (
    <ol className="walk" aria-label={`Upgrade of ${flow.name}`}>
      <li className={candidate ? 'step done' : 'step'}>
        <h4>1. Copy template v{update.versionNumber} into the flow</h4>
        {candidate ? (
          <p>
            Draft <Link to={versionUrl(tenantNumber, flow.flowId, candidate.versionNumber)}>v{candidate.versionNumber}</Link> of the flow holds it (
            {candidate.status}). Change details in the <Link to={studioUrl(tenantNumber, flow)}>studio</Link>.
          </p>
        ) : (
          <button type="button" className="primary" disabled={!canWrite || !source || copy.isPending} onClick={() => copy.mutate()}>
            Copy v{update.versionNumber} as a new draft
          </button>
        )}
        {copy.error ? <ErrorBox error={copy.error} /> : null}
      </li>
      <li className={valid ? 'step done' : 'step'}>
        <h4>2. Validate it against the device type’s fields</h4>
        {candidate ? (
          <>
            <button type="button" disabled={validate.isPending} onClick={() => validate.mutate(candidate.flowVersionId)}>
              Validate v{candidate.versionNumber}
            </button>
            {report ? <ValidationResult report={report} /> : null}
            {validate.error ? <ErrorBox error={validate.error} /> : null}
          </>
        ) : null}
      </li>
      <li className={released ? 'step done' : 'step'}>
        <h4>3. Release it</h4>
        {candidate && !released ? (
          <button type="button" disabled={!canRelease || release.isPending} onClick={() => release.mutate(candidate.flowVersionId)}>
            Release v{candidate.versionNumber}
          </button>
        ) : null}
        {released ? <p>Released{candidate.checksum ? <> (checksum <code>{candidate.checksum.slice(0, 12)}</code>)</> : null}.</p> : null}
        {release.error ? <ErrorBox error={release.error} /> : null}
      </li>
      <li className={dryRunDone ? 'step done' : 'step'}>
        <h4>4. Dry-run it over the last {DRY_RUN_DAYS} days against the active v{flow.activeVersionNumber}</h4>
        {released && !dryRun ? (
          <button type="button" disabled={!canRelease || startDryRun.isPending} onClick={() => startDryRun.mutate(candidate.flowVersionId)}>
            Start the dry run
          </button>
        ) : null}
        {dryRun ? <WalkDryRun flowId={flow.flowId} replayId={dryRun.replayId} tenantNumber={tenantNumber} /> : null}
        {startDryRun.error ? <ErrorBox error={startDryRun.error} /> : null}
      </li>
      <li className="step">
        <h4>5. Activate it</h4>
        {released ? (
          <button
            type="button"
            className="primary"
            disabled={!canRelease || activate.isPending || !dryRunDone}
            onClick={() => window.confirm(`Activate v${candidate.versionNumber}? New uplinks run through it from now on.`) && activate.mutate(candidate.flowVersionId)}
          >
            Activate v{candidate.versionNumber}
          </button>
        ) : null}
        {activate.error ? <WriteError error={activate.error} what="flow" onReload={() => activate.reset()} /> : null}
      </li>
    </ol>
  );
}

function ValidationResult({ report }: { report: ValidationReport }) {
  return (
    <div data-testid="validation-report">
      <p className={report.valid ? 'notice' : 'error'}>{report.valid ? 'Valid: no errors.' : 'Not valid: fix the errors in the studio (a new draft) first.'}</p>
      {report.issues.length > 0 ? (
        <ul>
          {report.issues.map((issue, index) => (
            <li key={index}>
              <span className={`badge issue-${issue.severity}`}>{issue.severity}</span> <code>{issue.code}</code> {issue.path ? <code className="small">{issue.path}</code> : null}{' '}
              {issue.message}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}

function WalkDryRun({ flowId, replayId, tenantNumber }: { flowId: string; replayId: string; tenantNumber: number }) {
  const replay = useReplay(flowId, replayId);
  if (!replay.data) return replay.error ? <ErrorBox error={replay.error} /> : <Loading what="the dry run" />;
  const { diff } = replay.data;
  return (
    <>
      <ReplayProgress replay={replay.data} canCancel={false} />
      {diff && isFinished(replay.data) ? (
        <p data-testid="walk-diff">
          {diff.messagesCompared} compared: {diff.identical} identical, {diff.changed} changed, {diff.newlyFailing} newly failing, {diff.newlySucceeding} newly
          succeeding.
        </p>
      ) : null}
      <Link to={replayUrl(tenantNumber, replay.data)}>See the diff with its examples</Link>
    </>
  );
}
