import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { isPlatformAdmin, useMe } from '../auth/me';
import { Empty, ErrorBox, QueryState, formatTime } from '../components/status';
import { Pager } from '../components/Pager';

type User = components['schemas']['UserResponse'];

/** Platform admins only: every user; create with a temporary password, disable, reset the password, platform admin. */
export function UsersPage() {
  const me = useMe();
  const admin = isPlatformAdmin(me.data);
  const queryClient = useQueryClient();
  const [q, setQ] = useState('');
  const [search, setSearch] = useState('');
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const users = useQuery({
    queryKey: ['users', search, cursor ?? null],
    enabled: admin,
    queryFn: () => unwrap(api.GET('/v1/users', { params: { query: { cursor, limit: 25, ...(search ? { q: search } : {}) } } })),
    placeholderData: keepPreviousData,
  });
  const done = () => queryClient.invalidateQueries({ queryKey: ['users'] });
  const setStatus = useMutation({
    mutationFn: (user: User) =>
      unwrap(api.PATCH('/v1/users/{userId}', { params: { path: { userId: user.userId } }, body: { status: user.status === 'active' ? 'disabled' : 'active' } })),
    onSuccess: done,
  });
  const platformRole = useMutation({
    mutationFn: (user: User) => {
      const params = { params: { path: { userId: user.userId } } };
      return user.platformRoles.includes('platform_admin')
        ? unwrap(api.DELETE('/v1/users/{userId}/platform-roles/platform_admin', params))
        : unwrap(api.PUT('/v1/users/{userId}/platform-roles/platform_admin', params));
    },
    onSuccess: done,
  });
  const [resetFor, setResetFor] = useState<User | null>(null);
  const [temporaryPassword, setTemporary] = useState('');
  const reset = useMutation({
    mutationFn: () =>
      unwrap(api.POST('/v1/users/{userId}/temporary-password', { params: { path: { userId: resetFor!.userId } }, body: { temporaryPassword } })),
    onSuccess: () => {
      setResetFor(null);
      setTemporary('');
    },
  });

  if (me.data && !admin) {
    return (
      <section>
        <h1>Users</h1>
        <p>Managing users needs a platform administrator.</p>
      </section>
    );
  }
  const error = setStatus.error ?? platformRole.error;
  return (
    <section aria-labelledby="users-title">
      <h1 id="users-title">Users</h1>
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
          Search users
          <input type="search" value={q} maxLength={100} onChange={(event) => setQ(event.target.value)} />
        </label>
        <button type="submit">Search</button>
      </form>
      {error ? <ErrorBox error={error} /> : null}
      {resetFor ? (
        <form
          className="card"
          aria-label={`New temporary password for ${resetFor.username}`}
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            reset.mutate();
          }}
        >
          <label>
            Temporary password for {resetFor.username} (at least 12 characters; they choose their own at the next sign-in)
            <input type="password" autoComplete="new-password" minLength={12} required value={temporaryPassword} onChange={(event) => setTemporary(event.target.value)} />
          </label>
          {reset.error ? <ErrorBox error={reset.error} /> : null}
          <div className="row">
            <button type="submit" className="primary" disabled={reset.isPending}>
              Set the temporary password
            </button>
            <button type="button" onClick={() => setResetFor(null)}>
              Cancel
            </button>
          </div>
        </form>
      ) : null}
      <QueryState query={users} what="users">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No user matches.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Users</caption>
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Status</th>
                      <th scope="col">Platform admin</th>
                      <th scope="col">Created</th>
                      <th scope="col">
                        <span className="visually-hidden">Actions</span>
                      </th>
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((user) => (
                      <tr key={user.userId}>
                        <td>
                          {user.displayName} <span className="small">({user.username})</span>
                          <br />
                          <span className="small">{user.email}</span>
                        </td>
                        <td>
                          <span className={`badge ${user.status}`}>{user.status}</span>
                        </td>
                        <td>{user.platformRoles.includes('platform_admin') ? 'yes' : 'no'}</td>
                        <td>{formatTime(user.createdAt)}</td>
                        <td>
                          {user.isProtected || user.userId === me.data?.user.userId ? null : (
                            <div className="row tight">
                              <button type="button" onClick={() => setStatus.mutate(user)} disabled={setStatus.isPending}>
                                {user.status === 'active' ? 'Disable' : 'Reactivate'}
                              </button>
                              <button type="button" onClick={() => setResetFor(user)}>
                                Reset password
                              </button>
                              <button type="button" onClick={() => platformRole.mutate(user)} disabled={platformRole.isPending}>
                                {user.platformRoles.includes('platform_admin') ? 'Revoke platform admin' : 'Make platform admin'}
                              </button>
                            </div>
                          )}
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
      <CreateUser />
    </section>
  );
}

function CreateUser() {
  const queryClient = useQueryClient();
  const [username, setUsername] = useState('');
  const [email, setEmail] = useState('');
  const [displayName, setDisplayName] = useState('');
  const [temporaryPassword, setTemporary] = useState('');
  const create = useMutation({
    mutationFn: () => unwrap(api.POST('/v1/users', { body: { username, email, displayName, temporaryPassword } })),
    onSuccess: async () => {
      setUsername('');
      setEmail('');
      setDisplayName('');
      setTemporary('');
      await queryClient.invalidateQueries({ queryKey: ['users'] });
    },
  });
  return (
    <details className="card">
      <summary>Create a user</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          create.mutate();
        }}
      >
        <div className="grid2">
          <label>
            Username
            <input required minLength={3} maxLength={64} pattern="[A-Za-z0-9][A-Za-z0-9._\-]{2,63}" value={username} onChange={(event) => setUsername(event.target.value)} />
          </label>
          <label>
            E-mail
            <input type="email" required value={email} onChange={(event) => setEmail(event.target.value)} />
          </label>
          <label>
            Display name
            <input required maxLength={200} value={displayName} onChange={(event) => setDisplayName(event.target.value)} />
          </label>
          <label>
            Temporary password (changed at the first sign-in)
            <input type="password" autoComplete="new-password" required minLength={12} value={temporaryPassword} onChange={(event) => setTemporary(event.target.value)} />
          </label>
        </div>
        {create.error ? <ErrorBox error={create.error} /> : null}
        <button type="submit" className="primary" disabled={create.isPending}>
          Create user
        </button>
      </form>
    </details>
  );
}
