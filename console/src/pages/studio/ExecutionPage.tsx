import { useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { ApiError } from '../../api/errors';
import type { components } from '../../api/schema';
import { ErrorBox, formatTime, Loading, QueryState } from '../../components/status';
import FlowGraph from '../../components/studio/FlowGraph';
import { graphOf, json } from '../../components/studio/graph';
import { ExecutionOutcome } from '../../components/studio/Preview';
import { useCatalog, useFlow } from '../../components/studio/queries';
import { TraceList } from '../../components/studio/TraceList';
import { useTenantNumber } from '../../tenant';

/**
 * Finds an execution. The API reads it under its flow: links carry `?flowId=`; without it each flow of the
 * tenant is asked in turn (a 404 means "not this flow").
 */
function useExecution(tenantNumber: number, executionId: string, flowId: string | null) {
  return useQuery({
    queryKey: ['execution', executionId, flowId],
    queryFn: async () => {
      const read = (id: string) => unwrap(api.GET('/v1/flows/{flowId}/executions/{flowExecutionId}', { params: { path: { flowId: id, flowExecutionId: executionId } } }));
      if (flowId) return read(flowId);
      const flows = await unwrap(api.GET('/v1/tenants/{tenantNumber}/flows', { params: { path: { tenantNumber }, query: { limit: 100 } } }));
      for (const flow of flows.items) {
        try {
          return await read(flow.flowId);
        } catch (error) {
          if (!(error instanceof ApiError && error.status === 404)) throw error;
        }
      }
      throw new Error('No flow of this tenant has this execution (it may be past its retention).');
    },
  });
}

/** One execution: its input, outcome, and trace drawn on the graph of the version that ran, and as a list. */
export function ExecutionPage() {
  const tenantNumber = useTenantNumber();
  const { executionId = '' } = useParams();
  const [search] = useSearchParams();
  const execution = useExecution(tenantNumber, executionId, search.get('flowId'));
  return (
    <QueryState query={execution} what="the execution">
      {(data) => <ExecutionView tenantNumber={tenantNumber} execution={data} />}
    </QueryState>
  );
}

type Execution = components['schemas']['ExecutionDetailResponse'];

function ExecutionView({ tenantNumber, execution }: { tenantNumber: number; execution: Execution }) {
  const flow = useFlow(execution.flowId);
  const catalog = useCatalog(tenantNumber);
  const version = useQuery({
    queryKey: ['flow-version', execution.flowVersionId],
    queryFn: () => unwrap(api.GET('/v1/flows/{flowId}/versions/{flowVersionId}', { params: { path: { flowId: execution.flowId, flowVersionId: execution.flowVersionId } } })),
    staleTime: Infinity,
  });
  const graph = useMemo(() => (version.data ? graphOf(version.data.graph) : null), [version.data]);
  const names = useMemo(() => new Map((graph?.nodes ?? []).map((node) => [node.nodeId, node.name])), [graph]);
  const flowName = flow.data?.flow.name ?? 'Flow';
  const deviceTypeId = flow.data?.flow.deviceTypeId;
  return (
    <section aria-labelledby="execution-title">
      <p className="small">
        <Link to={`/t/${tenantNumber}/executions?flowId=${execution.flowId}`}>Executions</Link> / {execution.flowExecutionId.slice(0, 8)}
      </p>
      <h1 id="execution-title">
        Execution of {flowName} <span className={`badge ${execution.status}`}>{execution.status}</span>
      </h1>
      <dl className="facts">
        <dt>Version</dt>
        <dd>
          <Link to={`/t/${tenantNumber}/flows/${execution.flowId}/versions/${execution.versionNumber}`}>Version {execution.versionNumber}</Link>
        </dd>
        <dt>Mode</dt>
        <dd>
          {execution.mode}
          {execution.replayId ? (
            <>
              {' '}
              (<Link to={`/t/${tenantNumber}/replays/${execution.replayId}?flowId=${execution.flowId}`}>replay</Link>)
            </>
          ) : null}
        </dd>
        <dt>Device</dt>
        <dd>
          <Link to={`/t/${tenantNumber}/devices/${execution.deviceId}`}>
            <code>{execution.deviceId}</code>
          </Link>
        </dd>
        <dt>Started</dt>
        <dd>{formatTime(execution.startedAt)}</dd>
        <dt>Observed</dt>
        <dd>{formatTime(execution.observedAt)}</dd>
        <dt>Correlation id</dt>
        <dd>
          <code>{execution.correlationId}</code>
        </dd>
        <dt>Raw message</dt>
        <dd>
          {execution.rawIngestionMessageId ? (
            <>
              <Link to={`/t/${tenantNumber}/raw-messages/${execution.rawIngestionMessageId}`}>
                <code>{execution.rawIngestionMessageId}</code>
              </Link>
              {deviceTypeId ? (
                <>
                  {' '}
                  ·{' '}
                  <Link
                    to={`/t/${tenantNumber}/device-types/${deviceTypeId}/flow?rawMessageId=${execution.rawIngestionMessageId}&receivedAt=${encodeURIComponent(execution.rawReceivedAt)}`}
                  >
                    Make a fixture of it
                  </Link>
                </>
              ) : null}
            </>
          ) : (
            '—'
          )}
        </dd>
      </dl>
      <ExecutionOutcome result={execution} />
      <h2>Trace</h2>
      {version.isPending ? <Loading what="the version's graph" /> : version.error ? <ErrorBox error={version.error} /> : null}
      {graph ? <FlowGraph graph={graph} label={`Graph of version ${execution.versionNumber} with this execution's trace`} catalog={catalog.data?.items} trace={execution.trace} /> : null}
      <TraceList trace={execution.trace} names={names} />
      <h2>Input</h2>
      <pre>{json(execution.input)}</pre>
      {execution.emailDeliveries.length > 0 ? (
        <>
          <h2>E-mail deliveries</h2>
          <pre>{json(execution.emailDeliveries)}</pre>
        </>
      ) : null}
    </section>
  );
}
