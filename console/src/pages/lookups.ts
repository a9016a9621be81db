import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client';
import type { Choice } from '../components/FilterSelect';

/** The tenant's device types (first 100), for filters, names and pickers. */
export function useDeviceTypes(tenantNumber: number) {
  return useQuery({
    queryKey: ['device-types', tenantNumber, 'all'],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/device-types', { params: { path: { tenantNumber }, query: { limit: 100 } } })),
  });
}

/** The units the caller may see (first 100), for pickers and names. */
export function useUnits(tenantNumber: number) {
  return useQuery({
    queryKey: ['organization-units', tenantNumber, 'all'],
    queryFn: () => unwrap(api.GET('/v1/tenants/{tenantNumber}/organization-units', { params: { path: { tenantNumber }, query: { limit: 100 } } })),
  });
}

/** Device types as the choices of a select. */
export const typeChoices = (types: readonly { deviceTypeId: string; name: string }[] | undefined): Choice[] | undefined =>
  types?.map((type) => ({ value: type.deviceTypeId, label: type.name }));

/** Organization units as the choices of a select. */
export const unitChoices = (units: readonly { organizationUnitId: string; name: string }[] | undefined): Choice[] | undefined =>
  units?.map((unit) => ({ value: unit.organizationUnitId, label: unit.name }));
