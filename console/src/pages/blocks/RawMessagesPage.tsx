import { useState, type FormEvent } from 'react';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import type { paths } from '../../api/schema';
import { Empty, ErrorBox, Loading, formatTime } from '../../components/status';
import { useTenantNumber } from '../../tenant';

type Filters = NonNullable<paths['/v1/raw-ingestion-messages']['get']['parameters']['query']>;
const SOURCES = ['chirpstack', 'tts', 'http', 'mqtt'] as const;
const STATUSES = ['pending', 'processed', 'unrouted', 'rejected', 'skipped'] as const;

/** A datetime-local value (the browser's time zone) as an instant, or undefined when empty. */
const instant = (value: string) => (value ? new Date(value).toISOString() : undefined);

/** The tenant record behind the number in the URL (raw messages are filtered by tenant id). */
export function useTenantRecord(tenantNumber: number) {
  return useQuery({
    queryKey: ['tenant', tenantNumber],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}', { params: { path: { tenantNumber } } })),
  });
}

/**
 * The tenant's stored raw ingestion messages (platform administrators), newest first, in a time window of at
 * most 31 days (the last 24 hours when none is given), with the API's filters.
 */
export function RawMessagesPage() {
  const tenantNumber = useTenantNumber();
  const tenant = useTenantRecord(tenantNumber);
  const [params] = useSearchParams();
  // Other pages link here with `?deviceId=` or `?devEui=` (and any other filter) to open the list filtered.
  const [form, setForm] = useState(() => {
    const initial = (key: string) => params.get(key) ?? '';
    return { from: '', to: '', deviceId: initial('deviceId'), devEui: initial('devEui'), source: initial('source'), processingStatus: initial('processingStatus') };
  });
  const [applied, setApplied] = useState(form);
  const [formError, setFormError] = useState<string | null>(null);
  const tenantId = tenant.data?.tenantId;
  const filters: Filters = {
    ...(tenantId ? { tenantId } : {}),
    ...(applied.from && applied.to ? { from: instant(applied.from), to: instant(applied.to) } : {}),
    ...(applied.deviceId ? { deviceId: applied.deviceId } : {}),
    ...(applied.devEui ? { devEui: applied.devEui } : {}),
    ...(applied.source ? { source: applied.source as Filters['source'] } : {}),
    ...(applied.processingStatus ? { processingStatus: applied.processingStatus as Filters['processingStatus'] } : {}),
  };
  const messages = useInfiniteQuery({
    queryKey: ['raw-messages', filters],
    enabled: tenantId !== undefined,
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) =>
      unwrap(api.GET('/v1/raw-ingestion-messages', { params: { query: { ...filters, limit: 50, ...(pageParam ? { cursor: pageParam } : {}) } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const set = (key: keyof typeof form) => (event: { target: { value: string } }) => setForm({ ...form, [key]: event.target.value });
  const items = messages.data?.pages.flatMap((page) => page.items) ?? [];

  return (
    <section aria-labelledby="raw-title">
      <h1 id="raw-title">Raw messages</h1>
      <p className="muted">
        Every uplink as it arrived, kept for the retention period whatever became of it. Without a time window the last 24 hours are shown; a window
        spans at most 31 days.
      </p>
      <form
        className="filters"
        aria-label="Filters"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          if (Boolean(form.from) !== Boolean(form.to)) return setFormError('Give both ends of the time window, or neither.');
          setFormError(null);
          setApplied({ ...form, devEui: form.devEui.trim().toUpperCase(), deviceId: form.deviceId.trim() });
        }}
      >
        <label>
          Received from
          <input type="datetime-local" step={1} value={form.from} onChange={set('from')} />
        </label>
        <label>
          Received until
          <input type="datetime-local" step={1} value={form.to} onChange={set('to')} />
        </label>
        <label>
          DevEUI
          <input value={form.devEui} onChange={set('devEui')} pattern="[0-9A-Fa-f]{16}" maxLength={16} spellCheck={false} />
        </label>
        <label>
          Device id
          <input value={form.deviceId} onChange={set('deviceId')} spellCheck={false} />
        </label>
        <label>
          Source
          <select value={form.source} onChange={set('source')}>
            <option value="">any</option>
            {SOURCES.map((source) => (
              <option key={source}>{source}</option>
            ))}
          </select>
        </label>
        <label>
          Processing status
          <select value={form.processingStatus} onChange={set('processingStatus')}>
            <option value="">any</option>
            {STATUSES.map((status) => (
              <option key={status}>{status}</option>
            ))}
          </select>
        </label>
        <button type="submit">Apply filters</button>
      </form>
      {formError ? (
        <p className="error" role="alert">
          {formError}
        </p>
      ) : null}
      {tenant.error ? (
        <ErrorBox error={tenant.error} onRetry={() => void tenant.refetch()} />
      ) : messages.isPending ? (
        <Loading what="raw messages" />
      ) : messages.error ? (
        <ErrorBox error={messages.error} onRetry={() => void messages.refetch()} />
      ) : items.length === 0 ? (
        <Empty>No raw messages match.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <caption className="visually-hidden">Raw messages, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Received</th>
                <th scope="col">Source</th>
                <th scope="col">Status</th>
                <th scope="col">DevEUI</th>
                <th scope="col">Device</th>
                <th scope="col">Size</th>
              </tr>
            </thead>
            <tbody>
              {items.map((message) => (
                <tr key={message.rawIngestionMessageId}>
                  <td>
                    <Link to={`/t/${tenantNumber}/raw-messages/${message.rawIngestionMessageId}?receivedAt=${encodeURIComponent(message.receivedAt)}`}>
                      {formatTime(message.receivedAt)}
                    </Link>
                    {message.pinned ? <span className="badge">pinned</span> : null}
                  </td>
                  <td>{message.source}</td>
                  <td>
                    <span className={`badge ${message.processingStatus}`}>{message.processingStatus}</span>
                    {message.processingReason ? <div className="small">{message.processingReason}</div> : null}
                  </td>
                  <td>{message.devEui ? <code>{message.devEui}</code> : '—'}</td>
                  <td>{message.deviceId ? <Link to={`/t/${tenantNumber}/devices/${message.deviceId}`}>device</Link> : '—'}</td>
                  <td>{message.sizeBytes} B</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {messages.hasNextPage ? (
        <div className="row">
          <button type="button" onClick={() => void messages.fetchNextPage()} disabled={messages.isFetchingNextPage}>
            Show older messages
          </button>
        </div>
      ) : null}
    </section>
  );
}
