import { useQuery } from '@tanstack/react-query';
import { NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { can, canTenantWide, isPlatformAdmin, useMe, type Me } from '../auth/me';
import { useSession } from '../auth/session';
import { useTenantInUrl } from '../tenant';
import { ErrorBox, Loading } from './status';
import { areas } from '../areas';

interface TenantChoice {
  tenantNumber: number;
  name: string;
}

/** Platform admins choose among all tenants; everyone else among the tenants of their memberships. */
function useTenantChoices(me: Me | undefined) {
  const admin = isPlatformAdmin(me);
  const all = useQuery({
    queryKey: ['tenants', 'switcher'],
    queryFn: () => unwrap(api.GET('/v1/tenants', { params: { query: { limit: 100 } } })),
    enabled: admin,
  });
  if (admin) return (all.data?.items ?? []).map((tenant): TenantChoice => ({ tenantNumber: tenant.tenantNumber, name: tenant.name }));
  const seen = new Map<number, TenantChoice>();
  for (const membership of me?.memberships ?? []) seen.set(membership.tenantNumber, { tenantNumber: membership.tenantNumber, name: membership.tenantName });
  return [...seen.values()].sort((a, b) => a.tenantNumber - b.tenantNumber);
}

export function Layout() {
  const tenantNumber = useTenantInUrl();
  const me = useMe(tenantNumber);
  const { logout } = useSession();
  const navigate = useNavigate();
  const location = useLocation();
  const tenants = useTenantChoices(me.data);

  const switchTenant = (value: string) => {
    // Keep the section (devices, guide, …) when switching tenants; anything deeper belongs to the old tenant.
    const section = location.pathname.split('/')[3] ?? 'devices';
    navigate(`/t/${value}/${section}`);
  };

  const link = (to: string, label: string) => (
    <li key={to}>
      <NavLink to={to} end>
        {label}
      </NavLink>
    </li>
  );

  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">Uplink</span>
        {tenants.length > 0 ? (
          <label className="tenant-switch">
            <span className="visually-hidden">Tenant</span>
            <select value={tenantNumber ?? ''} onChange={(event) => switchTenant(event.target.value)} aria-label="Tenant">
              {tenantNumber === undefined ? <option value="">Choose a tenant…</option> : null}
              {tenants.map((tenant) => (
                <option key={tenant.tenantNumber} value={tenant.tenantNumber}>
                  {tenant.name} (#{tenant.tenantNumber})
                </option>
              ))}
            </select>
          </label>
        ) : null}
        <span className="spacer" />
        {me.data ? (
          <NavLink to="/account" className="user">
            {me.data.user.displayName || me.data.user.username}
          </NavLink>
        ) : null}
        <button type="button" onClick={() => void logout()}>
          Sign out
        </button>
      </header>
      <nav aria-label="Sections" className="side">
        <ul>
          {tenantNumber !== undefined ? (
            <>
              {link(`/t/${tenantNumber}/devices`, 'Devices')}
              {link(`/t/${tenantNumber}/units`, 'Organization units')}
              {link(`/t/${tenantNumber}/device-types`, 'Device types')}
              {canTenantWide(me.data, tenantNumber, 'ingestion:manage') ? link(`/t/${tenantNumber}/credentials`, 'Ingestion credentials') : null}
              {can(me.data, tenantNumber, 'memberships:read') ? link(`/t/${tenantNumber}/memberships`, 'Memberships') : null}
              {canTenantWide(me.data, tenantNumber, 'audit:read') ? link(`/t/${tenantNumber}/audit`, 'Audit log') : null}
              {canTenantWide(me.data, tenantNumber, 'device-types:write') && canTenantWide(me.data, tenantNumber, 'ingestion:manage')
                ? link(`/t/${tenantNumber}/guide`, 'First uplink')
                : null}
              {areas.flatMap((area) => area.tenantNav?.(tenantNumber, me.data) ?? []).map((entry) => link(entry.to, entry.label))}
            </>
          ) : null}
          {isPlatformAdmin(me.data) ? link('/users', 'Users') : null}
          {isPlatformAdmin(me.data) ? link('/audit', 'Platform audit log') : null}
          {areas.flatMap((area) => area.platformNav?.(me.data) ?? []).map((entry) => link(entry.to, entry.label))}
          {link('/account', 'Account and sessions')}
        </ul>
      </nav>
      <main id="main" className="content" tabIndex={-1}>
        {me.isPending ? <Loading what="your permissions" /> : me.error ? <ErrorBox error={me.error} onRetry={() => void me.refetch()} /> : <Outlet />}
      </main>
    </div>
  );
}
