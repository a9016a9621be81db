import { Navigate } from 'react-router';
import { isPlatformAdmin, useMe } from '../auth/me';
import { Loading } from '../components/status';

/** The start: the caller's tenant (the only one, or the first), else what to do without one. */
export function HomePage() {
  const me = useMe();
  if (!me.data) return <Loading what="your tenants" />;
  const first = me.data.currentTenant?.tenantNumber ?? me.data.memberships[0]?.tenantNumber;
  if (first !== undefined) return <Navigate to={`/t/${first}/devices`} replace />;
  return (
    <section>
      <h1>Welcome to Uplink</h1>
      {isPlatformAdmin(me.data) ? (
        <p>Choose a tenant above, or create one through the API (<code>POST /v1/tenants</code>) to start.</p>
      ) : (
        <p>You have no membership in any tenant yet. Ask an administrator to grant you one.</p>
      )}
    </section>
  );
}
