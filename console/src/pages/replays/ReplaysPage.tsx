import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { canTenantWide, useMe } from '../../auth/me';
import { Empty, ErrorBox, QueryState, formatTime } from '../../components/status';
import { isFinished, REPLAY_POLL_MS } from '../../components/replays/ReplayView';
import { fromLocalInput, replayUrl, studioUrl, toLocalInput, useFlowVersions, useTenantFlows, type Flow } from '../../components/replays/flows';
import { useTenantNumber } from '../../tenant';
import { Pager } from '../../components/Pager';

/**
 * Replays of one flow: start a dry run of a candidate version (compared with the active one) or a real replay over
 * a time range and devices, and the flow's replays newest first.
 */
export function ReplaysPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const [search, setSearch] = useSearchParams();
  const flows = useTenantFlows(tenantNumber);
  const flowId = search.get('flowId') ?? flows.data?.items[0]?.flowId ?? '';
  const flow = flows.data?.items.find((entry) => entry.flowId === flowId);
  const canRelease = canTenantWide(me.data, tenantNumber, 'flows:release');

  return (
    <section aria-labelledby="replays-title">
      <h1 id="replays-title">Replays</h1>
      <p className="small">
        Run stored uplinks through a version again. A dry run of a candidate stores nothing and shows how its outputs differ from the active version’s, before
        you activate it.
      </p>
      <QueryState query={flows} what="flows">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No flows yet: a device type’s flow is created in the flow studio.</Empty>
          ) : (
            <>
              <label className="flow-pick">
                Flow
                <select
                  value={flowId}
                  onChange={(event) => {
                    const next = new URLSearchParams();
                    next.set('flowId', event.target.value);
                    setSearch(next);
                  }}
                >
                  {page.items.map((entry) => (
                    <option key={entry.flowId} value={entry.flowId}>
                      {entry.name} ({entry.deviceTypeName})
                    </option>
                  ))}
                </select>
              </label>
              {flow ? (
                <>
                  <p className="small">
                    Active version: {flow.activeVersionNumber === null ? 'none yet' : `v${flow.activeVersionNumber}`} ·{' '}
                    <Link to={studioUrl(tenantNumber, flow)}>open the flow in the studio</Link>
                  </p>
                  {canRelease ? <StartReplay key={flow.flowId} flow={flow} tenantNumber={tenantNumber} presetVersionId={search.get('flowVersionId') ?? undefined} /> : null}
                  <ReplayList flow={flow} tenantNumber={tenantNumber} />
                </>
              ) : null}
            </>
          )
        }
      </QueryState>
    </section>
  );
}

function StartReplay({ flow, tenantNumber, presetVersionId }: { flow: Flow; tenantNumber: number; presetVersionId?: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const released = useFlowVersions(flow.flowId, 'released');
  const devices = useQuery({
    queryKey: ['devices', tenantNumber, { deviceTypeId: flow.deviceTypeId }, 'replay-pick'],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/devices', { params: { path: { tenantNumber }, query: { deviceTypeId: flow.deviceTypeId, limit: 100 } } })),
  });
  const now = new Date();
  const [from, setFrom] = useState(toLocalInput(new Date(now.getTime() - 86_400_000)));
  const [to, setTo] = useState(toLocalInput(new Date(now.getTime() + 60_000)));
  const [versionId, setVersionId] = useState(presetVersionId ?? '');
  const [dryRun, setDryRun] = useState(true);
  const [allDevices, setAllDevices] = useState(true);
  const [chosen, setChosen] = useState<Set<string>>(new Set());
  // A candidate other than the active version is the point of a dry run: preselect the newest such one.
  const candidates = released.data?.items ?? [];
  const effectiveVersion = versionId || candidates.find((version) => version.flowVersionId !== flow.activeVersionId)?.flowVersionId || flow.activeVersionId || '';

  const start = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/flows/{flowId}/replays', {
          params: { path: { flowId: flow.flowId } },
          body: {
            from: fromLocalInput(from),
            to: fromLocalInput(to),
            ...(effectiveVersion ? { flowVersionId: effectiveVersion } : {}),
            ...(allDevices ? {} : { deviceIds: [...chosen] }),
            dryRun,
          },
        }),
      ),
    onSuccess: async (replay) => {
      await queryClient.invalidateQueries({ queryKey: ['replays', flow.flowId] });
      navigate(replayUrl(tenantNumber, replay));
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!dryRun && !window.confirm('A real replay stores the values again (replacing points at the same time) and records executions. Start it?')) return;
    start.mutate();
  };
  const toggle = (deviceId: string, on: boolean) =>
    setChosen((current) => {
      const next = new Set(current);
      if (on) next.add(deviceId);
      else next.delete(deviceId);
      return next;
    });

  return (
    <form className="card" aria-labelledby="start-title" onSubmit={submit}>
      <h2 id="start-title">Start a replay</h2>
      {flow.activeVersionId === null ? <p className="notice">This flow has no active version: a replay needs one (a dry run compares with it).</p> : null}
      <div className="grid3">
        <label>
          Version
          <select value={effectiveVersion} onChange={(event) => setVersionId(event.target.value)} required>
            {candidates.length === 0 ? <option value="">No released version</option> : null}
            {candidates.map((version) => (
              <option key={version.flowVersionId} value={version.flowVersionId}>
                v{version.versionNumber}
                {version.flowVersionId === flow.activeVersionId ? ' (active)' : ''}
                {version.sourceTemplate ? ` · template v${version.sourceTemplate.versionNumber}` : ''}
              </option>
            ))}
          </select>
        </label>
        <label>
          Observed from
          <input type="datetime-local" required value={from} onChange={(event) => setFrom(event.target.value)} />
        </label>
        <label>
          Observed until (exclusive)
          <input type="datetime-local" required value={to} onChange={(event) => setTo(event.target.value)} />
        </label>
      </div>
      <fieldset>
        <legend>Devices</legend>
        <label className="inline">
          <input type="checkbox" checked={allDevices} onChange={(event) => setAllDevices(event.target.checked)} /> Every device of {flow.deviceTypeName}
        </label>
        {allDevices ? null : devices.isPending ? (
          <p className="small">Loading devices…</p>
        ) : devices.error ? (
          <ErrorBox error={devices.error} />
        ) : (
          <div className="device-picks">
            {devices.data.items.map((device) => (
              <label key={device.deviceId} className="inline">
                <input type="checkbox" checked={chosen.has(device.deviceId)} onChange={(event) => toggle(device.deviceId, event.target.checked)} /> {device.name}{' '}
                <code className="small">{device.devEui}</code>
              </label>
            ))}
            {devices.data.items.length === 0 ? <p className="small">No devices of this type.</p> : null}
          </div>
        )}
      </fieldset>
      <label className="inline">
        <input type="checkbox" checked={dryRun} onChange={(event) => setDryRun(event.target.checked)} /> Dry run (store nothing; compare with the active version)
      </label>
      {start.error ? <ErrorBox error={start.error} /> : null}
      <button type="submit" className="primary" disabled={start.isPending || !effectiveVersion || (!allDevices && chosen.size === 0)}>
        {dryRun ? 'Start the dry run' : 'Start the replay'}
      </button>
    </form>
  );
}

function ReplayList({ flow, tenantNumber }: { flow: Flow; tenantNumber: number }) {
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const versions = useFlowVersions(flow.flowId);
  const replays = useQuery({
    queryKey: ['replays', flow.flowId, cursor ?? null],
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/replays', { params: { path: { flowId: flow.flowId }, query: { limit: 25, ...(cursor ? { cursor } : {}) } } })),
    placeholderData: keepPreviousData,
    // While one is unfinished its counters move: read the page again now and then.
    refetchInterval: (query) => (query.state.data?.items.some((replay) => !isFinished(replay)) ? REPLAY_POLL_MS * 2 : false),
  });
  const versionNumber = (id: string) => versions.data?.items.find((version) => version.flowVersionId === id)?.versionNumber;
  return (
    <>
      <h2>Replays of {flow.name}</h2>
      <QueryState query={replays} what="replays">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No replays of this flow yet.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table data-testid="replays">
                  <caption className="visually-hidden">Replays of {flow.name}, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Requested</th>
                      <th scope="col">Kind</th>
                      <th scope="col">Version</th>
                      <th scope="col">Status</th>
                      <th scope="col">Messages</th>
                      <th scope="col">Diff</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((replay) => (
                      <tr key={replay.replayId}>
                        <td>
                          <Link to={replayUrl(tenantNumber, replay)}>{formatTime(replay.createdAt)}</Link>
                        </td>
                        <td>{replay.dryRun ? 'dry run' : 'replay'}</td>
                        <td>{versionNumber(replay.flowVersionId) ? `v${versionNumber(replay.flowVersionId)}` : replay.flowVersionId.slice(0, 8)}</td>
                        <td>
                          <span className={`badge replay-${replay.status}`}>{replay.status}</span>
                        </td>
                        <td>
                          {replay.processedMessages}
                          {replay.totalMessages === null ? '' : ` / ${replay.totalMessages}`}
                        </td>
                        <td>
                          {replay.diff
                            ? `${replay.diff.changed} changed, ${replay.diff.newlyFailing} newly failing, ${replay.diff.newlySucceeding} newly succeeding`
                            : '—'}
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="row">
                <Pager cursors={cursors} onChange={setCursors} nextCursor={page.nextCursor} labels={['Newer', 'Older']} />
              </div>
            </>
          )
        }
      </QueryState>
    </>
  );
}
