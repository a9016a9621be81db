import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import { useMe } from '../auth/me';
import { useSession } from '../auth/session';
import { Empty, ErrorBox, QueryState, formatTime } from '../components/status';
import { ChangePasswordPage } from './ChangePasswordPage';

/** Who is signed in, their grants, their sessions (revoke one, or sign out everywhere) and the password change. */
export function AccountPage() {
  const me = useMe();
  const { logout } = useSession();
  const queryClient = useQueryClient();
  const sessions = useQuery({ queryKey: ['sessions'], queryFn: () => unwrap(api.GET('/v1/auth/sessions')) });
  const revoke = useMutation({
    mutationFn: (sessionId: string) => unwrap(api.DELETE('/v1/auth/sessions/{sessionId}', { params: { path: { sessionId } } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['sessions'] }),
  });

  return (
    <section aria-labelledby="account-title">
      <h1 id="account-title">Account and sessions</h1>
      {me.data ? (
        <div className="card">
          <p>
            Signed in as <strong>{me.data.user.username}</strong> ({me.data.user.email})
            {me.data.platformRoles.includes('platform_admin') ? ', platform admin' : ''}.
          </p>
          <h2>Grants</h2>
          {me.data.memberships.length === 0 ? (
            <Empty>No tenant memberships.</Empty>
          ) : (
            <ul>
              {me.data.memberships.map((membership) => (
                <li key={membership.membershipId}>
                  {membership.tenantName}: {membership.role.replace('tenant_', '')}
                  {membership.organizationUnitName ? ` of ${membership.organizationUnitName}${membership.includeDescendants ? ' and below' : ''}` : ' (whole tenant)'}
                </li>
              ))}
            </ul>
          )}
        </div>
      ) : null}
      <h2>Sessions</h2>
      <QueryState query={sessions} what="sessions">
        {(data) => (
          <div className="table-wrap">
            <table>
              <caption className="visually-hidden">Your sessions</caption>
              <thead>
                <tr>
                  <th scope="col">Signed in</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Expires when idle</th>
                  <th scope="col">
                    <span className="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((session) => (
                  <tr key={session.sessionId}>
                    <td>{formatTime(session.createdAt)}</td>
                    <td>{formatTime(session.lastUsedAt)}</td>
                    <td>{formatTime(session.refreshIdleExpiresAt)}</td>
                    <td>
                      {session.current ? (
                        <span className="badge">This session</span>
                      ) : (
                        <button type="button" onClick={() => revoke.mutate(session.sessionId)} disabled={revoke.isPending}>
                          Revoke
                        </button>
                      )}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
      </QueryState>
      {revoke.error ? <ErrorBox error={revoke.error} /> : null}
      <div className="row">
        <button type="button" onClick={() => void logout(true)}>
          Sign out everywhere
        </button>
      </div>
      <ChangePasswordPage />
    </section>
  );
}
