import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router';
import { api, unwrap } from '../api/client';
import { isPlatformAdmin, useMe } from '../auth/me';
import { Loading } from '../components/status';

/** The start: the caller's tenant (the only one, or the first), else what to do without one. */
export function HomePage() {
  const me = useMe();
  const admin = isPlatformAdmin(me.data);
  // Platform admins hold no membership: their start is the first tenant.
  const tenants = useQuery({
    queryKey: ['tenants', 'first'],
    queryFn: () => unwrap(api.GET('/v1/tenants', { params: { query: { limit: 25 } } })),
    enabled: admin && me.data?.currentTenant === null,
  });
  if (!me.data || (tenants.isLoading && admin)) return <Loading what="your tenants" />;
  const first = me.data.currentTenant?.tenantNumber ?? me.data.memberships[0]?.tenantNumber ?? tenants.data?.items[0]?.tenantNumber;
  if (first !== undefined) return <Navigate to={`/t/${first}/devices`} replace />;
  return (
    <section>
      <h1>Welcome to Uplink</h1>
      {isPlatformAdmin(me.data) ? (
        <p>There is no tenant yet: create one through the API (<code>POST /v1/tenants</code>) to start.</p>
      ) : (
        <p>You have no membership in any tenant yet. Ask an administrator to grant you one.</p>
      )}
    </section>
  );
}
