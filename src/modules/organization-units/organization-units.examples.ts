/**
 * Examples of the organization unit schemas and of the parameters of their routes, attached to the organization units
 * controller with @ApiDocs.
 */
import { ROOT_UNIT_ID, TENANT_ID, TENANT_NUMBER, UNIT_ID, page } from '../../shared/http/example-values';

const unit = {
  organizationUnitId: UNIT_ID,
  tenantId: TENANT_ID,
  parentOrganizationUnitId: ROOT_UNIT_ID,
  key: 'north-district',
  name: 'North District',
  status: 'active',
  effectiveStatus: 'active',
  scopeRelation: 'accessible',
  hasChildren: true,
  metadata: { costCenter: 'CC-4410' },
  createdAt: '2026-01-15T09:00:12.004Z',
  updatedAt: '2026-01-15T09:00:12.004Z',
};

const rootUnit = {
  ...unit,
  organizationUnitId: ROOT_UNIT_ID,
  parentOrganizationUnitId: null,
  key: 'distribution',
  name: 'Distribution Network',
  scopeRelation: 'ancestor',
  metadata: {},
  createdAt: '2026-01-15T08:58:40.771Z',
  updatedAt: '2026-01-15T08:58:40.771Z',
};

export const ORGANIZATION_UNITS_SCHEMA_EXAMPLES: Record<string, unknown> = {
  OrganizationUnitResponse: unit,
  OrganizationUnitPage: page([rootUnit, unit], 27),
  OrganizationUnitAncestors: { items: [rootUnit] },
  CreateOrganizationUnitRequest: { key: 'north-district', name: 'North District', parentOrganizationUnitId: ROOT_UNIT_ID, metadata: { costCenter: 'CC-4410' } },
  UpdateOrganizationUnitRequest: { name: 'North & Harbour District', metadata: { costCenter: 'CC-4410', manager: 'J. Okafor' } },
};

export const ORGANIZATION_UNITS_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
  organizationUnitId: UNIT_ID,
};
