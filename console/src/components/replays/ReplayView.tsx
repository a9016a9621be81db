import { memo } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { ErrorBox, QueryState, formatTime } from '../status';
import type { Replay } from './flows';

type Diff = components['schemas']['ReplayDiffResponse'];
type Example = Diff['examples'][number];
type Output = Example['active'];

/** How often an unfinished replay is read again: its counters and diff grow batch by batch. */
export const REPLAY_POLL_MS = 1500;

export const isFinished = (replay: Pick<Replay, 'status'>) => replay.status === 'succeeded' || replay.status === 'failed' || replay.status === 'cancelled';

/** One replay, polled while it is queued or running. */
export function useReplay(flowId: string, replayId: string | undefined) {
  return useQuery({
    queryKey: ['replay', flowId, replayId],
    enabled: Boolean(replayId),
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/replays/{replayId}', { params: { path: { flowId, replayId: replayId! } } })),
    refetchInterval: (query) => (query.state.data && isFinished(query.state.data) ? false : REPLAY_POLL_MS),
  });
}

/** Status, progress and counters of a replay, with its cancel button while it can still be cancelled. */
export function ReplayProgress({ replay, canCancel }: { replay: Replay; canCancel: boolean }) {
  const queryClient = useQueryClient();
  const cancel = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/flows/{flowId}/replays/{replayId}/cancel', { params: { path: { flowId: replay.flowId, replayId: replay.replayId } } })),
    onSuccess: (data) => {
      queryClient.setQueryData(['replay', replay.flowId, replay.replayId], data);
      return queryClient.invalidateQueries({ queryKey: ['replays', replay.flowId] });
    },
  });
  const total = replay.totalMessages;
  return (
    <div className="card" data-testid="replay-progress">
      <div className="row tight">
        <span className={`badge replay-${replay.status}`} data-testid="replay-status">
          {replay.status}
        </span>
        <span>{replay.dryRun ? 'Dry run: nothing is stored' : 'Real replay: values are stored'}</span>
      </div>
      <p aria-live="polite">
        {total === null ? 'Waiting to start…' : `${replay.processedMessages} of ${total} messages`} · {replay.succeeded} succeeded · {replay.failed} failed · {replay.filtered} filtered
      </p>
      <progress max={Math.max(total ?? 1, 1)} value={total === null ? 0 : replay.processedMessages} aria-label="Replay progress" className="replay-bar" />
      <p className="small">
        Range {formatTime(replay.from)} – {formatTime(replay.to)} · {replay.deviceIds ? `${replay.deviceIds.length} device(s)` : 'all devices of the type'} · requested{' '}
        {formatTime(replay.createdAt)}
        {replay.finishedAt ? ` · finished ${formatTime(replay.finishedAt)}` : ''}
      </p>
      {replay.error ? <ErrorBox error={new Error(`${replay.error.code}: ${replay.error.message}`)} /> : null}
      {canCancel && !isFinished(replay) ? (
        <button type="button" className="danger" onClick={() => cancel.mutate()} disabled={cancel.isPending}>
          Cancel the replay
        </button>
      ) : null}
      {cancel.error ? <ErrorBox error={cancel.error} /> : null}
    </div>
  );
}

const CATEGORIES = [
  ['identical', 'Identical', 'Same status and the same outputs.'],
  ['changed', 'Changed', 'Neither failed; the status or the outputs differ.'],
  ['newlyFailing', 'Newly failing', 'The active version did not fail, the candidate does.'],
  ['newlySucceeding', 'Newly succeeding', 'The active version failed, the candidate does not.'],
] as const;

/** The dry-run diff: category counts, per-field changes and the examples side by side. */
export function ReplayDiff({ diff, activeLabel, candidateLabel, deviceName }: { diff: Diff; activeLabel: string; candidateLabel: string; deviceName: (id: string) => string }) {
  const fields = Object.entries(diff.fields).sort(([a], [b]) => a.localeCompare(b));
  return (
    <section aria-labelledby="diff-title">
      <h2 id="diff-title">
        Diff: {candidateLabel} against the active {activeLabel}
      </h2>
      <div className="table-wrap">
        <table data-testid="diff-summary">
          <caption className="visually-hidden">Messages by outcome</caption>
          <thead>
            <tr>
              <th scope="col">Outcome</th>
              <th scope="col">Messages</th>
              <th scope="col">Meaning</th>
            </tr>
          </thead>
          <tbody>
            {CATEGORIES.map(([key, label, meaning]) => (
              <tr key={key} className={diff[key] > 0 && key !== 'identical' ? `diff-${key}` : undefined}>
                <th scope="row">{label}</th>
                <td data-category={key}>{diff[key]}</td>
                <td className="small">{meaning}</td>
              </tr>
            ))}
            <tr>
              <th scope="row">Compared</th>
              <td data-category="messagesCompared">{diff.messagesCompared}</td>
              <td className="small">Messages run by both versions.</td>
            </tr>
          </tbody>
        </table>
      </div>
      <h3>Fields</h3>
      {fields.length === 0 ? (
        <p className="empty">No field changed.</p>
      ) : (
        <div className="table-wrap">
          <table data-testid="diff-fields">
            <caption className="visually-hidden">Changed fields</caption>
            <thead>
              <tr>
                <th scope="col">Field</th>
                <th scope="col">Messages changed</th>
                <th scope="col">Largest change</th>
              </tr>
            </thead>
            <tbody>
              {fields.map(([key, field]) => (
                <tr key={key} data-field={key}>
                  <td>
                    <code>{key}</code>
                  </td>
                  <td>{field.changed}</td>
                  <td>{field.maxAbsDelta === null ? <span className="muted">not numeric</span> : `± ${formatNumber(field.maxAbsDelta)}`}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h3>Examples</h3>
      {diff.examples.length === 0 ? (
        <p className="empty">Every compared message came out identical.</p>
      ) : (
        <>
          <p className="small">The first {diff.examples.length} messages that differ, in replay order.</p>
          <ol className="diff-examples">
            {diff.examples.map((example) => (
              <DiffExample key={example.rawIngestionMessageId} example={example} activeLabel={activeLabel} candidateLabel={candidateLabel} deviceName={deviceName} />
            ))}
          </ol>
        </>
      )}
    </section>
  );
}

const formatNumber = (value: number) => (Number.isInteger(value) ? String(value) : String(Number(value.toPrecision(10))));

const show = (value: unknown) =>
  value === undefined ? '—' : typeof value === 'number' ? formatNumber(value) : typeof value === 'string' ? value : JSON.stringify(value);

/** One message: each output of the active version next to the candidate's, differences marked. */
const DiffExample = memo(function DiffExample({
  example,
  activeLabel,
  candidateLabel,
  deviceName,
}: {
  example: Example;
  activeLabel: string;
  candidateLabel: string;
  deviceName: (id: string) => string;
}) {
  const rows: { label: string; active: unknown; candidate: unknown }[] = [{ label: 'status', active: example.active.status, candidate: example.candidate.status }];
  for (const target of ['current', 'timeseries'] as const) {
    const keys = [...new Set([...Object.keys(example.active[target]), ...Object.keys(example.candidate[target])])].sort();
    for (const key of keys) rows.push({ label: `${target}.${key}`, active: (example.active as Output)[target][key], candidate: (example.candidate as Output)[target][key] });
  }
  return (
    <li className="card diff-example" data-testid="diff-example">
      <p className="small">
        {formatTime(example.observedAt)} · {deviceName(example.deviceId)} · raw message <code>{example.rawIngestionMessageId.slice(0, 8)}</code>
      </p>
      <div className="table-wrap">
        <table>
          <caption className="visually-hidden">
            Outputs of the message observed {formatTime(example.observedAt)}
          </caption>
          <thead>
            <tr>
              <th scope="col">Output</th>
              <th scope="col">Active ({activeLabel})</th>
              <th scope="col">Candidate ({candidateLabel})</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const differs = JSON.stringify(row.active) !== JSON.stringify(row.candidate);
              return (
                <tr key={row.label} className={differs ? 'differs' : undefined}>
                  <th scope="row">
                    <code>{row.label}</code>
                    {differs ? <span className="visually-hidden"> (differs)</span> : null}
                  </th>
                  <td>{show(row.active)}</td>
                  <td>{show(row.candidate)}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </li>
  );
});

/** A replay's whole page body: progress, then its diff once there is one. */
export function ReplayDetail({
  flowId,
  replayId,
  canRelease,
  versionLabel,
  deviceName,
  tenantNumber,
}: {
  flowId: string;
  replayId: string;
  canRelease: boolean;
  versionLabel: (flowVersionId: string) => string;
  deviceName: (id: string) => string;
  tenantNumber: number;
}) {
  const replay = useReplay(flowId, replayId);
  return (
    <QueryState query={replay} what="the replay">
      {(data) => (
        <>
          <ReplayProgress replay={data} canCancel={canRelease} />
          {data.diff ? (
            <ReplayDiff diff={data.diff} activeLabel={versionLabel(data.diff.comparedWith)} candidateLabel={versionLabel(data.flowVersionId)} deviceName={deviceName} />
          ) : data.dryRun ? (
            <p className="notice">A dry run of the active version itself has nothing to compare with: no diff.</p>
          ) : (
            <p className="small">
              A real replay records <Link to={`/t/${tenantNumber}/executions?flowId=${flowId}`}>executions</Link> of mode replay and stores the values.
            </p>
          )}
        </>
      )}
    </QueryState>
  );
}
