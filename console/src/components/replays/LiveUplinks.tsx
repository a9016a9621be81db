import { memo, useState, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { can, isPlatformAdmin, useMe } from '../../auth/me';
import { useTenantNumber } from '../../tenant';
import { ErrorBox, Loading, formatTime } from '../status';

type Execution = components['schemas']['ExecutionResponse'];

/**
 * One list call per interval: the flow's executions filtered by device, newest first, on the
 * (flow_id, device_id, started_at DESC) index, at most LIVE_LIMIT rows. The rest (payload, values, deliveries) is
 * read once per uplink, only when someone opens it.
 */
export const LIVE_INTERVAL_MS = 2000;
export const LIVE_LIMIT = 20;

function subscribeVisibility(onChange: () => void): () => void {
  document.addEventListener('visibilitychange', onChange);
  return () => document.removeEventListener('visibilitychange', onChange);
}

/** Whether the tab is shown: polling stops while it is hidden. */
function usePageVisible(): boolean {
  return useSyncExternalStore(subscribeVisibility, () => document.visibilityState !== 'hidden');
}

/** A device's recent uplinks as its flow ran them, refreshing while the page is open and shown. */
export function LiveUplinks({ deviceId }: { deviceId: string }) {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const device = useQuery({
    queryKey: ['device', deviceId],
    queryFn: () => unwrap(api.GET('/v1/devices/{deviceId}', { params: { path: { deviceId } } })),
  });
  const deviceTypeId = device.data?.deviceTypeId;
  const mayRead = can(me.data, tenantNumber, 'flows:read');
  // The tenant's flow list filtered by the device type answers an empty page for a type without a flow (no 404).
  const flow = useQuery({
    queryKey: ['device-type-flow', tenantNumber, deviceTypeId],
    enabled: Boolean(deviceTypeId) && mayRead,
    queryFn: async () => {
      const page = await unwrap(api.GET('/v1/tenants/{tenantNumber}/flows', { params: { path: { tenantNumber }, query: { deviceTypeId: deviceTypeId! } } }));
      return page.items[0] ?? null;
    },
    staleTime: 60_000,
  });
  const visible = usePageVisible();
  const [paused, setPaused] = useState(false);
  const polling = visible && !paused;
  const flowId = flow.data?.flowId;
  const executions = useQuery({
    queryKey: ['live-uplinks', flowId, deviceId],
    enabled: Boolean(flowId),
    queryFn: () =>
      unwrap(api.GET('/v1/flows/{flowId}/executions', { params: { path: { flowId: flowId! }, query: { deviceId, mode: 'live', limit: LIVE_LIMIT } } })),
    refetchInterval: polling ? LIVE_INTERVAL_MS : false,
    refetchIntervalInBackground: false,
    refetchOnWindowFocus: polling,
  });
  const [open, setOpen] = useState<string | null>(null);

  let body;
  if (me.isPending || device.isPending) body = <Loading what="the live view" />;
  else if (!mayRead || (flow.error instanceof ApiError && flow.error.status === 403)) body = <p className="empty">Seeing the processed uplinks needs permission to read flows.</p>;
  else if (deviceTypeId && flow.isPending) body = <Loading what="the live view" />;
  else if (flow.data === null) body = <p className="empty">The device type has no flow yet: uplinks are stored but not processed.</p>;
  else if (flow.error) body = <ErrorBox error={flow.error} onRetry={() => void flow.refetch()} />;
  else if (executions.isPending) body = <Loading what="recent uplinks" />;
  else if (executions.error && !executions.data) body = <ErrorBox error={executions.error} onRetry={() => void executions.refetch()} />;
  else {
    const items = executions.data?.items ?? [];
    body = (
      <>
        {executions.error ? <ErrorBox error={executions.error} /> : null}
        {items.length === 0 ? (
          <p className="empty">No uplink of this device ran through the flow in the last 24 hours.</p>
        ) : (
          <ul className="live-list" data-testid="live-uplinks" aria-label="Recent uplinks, newest first">
            {items.map((execution) => (
              <LiveRow
                key={execution.flowExecutionId}
                execution={execution}
                open={open === execution.flowExecutionId}
                onToggle={setOpen}
                tenantNumber={tenantNumber}
                rawLinks={isPlatformAdmin(me.data)}
              />
            ))}
          </ul>
        )}
      </>
    );
  }

  return (
    <section aria-labelledby="live-title" className="live-uplinks">
      <h2 id="live-title">Live uplinks</h2>
      <div className="row tight">
        <span className={`badge ${polling ? 'active' : 'disabled'}`} data-testid="live-state">
          {paused ? 'paused' : visible ? 'live' : 'paused while hidden'}
        </span>
        <span className="small">
          The last {LIVE_LIMIT} processed uplinks, read every {LIVE_INTERVAL_MS / 1000} s
          {executions.dataUpdatedAt ? ` · updated ${new Date(executions.dataUpdatedAt).toLocaleTimeString()}` : ''}
        </span>
        <button type="button" onClick={() => setPaused((value) => !value)} aria-pressed={paused}>
          {paused ? 'Resume' : 'Pause'}
        </button>
        {flowId ? <Link to={`/t/${tenantNumber}/executions?flowId=${flowId}&deviceId=${deviceId}`}>All executions</Link> : null}
      </div>
      {body}
    </section>
  );
}

/** One uplink; unchanged rows keep their props between polls (the query shares structure), so they do not re-render. */
const LiveRow = memo(function LiveRow({
  execution,
  open,
  onToggle,
  tenantNumber,
  rawLinks,
}: {
  execution: Execution;
  open: boolean;
  onToggle: (id: string | null) => void;
  tenantNumber: number;
  rawLinks: boolean;
}) {
  const id = execution.flowExecutionId;
  return (
    <li className={`live-row ${execution.status}`}>
      <div className="live-head">
        <button type="button" className="link" aria-expanded={open} aria-controls={`live-${id}`} onClick={() => onToggle(open ? null : id)}>
          {formatTime(execution.observedAt)}
        </button>
        <span className={`badge exec-${execution.status}`}>{execution.status}</span>
        <span className="small">
          v{execution.versionNumber} · {execution.durationMs.toFixed(1)} ms
        </span>
        <span className="small">
          raw{' '}
          {execution.rawIngestionMessageId === null ? (
            '—'
          ) : rawLinks ? (
            <Link to={`/t/${tenantNumber}/raw-messages/${execution.rawIngestionMessageId}`}>{execution.rawIngestionMessageId.slice(0, 8)}</Link>
          ) : (
            <code>{execution.rawIngestionMessageId.slice(0, 8)}</code>
          )}
        </span>
        <Link className="small" to={`/t/${tenantNumber}/executions/${id}?flowId=${execution.flowId}`}>
          trace
        </Link>
      </div>
      {execution.error ? (
        <p className="small live-error">
          {execution.error.nodeId ? `${execution.error.nodeId}: ` : ''}
          {execution.error.code} — {execution.error.message}
        </p>
      ) : null}
      {open ? <LiveDetail flowId={execution.flowId} executionId={id} /> : null}
    </li>
  );
});

/** Payload, values and deliveries of one uplink: an execution never changes, so it is read once. */
function LiveDetail({ flowId, executionId }: { flowId: string; executionId: string }) {
  const detail = useQuery({
    queryKey: ['execution', flowId, executionId],
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/executions/{flowExecutionId}', { params: { path: { flowId, flowExecutionId: executionId } } })),
    staleTime: Infinity,
  });
  if (detail.isPending) return <Loading what="the uplink" />;
  if (detail.error) return <ErrorBox error={detail.error} onRetry={() => void detail.refetch()} />;
  const data = detail.data;
  const values = [...Object.entries(data.current).map(([key, value]) => ['current', key, value] as const), ...Object.entries(data.timeseries).map(([key, value]) => ['timeseries', key, value] as const)];
  return (
    <div id={`live-${executionId}`} className="live-detail" data-testid="live-detail">
      <dl className="facts">
        <dt>Payload</dt>
        <dd>{data.input.rawPayload ? <code>{`${data.input.rawPayload.encoding}: ${data.input.rawPayload.data}`}</code> : '—'}</dd>
        <dt>Received</dt>
        <dd>{formatTime(data.rawReceivedAt)}</dd>
        <dt>Correlation id</dt>
        <dd>
          <code>{data.correlationId}</code>
        </dd>
        <dt>Values</dt>
        <dd>
          {values.length === 0 ? (
            'none'
          ) : (
            <ul className="plain">
              {values.map(([target, key, value]) => (
                <li key={`${target}.${key}`}>
                  <code>{key}</code> = {typeof value === 'object' ? JSON.stringify(value) : String(value)} <span className="small">({target})</span>
                </li>
              ))}
            </ul>
          )}
        </dd>
        <dt>Deliveries</dt>
        <dd>
          {data.emailDeliveries.length === 0 ? (
            'none'
          ) : (
            <ul className="plain">
              {data.emailDeliveries.map((delivery) => (
                <li key={delivery.emailDeliveryId}>
                  {delivery.recipientEmail} · <span className="badge">{delivery.status}</span>
                  {delivery.suppressionReason ? ` (${delivery.suppressionReason})` : ''}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
    </div>
  );
}
