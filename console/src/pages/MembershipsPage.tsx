import { useState, type FormEvent } from 'react';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { components } from '../api/schema';
import { can, useMe } from '../auth/me';
import { Empty, ErrorBox, QueryState } from '../components/status';
import { useTenantNumber } from '../tenant';
import { useUnits } from './lookups';
import { Pager } from '../components/Pager';

type Role = components['schemas']['MembershipResponse']['role'];
const ROLES: Role[] = ['tenant_admin', 'tenant_operator', 'tenant_viewer'];
const roleName = (role: Role) => role.replace('tenant_', '');

/** The tenant's memberships: grant one by e-mail, change its role, disable or reactivate it. */
export function MembershipsPage() {
  const tenantNumber = useTenantNumber();
  const me = useMe(tenantNumber);
  const units = useUnits(tenantNumber);
  const canWrite = can(me.data, tenantNumber, 'memberships:write');
  const queryClient = useQueryClient();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const list = useQuery({
    queryKey: ['memberships', tenantNumber, cursor ?? null],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/memberships', { params: { path: { tenantNumber }, query: { cursor, limit: 25 } } })),
    placeholderData: keepPreviousData,
  });
  const done = () => queryClient.invalidateQueries({ queryKey: ['memberships', tenantNumber] });
  const update = useMutation({
    mutationFn: ({ membershipId, role }: { membershipId: string; role: Role }) =>
      unwrap(api.PATCH('/v1/memberships/{membershipId}', { params: { path: { membershipId } }, body: { role } })),
    onSuccess: done,
  });
  const toggle = useMutation({
    mutationFn: ({ membershipId, active }: { membershipId: string; active: boolean }) =>
      active
        ? unwrap(api.POST('/v1/memberships/{membershipId}/disable', { params: { path: { membershipId } } }))
        : unwrap(api.POST('/v1/memberships/{membershipId}/reactivate', { params: { path: { membershipId } } })),
    onSuccess: done,
  });
  const unitName = (id: string | null) => (id === null ? 'whole tenant' : (units.data?.items.find((unit) => unit.organizationUnitId === id)?.name ?? id.slice(0, 8)));

  return (
    <section aria-labelledby="memberships-title">
      <h1 id="memberships-title">Memberships</h1>
      {update.error ? <ErrorBox error={update.error} /> : null}
      {toggle.error ? <ErrorBox error={toggle.error} /> : null}
      <QueryState query={list} what="memberships">
        {(page) =>
          page.items.length === 0 ? (
            <Empty>No memberships yet.</Empty>
          ) : (
            <>
              <div className="table-wrap">
                <table>
                  <caption className="visually-hidden">Memberships</caption>
                  <thead>
                    <tr>
                      <th scope="col">User</th>
                      <th scope="col">Role</th>
                      <th scope="col">Scope</th>
                      <th scope="col">Status</th>
                      {canWrite ? (
                        <th scope="col">
                          <span className="visually-hidden">Actions</span>
                        </th>
                      ) : null}
                    </tr>
                  </thead>
                  <tbody>
                    {page.items.map((membership) => (
                      <tr key={membership.membershipId}>
                        <td>
                          {membership.userDisplayName}
                          <br />
                          <span className="small">{membership.userEmail}</span>
                        </td>
                        <td>
                          {canWrite ? (
                            <select
                              aria-label={`Role of ${membership.userEmail}`}
                              value={membership.role}
                              disabled={update.isPending}
                              onChange={(event) => update.mutate({ membershipId: membership.membershipId, role: event.target.value as Role })}
                            >
                              {ROLES.map((role) => (
                                <option key={role} value={role}>
                                  {roleName(role)}
                                </option>
                              ))}
                            </select>
                          ) : (
                            roleName(membership.role)
                          )}
                        </td>
                        <td>
                          {unitName(membership.organizationUnitId)}
                          {membership.organizationUnitId && membership.includeDescendants ? ' and below' : ''}
                        </td>
                        <td>
                          <span className={`badge ${membership.status}`}>{membership.status}</span>
                        </td>
                        {canWrite ? (
                          <td>
                            <button
                              type="button"
                              disabled={toggle.isPending}
                              onClick={() => toggle.mutate({ membershipId: membership.membershipId, active: membership.status === 'active' })}
                            >
                              {membership.status === 'active' ? 'Disable' : 'Reactivate'}
                            </button>
                          </td>
                        ) : null}
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
      {canWrite ? <GrantMembership tenantNumber={tenantNumber} /> : null}
    </section>
  );
}

function GrantMembership({ tenantNumber }: { tenantNumber: number }) {
  const units = useUnits(tenantNumber);
  const queryClient = useQueryClient();
  const [userEmail, setEmail] = useState('');
  const [role, setRole] = useState<Role>('tenant_viewer');
  const [organizationUnitId, setUnit] = useState('');
  const [includeDescendants, setDescendants] = useState(true);
  const grant = useMutation({
    mutationFn: () =>
      unwrap(
        api.POST('/v1/tenants/{tenantNumber}/memberships', {
          params: { path: { tenantNumber } },
          body: { userEmail, role, organizationUnitId: organizationUnitId || null, includeDescendants },
        }),
      ),
    onSuccess: async () => {
      setEmail('');
      await queryClient.invalidateQueries({ queryKey: ['memberships', tenantNumber] });
    },
  });
  return (
    <details className="card">
      <summary>Grant a membership</summary>
      <form
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          grant.mutate();
        }}
      >
        <div className="grid2">
          <label>
            User's e-mail
            <input type="email" required value={userEmail} onChange={(event) => setEmail(event.target.value)} />
          </label>
          <label>
            Role
            <select value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {ROLES.map((entry) => (
                <option key={entry} value={entry}>
                  {roleName(entry)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Scope
            <select value={organizationUnitId} onChange={(event) => setUnit(event.target.value)}>
              <option value="">Whole tenant</option>
              {units.data?.items
                .filter((unit) => unit.scopeRelation === 'accessible')
                .map((unit) => (
                  <option key={unit.organizationUnitId} value={unit.organizationUnitId}>
                    {unit.name}
                  </option>
                ))}
            </select>
          </label>
          <label className="inline">
            <input type="checkbox" checked={includeDescendants} onChange={(event) => setDescendants(event.target.checked)} /> Include the units below
          </label>
        </div>
        {grant.error ? <ErrorBox error={grant.error} /> : null}
        <button type="submit" className="primary" disabled={grant.isPending}>
          Grant
        </button>
      </form>
    </details>
  );
}
