import { useMatch, useParams } from 'react-router';

/** The tenant of the current page, from `/t/:tenantNumber/…`. */
export function useTenantNumber(): number {
  const { tenantNumber } = useParams();
  return Number(tenantNumber);
}

/** The tenant in the URL from anywhere (the layout sits above the tenant routes), or undefined. */
export function useTenantInUrl(): number | undefined {
  const match = useMatch('/t/:tenantNumber/*');
  const value = Number(match?.params.tenantNumber);
  return Number.isInteger(value) && value > 0 ? value : undefined;
}
