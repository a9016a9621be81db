import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { canTenantWide, useMe } from '../../auth/me';
import { WriteError } from '../../components/Conflict';
import { ErrorBox, QueryState } from '../../components/status';
import { ReplayDetail, isFinished, useReplay } from '../../components/replays/ReplayView';
import { activateVersion, replayUrl, studioUrl, useFlowVersions, type Flow, type Replay } from '../../components/replays/flows';
import { useTenantNumber } from '../../tenant';

/** One replay: progress while it runs, the diff of a dry run, and what to do next (replay for real, activate). */
export function ReplayPage() {
  const tenantNumber = useTenantNumber();
  const { replayId = '' } = useParams();
  const [search] = useSearchParams();
  const flowId = search.get('flowId') ?? '';
  const me = useMe(tenantNumber);
  const canRelease = canTenantWide(me.data, tenantNumber, 'flows:release');
  const flow = useQuery({
    queryKey: ['flow', flowId],
    enabled: Boolean(flowId),
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}', { params: { path: { flowId } } })),
  });
  const versions = useFlowVersions(flowId || undefined);
  const devices = useQuery({
    queryKey: ['devices', tenantNumber, { deviceTypeId: flow.data?.deviceTypeId }, 'replay-pick'],
    enabled: Boolean(flow.data),
    queryFn: () =>
      unwrap(api.GET('/v1/tenants/{tenantNumber}/devices', { params: { path: { tenantNumber }, query: { deviceTypeId: flow.data!.deviceTypeId, limit: 100 } } })),
  });
  if (!flowId) {
    return (
      <section aria-labelledby="replay-title">
        <h1 id="replay-title">Replay</h1>
        <ErrorBox error={new Error('This link lacks its flow. Open the replay from the list of its flow’s replays.')} />
        <Link to={`/t/${tenantNumber}/replays`}>Replays</Link>
      </section>
    );
  }
  const versionLabel = (id: string) => {
    const number = versions.data?.items.find((version) => version.flowVersionId === id)?.versionNumber;
    return number === undefined ? id.slice(0, 8) : `v${number}`;
  };
  const deviceName = (id: string) => devices.data?.items.find((device) => device.deviceId === id)?.name ?? id.slice(0, 8);
  return (
    <QueryState query={flow} what="the flow">
      {(data) => (
        <section aria-labelledby="replay-title">
          <p className="small">
            <Link to={`/t/${tenantNumber}/replays?flowId=${flowId}`}>Replays</Link> / {data.name}
          </p>
          <h1 id="replay-title">Replay of {data.name}</h1>
          <ReplayDetail flowId={flowId} replayId={replayId} canRelease={canRelease} versionLabel={versionLabel} deviceName={deviceName} tenantNumber={tenantNumber} />
          {canRelease ? <NextSteps flow={data} replayId={replayId} tenantNumber={tenantNumber} versionLabel={versionLabel} /> : null}
        </section>
      )}
    </QueryState>
  );
}

/** After a finished dry run of a candidate: run it for real, or activate the candidate. */
function NextSteps({ flow, replayId, tenantNumber, versionLabel }: { flow: Flow; replayId: string; tenantNumber: number; versionLabel: (id: string) => string }) {
  const replay = useReplay(flow.flowId, replayId);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const real = useMutation({
    mutationFn: (source: Replay) =>
      unwrap(
        api.POST('/v1/flows/{flowId}/replays', {
          params: { path: { flowId: flow.flowId } },
          body: { from: source.from, to: source.to, flowVersionId: source.flowVersionId, ...(source.deviceIds ? { deviceIds: source.deviceIds } : {}), dryRun: false },
        }),
      ),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ['replays', flow.flowId] });
      navigate(replayUrl(tenantNumber, created));
    },
  });
  const activate = useMutation({
    mutationFn: (flowVersionId: string) => activateVersion(flow.flowId, flowVersionId),
    onSuccess: (updated) => {
      queryClient.setQueryData(['flow', flow.flowId], updated);
      return queryClient.invalidateQueries({ queryKey: ['flows'] });
    },
  });
  const data = replay.data;
  if (!data || !isFinished(data) || data.status !== 'succeeded' || !data.dryRun) return null;
  const candidateIsActive = flow.activeVersionId === data.flowVersionId;
  return (
    <div className="card">
      <h2>Next</h2>
      <div className="row">
        <button
          type="button"
          onClick={() =>
            window.confirm(`Replay ${versionLabel(data.flowVersionId)} for real over the same range? It stores the values and records executions.`) && real.mutate(data)
          }
          disabled={real.isPending}
        >
          Replay {versionLabel(data.flowVersionId)} for real
        </button>
        {candidateIsActive ? (
          <span className="badge active">{versionLabel(data.flowVersionId)} is active</span>
        ) : (
          <button
            type="button"
            className="primary"
            onClick={() => window.confirm(`Activate ${versionLabel(data.flowVersionId)}? New uplinks run through it from now on.`) && activate.mutate(data.flowVersionId)}
            disabled={activate.isPending}
          >
            Activate {versionLabel(data.flowVersionId)}
          </button>
        )}
        <Link to={studioUrl(tenantNumber, flow)}>Open the flow in the studio</Link>
      </div>
      {real.error ? <ErrorBox error={real.error} /> : null}
      {activate.error ? <WriteError error={activate.error} what="flow" onReload={() => activate.reset()} /> : null}
      {activate.isSuccess ? <p className="notice">{versionLabel(data.flowVersionId)} is now the active version.</p> : null}
    </div>
  );
}
