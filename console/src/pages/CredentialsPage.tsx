import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { canTenantWide, useMe } from '../auth/me';
import { CopyButton, Empty, ErrorBox, QueryState, ago, formatTime } from '../components/status';
import { useTenantNumber } from '../tenant';
import { Pager } from '../components/Pager';

/** The tenant's ingestion credentials: the token is shown once, right after creation; revoking is final. */
export function CredentialsPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const canManage = canTenantWide(me.data, tenantNumber, 'ingestion:manage');
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const list = useQuery({
    queryKey: ['ingestion-credentials', tenantNumber, cursor ?? null],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/ingestion-credentials', { params: { path: { tenantNumber }, query: { cursor, limit: 25 } } })),
    enabled: canManage,
    placeholderData: keepPreviousData,
  });
  const [name, setName] = useState('');
  const [created, setCreated] = useState<{ name: string; token: string } | null>(null);
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/tenants/{tenantNumber}/ingestion-credentials', { params: { path: { tenantNumber } }, body: { name } })),
    onSuccess: async (credential) => {
      setCreated({ name: credential.name, token: credential.token });
      setName('');
      await queryClient.invalidateQueries({ queryKey: ['ingestion-credentials', tenantNumber] });
    },
  });
  const revoke = useMutation({
    mutationFn: (ingestionCredentialId: string) =>
      unwrap(api.POST('/v1/ingestion-credentials/{ingestionCredentialId}/revoke', { params: { path: { ingestionCredentialId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['ingestion-credentials', tenantNumber] }),
  });

  if (me.data && !canManage) {
    return (
      <section>
        <h1>Ingestion credentials</h1>
        <p>Managing ingestion credentials needs a tenant administrator.</p>
      </section>
    );
  }
  return (
    <section aria-labelledby="credentials-title">
      <h1 id="credentials-title">Ingestion credentials</h1>
      <p>Network servers send uplinks with a credential's token. Only its first characters are kept for you to recognise it.</p>
      {created ? (
        <div className="card" role="status" data-testid="new-token">
          <p>
            <strong>{created.name}</strong>: copy the token now. It is shown only this once.
          </p>
          <pre>{created.token}</pre>
          <div className="row">
            <CopyButton text={created.token} label="Copy the token" />
            <button type="button" onClick={() => setCreated(null)}>
              I have copied it
            </button>
          </div>
        </div>
      ) : null}
      <form
        className="filters"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <label>
          Credential name
          <input required maxLength={200} value={name} onChange={(event) => setName(event.target.value)} />
        </label>
        <button type="submit" className="primary" disabled={create.isPending}>
          Create a credential
        </button>
      </form>
      {create.error ? <ErrorBox error={create.error} /> : null}
      {revoke.error ? <ErrorBox error={revoke.error} /> : null}
      <QueryState query={list} what="credentials">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No credentials yet.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Ingestion credentials</caption>
                  <thead>
                    <tr>
                      <th scope="col">Name</th>
                      <th scope="col">Token starts with</th>
                      <th scope="col">Status</th>
                      <th scope="col">Last used</th>
                      <th scope="col">Created</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((credential) => (
                      <tr key={credential.ingestionCredentialId}>
                        <td>{credential.name}</td>
                        <td>
                          <code>{credential.tokenPrefix}…</code>
                        </td>
                        <td>
                          <span className={`badge ${credential.status}`}>{credential.status}</span>
                        </td>
                        <td>{ago(credential.lastUsedAt)}</td>
                        <td>{formatTime(credential.createdAt)}</td>
                        <td>
                          {credential.status === 'active' ? (
                            <button
                              type="button"
                              className="danger"
                              disabled={revoke.isPending}
                              onClick={() => window.confirm(`Revoke ${credential.name}? Uplinks sent with it are refused from now on.`) && revoke.mutate(credential.ingestionCredentialId)}
                            >
                              Revoke {credential.name}
                            </button>
                          ) : null}
                        </td>
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
    </section>
  );
}
