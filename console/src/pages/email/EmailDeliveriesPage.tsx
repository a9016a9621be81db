import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useSearchParams } from 'react-router';
import { api, unwrap } from '../../api/client';
import { canTenantWide, useMe } from '../../auth/me';
import { DeliveryDetail, DeadLetterDetail } from '../../components/email/DeliveryDetail';
import { templateChoices, useEmailTemplates, type DeadLetter, type Delivery } from '../../components/email/lookups';
import { Empty, ErrorBox, QueryState, formatTime } from '../../components/status';
import { useTenantNumber } from '../../tenant';
import { Pager } from '../../components/Pager';
import { FilterSelect } from '../../components/FilterSelect';

type DeliveryStatus = Delivery['status'];
type LetterStatus = DeadLetter['status'];
const DELIVERY_STATUSES: DeliveryStatus[] = ['queued', 'failed', 'held', 'sent', 'suppressed', 'dead_lettered'];
const LETTER_STATUSES: LetterStatus[] = ['open', 'redrive_pending', 'redriven'];
const statusChoices = (statuses: readonly string[]) => statuses.map((status) => ({ value: status, label: status.replace('_', ' ') }));
/** While anything is still moving, the lists refresh on their own at this pace. */
const POLL_MS = 3000;

/** `datetime-local` values (UTC, as the console shows times) to the API's ISO pair, or neither. */
function windowOf(from: string, to: string): { from?: string; to?: string } {
  if (!from || !to) return {};
  return { from: new Date(`${from}:00Z`).toISOString(), to: new Date(`${to}:00Z`).toISOString() };
}

/** The delivery log (every e-mail a flow requested, with each attempt's SMTP reply) and the dead letters with redrive. */
export function EmailDeliveriesPage() {
  const tenantNumber = useTenantNumber();
  const [search, setSearch] = useSearchParams();
  const view = search.get('view') === 'dead-letters' ? 'dead-letters' : 'deliveries';
  const tab = (next: string) => setSearch(next === 'deliveries' ? {} : { view: next });
  return (
    <section aria-labelledby="deliveries-title">
      <h1 id="deliveries-title">E-mail deliveries</h1>
      <nav className="email-tabs" aria-label="Delivery views">
        <button type="button" aria-pressed={view === 'deliveries'} onClick={() => tab('deliveries')}>
          Delivery log
        </button>
        <button type="button" aria-pressed={view === 'dead-letters'} onClick={() => tab('dead-letters')}>
          Dead letters
        </button>
      </nav>
      {view === 'deliveries' ? <DeliveryLog tenantNumber={tenantNumber} initial={search} /> : <DeadLetters tenantNumber={tenantNumber} />}
    </section>
  );
}

function TimeWindow({ from, to, onFrom, onTo }: { from: string; to: string; onFrom: (value: string) => void; onTo: (value: string) => void }) {
  return (
    <>
      <label>
        From (UTC)
        <input type="datetime-local" value={from} required={to !== ''} onChange={(event) => onFrom(event.target.value)} />
      </label>
      <label>
        To (UTC)
        <input type="datetime-local" value={to} required={from !== ''} onChange={(event) => onTo(event.target.value)} />
      </label>
    </>
  );
}

function DeliveryLog({ tenantNumber, initial }: { tenantNumber: number; initial: URLSearchParams }) {
  const templates = useEmailTemplates(tenantNumber);
  const [form, setForm] = useState({
    status: (initial.get('status') ?? '') as DeliveryStatus | '',
    emailTemplateId: initial.get('emailTemplateId') ?? '',
    recipient: initial.get('recipient') ?? '',
    deviceId: initial.get('deviceId') ?? '',
    flowExecutionId: initial.get('flowExecutionId') ?? '',
    from: '',
    to: '',
  });
  const [applied, setApplied] = useState(form);
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const cursor = cursors.at(-1);
  const query = {
    status: applied.status || undefined,
    emailTemplateId: applied.emailTemplateId || undefined,
    recipient: applied.recipient.trim() || undefined,
    deviceId: applied.deviceId.trim() || undefined,
    flowExecutionId: applied.flowExecutionId.trim() || undefined,
    ...windowOf(applied.from, applied.to),
  };
  const deliveries = useQuery({
    queryKey: ['email-deliveries', tenantNumber, query, cursor ?? null],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/email-deliveries', { params: { path: { tenantNumber }, query: { ...query, cursor, limit: 25 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.items.some((item) => item.status === 'queued' || item.status === 'failed') ? POLL_MS : false),
  });
  const templateName = (id: string) => templates.data?.items.find((template) => template.emailTemplateId === id)?.name ?? '…';
  const set = (change: Partial<typeof form>) => setForm({ ...form, ...change });
  return (
    <>
      <form
        className="filters"
        role="search"
        aria-label="Delivery filters"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setApplied(form);
          setCursors([]);
        }}
      >
        <FilterSelect label="Status" value={form.status} onChange={(value) => set({ status: value as DeliveryStatus | '' })} choices={statusChoices(DELIVERY_STATUSES)} />
        <FilterSelect label="Template" value={form.emailTemplateId} onChange={(value) => set({ emailTemplateId: value })} choices={templateChoices(templates.data?.items)} />
        <label>
          Recipient
          <input type="search" value={form.recipient} maxLength={254} onChange={(event) => set({ recipient: event.target.value })} />
        </label>
        <label>
          Device id
          <input value={form.deviceId} onChange={(event) => set({ deviceId: event.target.value })} />
        </label>
        <label>
          Execution id
          <input value={form.flowExecutionId} onChange={(event) => set({ flowExecutionId: event.target.value })} />
        </label>
        <TimeWindow from={form.from} to={form.to} onFrom={(from) => set({ from })} onTo={(to) => set({ to })} />
        <button type="submit">Filter</button>
      </form>
      <QueryState query={deliveries} what="deliveries">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No delivery matches.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Deliveries, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Requested</th>
                      <th scope="col">Status</th>
                      <th scope="col">Recipient</th>
                      <th scope="col">Subject</th>
                      <th scope="col">Template</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">
                        <span className="visually-hidden">Details</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((delivery) => (
                      <DeliveryRow
                        key={delivery.emailDeliveryId}
                        tenantNumber={tenantNumber}
                        delivery={delivery}
                        templateName={templateName(delivery.emailTemplateId)}
                        open={open === delivery.emailDeliveryId}
                        onToggle={() => setOpen(open === delivery.emailDeliveryId ? null : delivery.emailDeliveryId)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="row">
                <Pager cursors={cursors} onChange={setCursors} nextCursor={page.nextCursor} />
                <button type="button" onClick={() => void deliveries.refetch()}>
                  Refresh
                </button>
              </div>
            </>
          )
        }
      </QueryState>
    </>
  );
}

function DeliveryRow({
  tenantNumber,
  delivery,
  templateName,
  open,
  onToggle,
}: {
  tenantNumber: number;
  delivery: Delivery;
  templateName: string;
  open: boolean;
  onToggle: () => void;
}) {
  return (
    <>
      <tr>
        <td>{formatTime(delivery.createdAt)}</td>
        <td>
          <span className={`badge email-${delivery.status}`}>{delivery.status.replace('_', ' ')}</span>
          {delivery.suppressionReason ? <span className="small"> {delivery.suppressionReason.replaceAll('_', ' ')}</span> : null}
          {delivery.status === 'failed' && delivery.nextAttemptAt ? <span className="small"> next {formatTime(delivery.nextAttemptAt)}</span> : null}
        </td>
        <td className="email-address">{delivery.recipientEmail}</td>
        <td className="email-subject">{delivery.subject ?? '—'}</td>
        <td>
          <Link to={`/t/${tenantNumber}/email-templates/${delivery.emailTemplateId}`}>{templateName}</Link>
        </td>
        <td>{delivery.attemptCount}</td>
        <td>
          <button type="button" aria-expanded={open} onClick={onToggle}>
            {open ? 'Hide' : 'Details'}
            <span className="visually-hidden"> of the delivery to {delivery.recipientEmail}</span>
          </button>
        </td>
      </tr>
      {open ? (
        <tr>
          <td colSpan={7}>
            <DeliveryDetail tenantNumber={tenantNumber} deliveryId={delivery.emailDeliveryId} />
          </td>
        </tr>
      ) : null}
    </>
  );
}

function DeadLetters({ tenantNumber }: { tenantNumber: number }) {
  const me = useMe(tenantNumber);
  const canRedrive = canTenantWide(me.data, tenantNumber, 'actions:control');
  const templates = useEmailTemplates(tenantNumber);
  const [form, setForm] = useState({ status: 'open' as LetterStatus | '', emailTemplateId: '', from: '', to: '' });
  const [applied, setApplied] = useState(form);
  const [cursors, setCursors] = useState<string[]>([]);
  const [open, setOpen] = useState<string | null>(null);
  const cursor = cursors.at(-1);
  const query = { status: applied.status || undefined, emailTemplateId: applied.emailTemplateId || undefined, ...windowOf(applied.from, applied.to) };
  const letters = useQuery({
    queryKey: ['dead-letters', tenantNumber, query, cursor ?? null],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/dead-letters', { params: { path: { tenantNumber }, query: { ...query, cursor, limit: 25 } } })),
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (current.state.data?.items.some((item) => item.status === 'redrive_pending') ? POLL_MS : false),
  });
  const set = (change: Partial<typeof form>) => setForm({ ...form, ...change });
  return (
    <>
      <p className="small">
        An e-mail the SMTP server refused permanently (5xx) or that failed five times. A redrive makes one more attempt with the same message and Message-ID.
      </p>
      <form
        className="filters"
        role="search"
        aria-label="Dead letter filters"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setApplied(form);
          setCursors([]);
        }}
      >
        <FilterSelect label="Status" value={form.status} onChange={(value) => set({ status: value as LetterStatus | '' })} choices={statusChoices(LETTER_STATUSES)} />
        <FilterSelect label="Template" value={form.emailTemplateId} onChange={(value) => set({ emailTemplateId: value })} choices={templateChoices(templates.data?.items)} />
        <TimeWindow from={form.from} to={form.to} onFrom={(from) => set({ from })} onTo={(to) => set({ to })} />
        <button type="submit">Filter</button>
      </form>
      <QueryState query={letters} what="dead letters">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No dead letter matches.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Dead letters, newest first</caption>
                  <thead>
                    <tr>
                      <th scope="col">Dead-lettered</th>
                      <th scope="col">Status</th>
                      <th scope="col">Recipient</th>
                      <th scope="col">Subject</th>
                      <th scope="col">Attempts</th>
                      <th scope="col">Last error</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((letter) => (
                      <DeadLetterRow
                        key={letter.deadLetterId}
                        tenantNumber={tenantNumber}
                        letter={letter}
                        canRedrive={canRedrive}
                        open={open === letter.deadLetterId}
                        onToggle={() => setOpen(open === letter.deadLetterId ? null : letter.deadLetterId)}
                      />
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="row">
                <Pager cursors={cursors} onChange={setCursors} nextCursor={page.nextCursor} />
                <button type="button" onClick={() => void letters.refetch()}>
                  Refresh
                </button>
              </div>
            </>
          )
        }
      </QueryState>
    </>
  );
}

function DeadLetterRow({
  tenantNumber,
  letter,
  canRedrive,
  open,
  onToggle,
}: {
  tenantNumber: number;
  letter: DeadLetter;
  canRedrive: boolean;
  open: boolean;
  onToggle: () => void;
}) {
  const queryClient = useQueryClient();
  const redrive = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/dead-letters/{deadLetterId}/redrive', { params: { path: { deadLetterId: letter.deadLetterId } } })),
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: ['dead-letters', tenantNumber] }),
        queryClient.invalidateQueries({ queryKey: ['dead-letter', letter.deadLetterId] }),
        queryClient.invalidateQueries({ queryKey: ['email-delivery', letter.emailDeliveryId] }),
      ]),
  });
  return (
    <>
      <tr>
        <td>{formatTime(letter.createdAt)}</td>
        <td>
          <span className={`badge email-${letter.status}`}>{letter.status.replace('_', ' ')}</span>
          {letter.redrivenAt ? <span className="small"> {formatTime(letter.redrivenAt)}</span> : null}
        </td>
        <td className="email-address">{letter.recipientEmail}</td>
        <td className="email-subject">{letter.subject}</td>
        <td>{letter.attempts}</td>
        <td>
          <code>{letter.lastError.code}</code> <span className="email-reply">{letter.lastError.message}</span>
        </td>
        <td>
          <div className="row tight">
            {canRedrive && letter.status === 'open' ? (
              <button type="button" className="primary" onClick={() => redrive.mutate()} disabled={redrive.isPending}>
                Redrive<span className="visually-hidden"> the e-mail to {letter.recipientEmail}</span>
              </button>
            ) : null}
            <button type="button" aria-expanded={open} onClick={onToggle}>
              {open ? 'Hide' : 'Details'}
              <span className="visually-hidden"> of the dead letter to {letter.recipientEmail}</span>
            </button>
          </div>
        </td>
      </tr>
      {redrive.error ? (
        <tr>
          <td colSpan={7}>
            <ErrorBox error={redrive.error} />
          </td>
        </tr>
      ) : null}
      {open ? (
        <tr>
          <td colSpan={7}>
            {/* Keyed by state: a redrive's outcome reloads the detail. */}
            <DeadLetterDetail key={`${letter.status}-${letter.attempts}`} tenantNumber={tenantNumber} deadLetterId={letter.deadLetterId} />
          </td>
        </tr>
      ) : null}
    </>
  );
}
