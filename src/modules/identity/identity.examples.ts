/**
 * Examples of the authentication, session and profile schemas and of the parameters of their routes, attached to the
 * auth controller with @ApiDocs.
 */
import { MEMBERSHIP_ID, SESSION_ID, TENANT_ID, UNIT_ID, tenant, user } from '../../shared/http/example-values';

const ACCESS_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ZjE0ZTQ1Zi1jZWVhLTRlN2EtOGIyZC02YzFmMGE5ZDNiNTciLCJzaWQiOiJjNGNhNDIzOC1hMGI5LTQzODItOGRjYy01MDlhNmY3NTg0OWIiLCJpYXQiOjE3NzM0ODA0MTMsImV4cCI6MTc3MzQ4MjIxM30.kXq1m0n3v5QwYh2ZbR8sT4uJ7cLd9eFgH1iK6oP0aNs';

const session = {
  sessionId: SESSION_ID,
  createdAt: '2026-03-14T09:26:53.589Z',
  lastUsedAt: '2026-03-14T11:02:40.117Z',
  refreshIdleExpiresAt: '2026-03-21T11:02:40.117Z',
  current: true,
};

const tokenResponse = {
  accessToken: ACCESS_TOKEN,
  tokenType: 'Bearer',
  expiresInSeconds: 1800,
  refreshIdleExpiresAt: '2026-03-21T09:26:53.589Z',
  passwordChangeRequired: false,
};

const meMembership = {
  membershipId: MEMBERSHIP_ID,
  tenantId: TENANT_ID,
  tenantNumber: 7,
  tenantName: 'Acme Water Utilities',
  role: 'tenant_operator',
  organizationUnitId: UNIT_ID,
  organizationUnitName: 'North District',
  includeDescendants: true,
  permissions: ['tenant:read', 'organization-units:read', 'devices:read', 'devices:write', 'devices:assign', 'telemetry:read', 'device-types:read'],
};

const meAnalytics = {
  schemaVersion: 1,
  subjectId: 'q3Vx9m2LkR7tY0pW4sN8bC1dF6gH5jK2lZ0xA9eB7cQ',
  tenantSubjectIds: { '7': 'Tz4nM8pQ1rS6vW0yX3bC5dF7gH9jK2lN4mP6qR8sT0u' },
};

export const IDENTITY_SCHEMA_EXAMPLES: Record<string, unknown> = {
  LoginRequest: { identifier: 'maria.lopez@acme-water.example', password: 'Harbour-Road-0417!' },
  TokenResponse: tokenResponse,
  ChangePasswordRequest: { currentPassword: 'Temp-Pass-7Q2x-Lm9w', newPassword: 'Harbour-Road-0417!' },
  SessionResponse: session,
  SessionList: {
    items: [session, { ...session, sessionId: '1c383cd3-0b7c-4981-8c55-4e1f2a3b4c5d', lastUsedAt: '2026-03-12T17:44:05.902Z', refreshIdleExpiresAt: '2026-03-19T17:44:05.902Z', createdAt: '2026-03-12T07:58:11.330Z', current: false }],
  },
  MeMembership: meMembership,
  MeAnalytics: meAnalytics,
  MeResponse: {
    user,
    session,
    platformRoles: [],
    passwordChangeRequired: false,
    currentTenant: tenant,
    memberships: [meMembership],
    analytics: meAnalytics,
  },
};

export const IDENTITY_PARAMETER_EXAMPLES: Record<string, unknown> = {
  sessionId: SESSION_ID,
};
