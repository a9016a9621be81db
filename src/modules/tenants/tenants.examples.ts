/**
 * Examples of the tenant schemas and of the parameters of their routes, attached to the tenants controller with @ApiDocs.
 */
import { TENANT_NUMBER, page, tenant } from '../../shared/http/example-values';

export const TENANTS_SCHEMA_EXAMPLES: Record<string, unknown> = {
  TenantResponse: tenant,
  TenantPage: page([tenant], 12),
  CreateTenantRequest: { key: 'acme-water', name: 'Acme Water Utilities', metadata: { region: 'eu-west', contractId: 'C-2026-0117' } },
  UpdateTenantRequest: { name: 'Acme Water & Wastewater Utilities' },
};

export const TENANTS_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
};
