/**
 * Sample values the schema and parameter examples of several modules share, so that the ids, the tenant, the user,
 * the membership and the field one example shows are the same everywhere in the API document.
 */

export const TENANT_NUMBER = 7;
export const TENANT_ID = '5b0c7e2a-3f41-4d8e-9a6b-1c2d3e4f5a6b';
export const USER_ID = '8f14e45f-ceea-4e7a-8b2d-6c1f0a9d3b57';
export const SESSION_ID = 'c4ca4238-a0b9-4382-8dcc-509a6f75849b';
export const ROOT_UNIT_ID = '1f0e2d3c-4b5a-4697-8877-a6b5c4d3e2f1';
export const UNIT_ID = '6e8a2c41-9b3d-4f57-a1c2-d3e4f5a6b7c8';
export const MEMBERSHIP_ID = 'a87ff679-a2f3-471d-9181-a67b7542122c';
export const DEVICE_TYPE_ID = '3c59dc04-8e1a-4b2f-9d6c-7e8f9a0b1c2d';
export const FIELD_ID = 'e4da3b7f-bbce-4345-8777-2b0675c2f7a9';
export const DEVICE_ID = '9bf31c7f-f062-4f36-a9d1-2e8c4b7a5d60';
export const ASSIGNMENT_ID = '45c48cce-2e2d-4fbd-aa1a-f4d1c6b3e7a2';
export const FLOW_ID = 'b6d767d2-f8ed-4d21-8a4f-5b3c2d1e0f9a';
export const FLOW_VERSION_ID = '37693cfc-7480-4f9e-9c1b-2a3d4e5f6a7b';
export const FLOW_TEMPLATE_ID = 'c81e728d-9d4c-4f63-a7e2-9b1c3d5f7a90';
export const FLOW_TEMPLATE_VERSION_ID = 'eccbc87e-4b5c-4e2f-8a9d-1c3e5f7a9b02';
export const RAW_INGESTION_MESSAGE_ID = '7d1f3a9c-5e2b-4c8d-9f6a-0b1c2d3e4f50';
export const CORRELATION_ID = '3f1c9a52-8d4e-4f7b-9a61-0c2e5b7d9e14';
export const CURSOR = 'eyJ2IjoxLCJrIjpbIjIwMjYtMDMtMTRUMDk6MjY6NTMuNTg5WiIsIjliZjMxYzdmIl19.Qm9fS2lYc1VhN3JwZ0pXbFh0N2c';

/** The example of a required `If-Match` header. */
export const IF_MATCH = '"3"';

/** A cursor page of `items` (with the exact `totalCount` where the family has one). */
export const page = (items: unknown[], totalCount?: number): Record<string, unknown> => ({
  items,
  nextCursor: CURSOR,
  ...(totalCount === undefined ? {} : { totalCount }),
});

export const user = {
  userId: USER_ID,
  username: 'maria.lopez',
  email: 'maria.lopez@acme-water.example',
  displayName: 'María López',
  status: 'active',
  metadata: { department: 'Field operations', employeeNumber: 'E-10442' },
  platformRoles: [],
  isProtected: false,
  createdAt: '2026-02-02T08:15:00.000Z',
  updatedAt: '2026-03-01T10:42:17.305Z',
};

export const tenant = {
  tenantId: TENANT_ID,
  tenantNumber: 7,
  key: 'acme-water',
  name: 'Acme Water Utilities',
  status: 'active',
  metadata: { region: 'eu-west', contractId: 'C-2026-0117' },
  createdAt: '2026-01-12T14:03:22.481Z',
  updatedAt: '2026-01-12T14:03:22.481Z',
};

export const membership = {
  membershipId: MEMBERSHIP_ID,
  tenantId: TENANT_ID,
  userId: USER_ID,
  role: 'tenant_operator',
  organizationUnitId: UNIT_ID,
  includeDescendants: true,
  status: 'active',
  createdAt: '2026-02-02T08:20:31.650Z',
  updatedAt: '2026-02-02T08:20:31.650Z',
  userDisplayName: 'María López',
  userEmail: 'maria.lopez@acme-water.example',
};

export const field = {
  deviceFieldDefinitionId: FIELD_ID,
  tenantId: TENANT_ID,
  deviceTypeId: DEVICE_TYPE_ID,
  key: 'volume.total',
  name: 'Total volume',
  description: 'Cumulative volume through the meter since installation.',
  schemaRef: 'platform://schemas/number/v1',
  unit: 'm³',
  storageTargets: ['current', 'timeseries'],
  measurementType: 'counter',
  status: 'active',
  lockVersion: 2,
  createdAt: '2026-01-20T13:47:10.556Z',
  updatedAt: '2026-02-01T09:12:03.018Z',
  deprecatedAt: null,
};
