import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { components } from '../../api/schema';
import { Empty, formatTime, QueryState } from '../../components/status';
import { useTenantNumber } from '../../tenant';

type ExecutionPage = components['schemas']['ExecutionPage'];
type Status = 'succeeded' | 'failed' | 'filtered';
type Mode = 'live' | 'replay';

const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/** A flow's executions, newest first, filtered by device, status, mode, version, correlation id and a time range. */
export function ExecutionsPage() {
  const tenantNumber = useTenantNumber();
  const [search, setSearch] = useSearchParams();
  const flowId = search.get('flowId') ?? '';
  const flows = useQuery({
    queryKey: ['flows', tenantNumber],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/flows', { params: { path: { tenantNumber }, query: { limit: 100 } } })),
  });
  const filters = {
    deviceId: search.get('deviceId') ?? '',
    status: search.get('status') ?? '',
    mode: search.get('mode') ?? '',
    correlationId: search.get('correlationId') ?? '',
    from: search.get('from') ?? '',
    to: search.get('to') ?? '',
  };
  const [draft, setDraft] = useState(filters);
  const apply = (event: FormEvent) => {
    event.preventDefault();
    const next = new URLSearchParams();
    if (flowId) next.set('flowId', flowId);
    for (const [key, value] of Object.entries(draft)) if (value) next.set(key, value);
    setSearch(next);
  };
  const executions = useInfiniteQuery({
    queryKey: ['executions', flowId, filters],
    enabled: flowId !== '',
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (page: ExecutionPage) => page.nextCursor,
    queryFn: ({ pageParam }): Promise<ExecutionPage> =>
      unwrap(
        api.GET('/v1/flows/{flowId}/executions', {
          params: {
            path: { flowId },
            query: {
              limit: 50,
              cursor: pageParam,
              deviceId: filters.deviceId || undefined,
              status: (filters.status || undefined) as Status | undefined,
              mode: (filters.mode || undefined) as Mode | undefined,
              correlationId: filters.correlationId || undefined,
              // The range filters by startedAt and needs both ends.
              from: filters.from && filters.to ? toIso(filters.from) : undefined,
              to: filters.from && filters.to ? toIso(filters.to) : undefined,
            },
          },
        }),
      ),
  });
  return (
    <section aria-labelledby="executions-title">
      <h1 id="executions-title">Executions</h1>
      <QueryState query={flows} what="flows">
        {(page) => (
          <label className="narrow">
            Flow
            <select
              value={flowId}
              onChange={(event) => {
                const next = new URLSearchParams(search);
                next.set('flowId', event.target.value);
                next.delete('flowVersionId');
                setSearch(next);
              }}
            >
              <option value="">Choose a flow…</option>
              {page.items.map((flow) => (
                <option key={flow.flowId} value={flow.flowId}>
                  {flow.name} ({flow.deviceTypeName})
                </option>
              ))}
            </select>
          </label>
        )}
      </QueryState>
      {flowId ? (
        <>
          <form className="filters" aria-label="Filters" onSubmit={apply}>
            <label>
              Device id
              <input value={draft.deviceId} onChange={(event) => setDraft({ ...draft, deviceId: event.target.value })} spellCheck={false} />
            </label>
            <label>
              Status
              <select value={draft.status} onChange={(event) => setDraft({ ...draft, status: event.target.value })}>
                <option value="">any</option>
                <option value="succeeded">succeeded</option>
                <option value="failed">failed</option>
                <option value="filtered">filtered</option>
              </select>
            </label>
            <label>
              Mode
              <select value={draft.mode} onChange={(event) => setDraft({ ...draft, mode: event.target.value })}>
                <option value="">any</option>
                <option value="live">live</option>
                <option value="replay">replay</option>
              </select>
            </label>
            <label>
              Correlation id
              <input value={draft.correlationId} onChange={(event) => setDraft({ ...draft, correlationId: event.target.value })} spellCheck={false} />
            </label>
            <label>
              Started from
              <input type="datetime-local" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
            </label>
            <label>
              Started before
              <input type="datetime-local" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
            </label>
            <button type="submit">Apply filters</button>
          </form>
          <QueryState query={executions} what="executions">
            {(data) => {
              const items = data.pages.flatMap((page) => page.items);
              if (items.length === 0) return <Empty>No executions match.</Empty>;
              return (
                <>
                  <div className="table-wrap">
                    <table>
                      <caption className="visually-hidden">Executions, newest first</caption>
                      <thead>
                        <tr>
                          <th scope="col">Started</th>
                          <th scope="col">Status</th>
                          <th scope="col">Version</th>
                          <th scope="col">Mode</th>
                          <th scope="col">Device</th>
                          <th scope="col">Duration</th>
                          <th scope="col">Error</th>
                        </tr>
                      </thead>
                      <tbody>
                        {items.map((execution) => (
                          <tr key={execution.flowExecutionId}>
                            <td>
                              <Link to={`/t/${tenantNumber}/executions/${execution.flowExecutionId}?flowId=${execution.flowId}`}>{formatTime(execution.startedAt)}</Link>
                            </td>
                            <td>
                              <span className={`badge ${execution.status}`}>{execution.status}</span>
                            </td>
                            <td>{execution.versionNumber}</td>
                            <td>{execution.mode}</td>
                            <td>
                              <Link to={`/t/${tenantNumber}/devices/${execution.deviceId}`}>
                                <code>{execution.deviceId.slice(0, 8)}</code>
                              </Link>
                            </td>
                            <td>{execution.durationMs} ms</td>
                            <td>{execution.error ? `${execution.error.nodeId ?? ''} ${execution.error.code}` : '—'}</td>
                          </tr>
                        ))}
                      </tbody>
                    </table>
                  </div>
                  {executions.hasNextPage ? (
                    <button type="button" onClick={() => void executions.fetchNextPage()} disabled={executions.isFetchingNextPage}>
                      Load older executions
                    </button>
                  ) : null}
                </>
              );
            }}
          </QueryState>
        </>
      ) : (
        <Empty>Choose a flow to see its executions.</Empty>
      )}
    </section>
  );
}
