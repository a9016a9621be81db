import { useState, type FormEvent } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { canTenantWide, isPlatformAdmin, useMe } from '../auth/me';
import { Empty, ErrorBox, QueryState, formatTime } from '../components/status';
import { useTenantInUrl } from '../tenant';
import { Pager } from '../components/Pager';

const MAX_SPAN_DAYS = 31;

interface Filters {
  eventType?: string;
  entityType?: string;
  entityId?: string;
  from?: string;
  to?: string;
}

/** A `datetime-local` value (local time) as RFC 3339 UTC, or undefined when empty. */
const toIso = (local: string) => (local ? new Date(local).toISOString() : undefined);

/**
 * The audit log, newest first: the tenant's (with `audit:read` tenant-wide) or, for platform admins at /audit,
 * everything. The window is the last 24 hours unless a from/to pair of at most 31 days is given.
 */
export function AuditPage() {
  const tenantNumber = useTenantInUrl();
  const me = useMe(tenantNumber);
  const [draft, setDraft] = useState({ eventType: '', entityType: '', entityId: '', from: '', to: '' });
  const [filters, setFilters] = useState<Filters>({});
  const [problem, setProblem] = useState<string | null>(null);
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const allowed = tenantNumber === undefined ? isPlatformAdmin(me.data) : canTenantWide(me.data, tenantNumber, 'audit:read');
  const log = useQuery({
    queryKey: ['audit', tenantNumber ?? 'global', filters, cursor ?? null],
    enabled: allowed,
    placeholderData: keepPreviousData,
    queryFn: async () => {
      const query = { ...filters, cursor, limit: 50 };
      if (tenantNumber === undefined) return unwrap(api.GET('/v1/audit-logs', { params: { query } }));
      return unwrap(api.GET('/v1/tenants/{tenantNumber}/audit-logs', { params: { path: { tenantNumber }, query } }));
    },
  });

  const apply = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const from = toIso(draft.from);
    const to = toIso(draft.to);
    if ((from === undefined) !== (to === undefined)) return setProblem('Give both ends of the time window, or neither (the last 24 hours).');
    if (from && to && Date.parse(to) - Date.parse(from) > MAX_SPAN_DAYS * 86400_000) return setProblem(`The time window can span at most ${MAX_SPAN_DAYS} days.`);
    if (from && to && Date.parse(from) >= Date.parse(to)) return setProblem('The window must end after it starts.');
    setFilters({
      eventType: draft.eventType.trim() || undefined,
      entityType: draft.entityType.trim() || undefined,
      entityId: draft.entityId.trim() || undefined,
      from,
      to,
    });
    setCursors([]);
  };

  if (me.data && !allowed) {
    return (
      <section>
        <h1>Audit log</h1>
        <p>Reading the audit log needs a tenant administrator.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="audit-title">
      <h1 id="audit-title">{tenantNumber === undefined ? 'Audit log of the whole platform' : 'Audit log'}</h1>
      <form className="filters" onSubmit={apply} aria-label="Audit filters">
        <label>
          Event type
          <input value={draft.eventType} placeholder="device.assigned" maxLength={100} onChange={(event) => setDraft({ ...draft, eventType: event.target.value })} />
        </label>
        <label>
          Entity type
          <input value={draft.entityType} placeholder="device" maxLength={64} onChange={(event) => setDraft({ ...draft, entityType: event.target.value })} />
        </label>
        <label>
          Entity id
          <input value={draft.entityId} maxLength={200} onChange={(event) => setDraft({ ...draft, entityId: event.target.value })} />
        </label>
        <label>
          From
          <input type="datetime-local" value={draft.from} onChange={(event) => setDraft({ ...draft, from: event.target.value })} />
        </label>
        <label>
          To
          <input type="datetime-local" value={draft.to} onChange={(event) => setDraft({ ...draft, to: event.target.value })} />
        </label>
        <button type="submit">Apply</button>
      </form>
      <p className="small">Without a window: the last 24 hours. A window spans at most {MAX_SPAN_DAYS} days.</p>
      {problem ? <ErrorBox error={new Error(problem)} /> : null}
      <QueryState query={log} what="the audit log">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No events in this window.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Audit events</caption>
                  <thead>
                    <tr>
                      <th scope="col">When</th>
                      <th scope="col">Event</th>
                      <th scope="col">Outcome</th>
                      <th scope="col">Actor</th>
                      <th scope="col">Entity</th>
                      <th scope="col">Request</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((event) => (
                      <tr key={event.auditLogId}>
                        <td>{formatTime(event.occurredAt)}</td>
                        <td>
                          <code>{event.eventType}</code>
                        </td>
                        <td>{event.outcome}</td>
                        <td className="small">
                          {event.actorType} {event.actorId.slice(0, 8)}
                        </td>
                        <td className="small">
                          {event.entityType} {event.entityId?.slice(0, 8) ?? ''}
                        </td>
                        <td className="small">
                          {event.method ? `${event.method} ${event.route ?? ''} → ${event.statusCode ?? ''}` : '—'}
                          <br />
                          <code>{event.correlationId}</code>
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
    </section>
  );
}
