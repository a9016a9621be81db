import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { api, unwrap } from '../../api/client';
import { canTenantWide, useMe } from '../../auth/me';
import { Empty, ErrorBox, QueryState, formatTime } from '../../components/status';
import { useTenantNumber } from '../../tenant';
import { Pager } from '../../components/Pager';

/** The tenant's e-mail templates (search, pages) and the form that creates one. */
export function EmailTemplatesPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const templates = useQuery({
    queryKey: ['email-templates', tenantNumber, search, cursor ?? null],
    queryFn: () =>
      unwrap(api.GET('/v1/tenants/{tenantNumber}/email-templates', { params: { path: { tenantNumber }, query: { q: search || undefined, cursor, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="email-templates-title">
      <h1 id="email-templates-title">E-mail templates</h1>
      <p className="small">
        What an <code>email-action</code> node of a flow sends: each template has immutable versions, one of them active. Deliveries are in the{' '}
        <Link to={`/t/${tenantNumber}/email-deliveries`}>delivery log</Link>; the pause switch is in <Link to={`/t/${tenantNumber}/email-settings`}>e-mail settings</Link>.
      </p>
      <form
        className="filters"
        role="search"
        onSubmit={(event) => {
          event.preventDefault();
          setSearch(q.trim());
          setCursors([]);
        }}
      >
        <label>
          Search
          <input type="search" value={q} onChange={(event) => setQ(event.target.value)} placeholder="Key or name" maxLength={100} />
        </label>
        <button type="submit">Search</button>
      </form>
      <QueryState query={templates} what="e-mail templates">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>{search ? 'No template matches this search.' : 'No e-mail templates yet.'}</Empty>
          ) : (
            <>
              <p className="small">{page.totalCount} templates</p>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">E-mail templates</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Key</th>
                      <th scope="col">Active version</th>
                      <th scope="col">Updated</th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((template) => (
                      <tr key={template.emailTemplateId}>
                        <td>
                          <Link to={`/t/${tenantNumber}/email-templates/${template.emailTemplateId}`}>{template.name}</Link>
                        </td>
                        <td>
                          <code>{template.key}</code>
                        </td>
                        <td>{template.activeVersionNumber === null ? <span className="badge disabled">none</span> : `v${template.activeVersionNumber}`}</td>
                        <td>{formatTime(template.updatedAt)}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
              <div className="row">
                <Pager cursors={cursors} onChange={setCursors} nextCursor={page.nextCursor} />
              </div>
            </>
          )
        }
      </QueryState>
      {canTenantWide(me.data, tenantNumber, 'actions:write') ? <CreateTemplate tenantNumber={tenantNumber} /> : null}
    </section>
  );
}

function CreateTemplate({ tenantNumber }: { tenantNumber: number }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [key, setKey] = useState('');
  const [name, setName] = useState('');
  const [description, setDescription] = useState('');
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/tenants/{tenantNumber}/email-templates', { params: { path: { tenantNumber } }, body: { key, name, description } })),
    onSuccess: async (template) => {
      await queryClient.invalidateQueries({ queryKey: ['email-templates', tenantNumber] });
      navigate(`/t/${tenantNumber}/email-templates/${template.emailTemplateId}`);
    },
  });
  return (
    <details className="card">
      <summary>Create a template</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid3">
          <label>
            Template key (a-z, 0-9, . _ -)
            <input required maxLength={64} pattern="[a-z0-9][a-z0-9._\-]{0,63}" value={key} onChange={(event) => setKey(event.target.value)} />
          </label>
          <label>
            Template name
            <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
          </label>
          <label>
            Description
            <input maxLength={500} value={description} onChange={(event) => setDescription(event.target.value)} />
          </label>
        </div>
        {create.error ? <ErrorBox error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create template
        </button>
      </form>
    </details>
  );
}
