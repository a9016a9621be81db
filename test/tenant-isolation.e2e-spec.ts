import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedAssignment, seedDevice, seedDeviceType, seedField, SeededDevice, SeededDeviceType } from './support/devices';
import { seedRawMessage } from './support/raw-messages';
import { seedChain, seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { withoutCorrelation } from './support/http';
import { buildOpenApi, operationsOf, templateOf } from './support/openapi';

/*
 * Tenant isolation (a resource in another tenant or out of scope is a 404 like a missing one): a foreign or
 * out-of-scope id must be indistinguishable from a random one. Each new endpoint adds its probe to the tables below;
 * the last test fails for any id input of the OpenAPI document that no probe sent a foreign id to.
 */

type Method = 'get' | 'post' | 'patch' | 'put' | 'delete';
interface Probe {
  name: string;
  method: Method;
  path: (target: string) => string;
  body?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** A valid If-Match, so that lock-versioned writes get past request validation to the lookup. */
const IF_MATCH = { 'If-Match': '"1"' };
const WINDOW = `from=${encodeURIComponent('2026-01-01T00:00:00Z')}&to=${encodeURIComponent('2026-01-02T00:00:00Z')}`;

const RANDOM_TENANT_NUMBER = '2147483000';

/** Endpoints addressed by tenantNumber. */
const TENANT_PROBES: Probe[] = [
  { name: 'GET tenant', method: 'get', path: (n) => `/v1/tenants/${n}` },
  { name: 'PATCH tenant', method: 'patch', path: (n) => `/v1/tenants/${n}`, body: { name: 'Renamed' } },
  { name: 'GET units', method: 'get', path: (n) => `/v1/tenants/${n}/organization-units` },
  { name: 'POST unit', method: 'post', path: (n) => `/v1/tenants/${n}/organization-units`, body: { key: 'probe-unit', name: 'Probe' } },
  { name: 'GET memberships', method: 'get', path: (n) => `/v1/tenants/${n}/memberships` },
  { name: 'POST membership', method: 'post', path: (n) => `/v1/tenants/${n}/memberships`, body: { userId: '00000000-0000-4000-8000-000000000000', role: 'tenant_viewer' } },
  { name: 'GET audit', method: 'get', path: (n) => `/v1/tenants/${n}/audit-logs` },
  { name: 'GET device types', method: 'get', path: (n) => `/v1/tenants/${n}/device-types` },
  { name: 'POST device type', method: 'post', path: (n) => `/v1/tenants/${n}/device-types`, body: { key: 'probe-type', name: 'Probe' } },
  { name: 'GET flows', method: 'get', path: (n) => `/v1/tenants/${n}/flows` },
  { name: 'GET devices', method: 'get', path: (n) => `/v1/tenants/${n}/devices` },
  {
    name: 'POST device',
    method: 'post',
    path: (n) => `/v1/tenants/${n}/devices`,
    body: { devEui: '00000000000000AA', name: 'Probe', deviceTypeId: '00000000-0000-4000-8000-000000000000' },
  },
  { name: 'GET flow blocks', method: 'get', path: (n) => `/v1/tenants/${n}/flow-blocks` },
  { name: 'POST flow block', method: 'post', path: (n) => `/v1/tenants/${n}/flow-blocks`, body: { key: 'probe-block', name: 'Probe' } },
  { name: 'GET block catalog', method: 'get', path: (n) => `/v1/tenants/${n}/flow-block-catalog` },
  { name: 'GET ingestion credentials', method: 'get', path: (n) => `/v1/tenants/${n}/ingestion-credentials` },
  { name: 'POST ingestion credential', method: 'post', path: (n) => `/v1/tenants/${n}/ingestion-credentials`, body: { name: 'Probe' } },
  { name: 'GET e-mail templates', method: 'get', path: (n) => `/v1/tenants/${n}/email-templates` },
  { name: 'POST e-mail template', method: 'post', path: (n) => `/v1/tenants/${n}/email-templates`, body: { key: 'probe-template', name: 'Probe' } },
  { name: 'GET recipient bindings', method: 'get', path: (n) => `/v1/tenants/${n}/recipient-bindings` },
  {
    name: 'POST recipient binding',
    method: 'post',
    path: (n) => `/v1/tenants/${n}/recipient-bindings`,
    body: { emailTemplateId: '00000000-0000-4000-8000-000000000000', recipientType: 'email', email: 'probe@example.test' },
  },
  { name: 'GET e-mail deliveries', method: 'get', path: (n) => `/v1/tenants/${n}/email-deliveries` },
  { name: 'GET dead letters', method: 'get', path: (n) => `/v1/tenants/${n}/dead-letters` },
  { name: 'GET action kill-switch', method: 'get', path: (n) => `/v1/tenants/${n}/action-kill-switch` },
  { name: 'POST pause e-mail', method: 'post', path: (n) => `/v1/tenants/${n}/action-kill-switch/pause`, body: { reason: 'Probe' } },
  { name: 'POST resume e-mail', method: 'post', path: (n) => `/v1/tenants/${n}/action-kill-switch/resume` },
];

/** Endpoints addressed by an e-mail delivery id. */
const EMAIL_DELIVERY_PROBES: Probe[] = [{ name: 'GET e-mail delivery', method: 'get', path: (id) => `/v1/email-deliveries/${id}` }];

/** Endpoints addressed by a dead letter id. */
const DEAD_LETTER_PROBES: Probe[] = [
  { name: 'GET dead letter', method: 'get', path: (id) => `/v1/dead-letters/${id}` },
  { name: 'POST redrive dead letter', method: 'post', path: (id) => `/v1/dead-letters/${id}/redrive` },
];


/** Endpoints addressed by an ingestion credential id (another tenant's, or a platform credential). */
const INGESTION_CREDENTIAL_PROBES: Probe[] = [
  { name: 'GET ingestion credential', method: 'get', path: (id) => `/v1/ingestion-credentials/${id}` },
  { name: 'POST revoke ingestion credential', method: 'post', path: (id) => `/v1/ingestion-credentials/${id}/revoke` },
];

const BLOCK_SOURCE = 'function transform(msg) { return { values: { probe: 1 } }; }';
const BLOCK_VERSION_BODY = { sourceCode: BLOCK_SOURCE, sampleInput: { payload: [1] } };

/** Endpoints addressed by a custom block id. */
const FLOW_BLOCK_PROBES: Probe[] = [
  { name: 'GET flow block', method: 'get', path: (id) => `/v1/flow-blocks/${id}` },
  { name: 'PATCH flow block', method: 'patch', path: (id) => `/v1/flow-blocks/${id}`, body: { name: 'Renamed' } },
  { name: 'GET block versions', method: 'get', path: (id) => `/v1/flow-blocks/${id}/versions` },
  { name: 'POST block version', method: 'post', path: (id) => `/v1/flow-blocks/${id}/versions`, body: BLOCK_VERSION_BODY },
];

/** Endpoints addressed by a block version (given as `flowBlockId/flowBlockVersionId`). */
const FLOW_BLOCK_VERSION_PROBES: Probe[] = [
  { name: 'GET block version', method: 'get', path: (ids) => `/v1/flow-blocks/${ids.replace('/', '/versions/')}` },
  { name: 'compile block version', method: 'post', path: (ids) => `/v1/flow-blocks/${ids.replace('/', '/versions/')}/compile` },
  { name: 'run block version', method: 'post', path: (ids) => `/v1/flow-blocks/${ids.replace('/', '/versions/')}/run`, body: { input: { payload: [1] } } },
  { name: 'release block version', method: 'post', path: (ids) => `/v1/flow-blocks/${ids.replace('/', '/versions/')}/release` },
  { name: 'deprecate block version', method: 'post', path: (ids) => `/v1/flow-blocks/${ids.replace('/', '/versions/')}/deprecate` },
];

/** Endpoints addressed by an e-mail template id. */
const EMAIL_TEMPLATE_PROBES: Probe[] = [
  { name: 'GET e-mail template', method: 'get', path: (id) => `/v1/email-templates/${id}` },
  { name: 'PATCH e-mail template', method: 'patch', path: (id) => `/v1/email-templates/${id}`, body: { name: 'Renamed' }, headers: IF_MATCH },
  {
    name: 'activate e-mail template',
    method: 'post',
    path: (id) => `/v1/email-templates/${id}/activate`,
    body: { emailTemplateVersionId: '00000000-0000-4000-8000-000000000000' },
    headers: IF_MATCH,
  },
  { name: 'GET e-mail template versions', method: 'get', path: (id) => `/v1/email-templates/${id}/versions` },
  { name: 'POST e-mail template version', method: 'post', path: (id) => `/v1/email-templates/${id}/versions`, body: { subject: 'Probe', bodyText: 'Probe' } },
];

/** Endpoints addressed by an e-mail template version (given as `templateId/versionId`). */
const EMAIL_TEMPLATE_VERSION_PROBES: Probe[] = [
  { name: 'GET e-mail template version', method: 'get', path: (ids) => `/v1/email-templates/${ids.replace('/', '/versions/')}` },
  { name: 'release e-mail template version', method: 'post', path: (ids) => `/v1/email-templates/${ids.replace('/', '/versions/')}/release` },
  { name: 'deprecate e-mail template version', method: 'post', path: (ids) => `/v1/email-templates/${ids.replace('/', '/versions/')}/deprecate` },
  { name: 'render e-mail template version', method: 'post', path: (ids) => `/v1/email-templates/${ids.replace('/', '/versions/')}/render`, body: {} },
  { name: 'test-send e-mail template version', method: 'post', path: (ids) => `/v1/email-templates/${ids.replace('/', '/versions/')}/test-send`, body: { to: 'probe@example.com' } },
];

/** Endpoints addressed by a recipient binding id. */
const RECIPIENT_BINDING_PROBES: Probe[] = [
  { name: 'GET recipient binding', method: 'get', path: (id) => `/v1/recipient-bindings/${id}` },
  { name: 'PATCH recipient binding', method: 'patch', path: (id) => `/v1/recipient-bindings/${id}`, body: { includeDescendants: false } },
  { name: 'disable recipient binding', method: 'post', path: (id) => `/v1/recipient-bindings/${id}/disable` },
  { name: 'reactivate recipient binding', method: 'post', path: (id) => `/v1/recipient-bindings/${id}/reactivate` },
];

/** Endpoints addressed by a device type id. */
const DEVICE_TYPE_PROBES: Probe[] = [
  { name: 'GET device type', method: 'get', path: (id) => `/v1/device-types/${id}` },
  { name: 'PATCH device type', method: 'patch', path: (id) => `/v1/device-types/${id}`, body: { name: 'Renamed' }, headers: IF_MATCH },
  { name: 'disable device type', method: 'post', path: (id) => `/v1/device-types/${id}/disable`, headers: IF_MATCH },
  { name: 'reactivate device type', method: 'post', path: (id) => `/v1/device-types/${id}/reactivate`, headers: IF_MATCH },
  { name: 'GET fields', method: 'get', path: (id) => `/v1/device-types/${id}/fields` },
  {
    name: 'POST field',
    method: 'post',
    path: (id) => `/v1/device-types/${id}/fields`,
    body: { key: 'probe', name: 'Probe', schemaRef: 'platform://schemas/number/v1', storageTargets: ['current'], measurementType: 'gauge' },
  },
  { name: 'GET field', method: 'get', path: (id) => `/v1/device-types/${id}/fields/temperature` },
  { name: 'PATCH field', method: 'patch', path: (id) => `/v1/device-types/${id}/fields/temperature`, body: { name: 'Renamed' }, headers: IF_MATCH },
  { name: 'deprecate field', method: 'post', path: (id) => `/v1/device-types/${id}/fields/temperature/deprecate`, headers: IF_MATCH },
  { name: 'GET flow of a type', method: 'get', path: (id) => `/v1/device-types/${id}/flow` },
  { name: 'POST flow of a type', method: 'post', path: (id) => `/v1/device-types/${id}/flow`, body: { key: 'probe-flow', name: 'Probe' } },
];

const PROBE_UUID = '00000000-0000-4000-8000-000000000000';
/** A graph that passes the save rules' shape checks (its device type is compared only once the flow is found). */
const PROBE_GRAPH = {
  schemaVersion: 'flow-graph.v2',
  deviceTypeId: PROBE_UUID,
  nodes: [
    { kind: 'current-output', nodeId: 'c', block: null, name: 'C', configuration: { fields: [] }, position: { x: 0, y: 0 } },
    { kind: 'timeseries-output', nodeId: 't', block: null, name: 'T', configuration: { fields: [] }, position: { x: 0, y: 1 } },
  ],
  edges: [],
};
const PROBE_INPUT = {
  mode: 'fixture',
  rawPayload: { encoding: 'hex', data: '00' },
  observedAt: '2026-01-01T00:00:00Z',
  rawReceivedAt: '2026-01-01T00:00:01Z',
  tenantId: PROBE_UUID,
  deviceId: PROBE_UUID,
  deviceTypeId: PROBE_UUID,
  correlationId: 'probe',
  connectionData: {},
  parameters: {},
};

/** Endpoints addressed by a flow id. */
const FLOW_PROBES: Probe[] = [
  { name: 'GET flow', method: 'get', path: (id) => `/v1/flows/${id}` },
  { name: 'PATCH flow', method: 'patch', path: (id) => `/v1/flows/${id}`, body: { name: 'Renamed' }, headers: IF_MATCH },
  { name: 'activate flow', method: 'post', path: (id) => `/v1/flows/${id}/activate`, body: { flowVersionId: PROBE_UUID }, headers: IF_MATCH },
  { name: 'GET versions', method: 'get', path: (id) => `/v1/flows/${id}/versions` },
  { name: 'POST version', method: 'post', path: (id) => `/v1/flows/${id}/versions`, body: { graph: PROBE_GRAPH } },
  { name: 'GET fixtures', method: 'get', path: (id) => `/v1/flows/${id}/fixtures` },
  { name: 'POST fixture', method: 'post', path: (id) => `/v1/flows/${id}/fixtures`, body: { input: PROBE_INPUT } },
  { name: 'GET overrides', method: 'get', path: (id) => `/v1/flows/${id}/parameter-overrides` },
  { name: 'PUT tenant override', method: 'put', path: (id) => `/v1/flows/${id}/parameter-overrides/tenant/factor`, body: { value: 1 } },
  { name: 'PUT device-type override', method: 'put', path: (id) => `/v1/flows/${id}/parameter-overrides/device-type/factor`, body: { value: 1 } },
  { name: 'PUT device override', method: 'put', path: (id) => `/v1/flows/${id}/parameter-overrides/devices/${PROBE_UUID}/factor`, body: { value: 1 } },
  { name: 'DELETE tenant override', method: 'delete', path: (id) => `/v1/flows/${id}/parameter-overrides/tenant/factor` },
  { name: 'DELETE device-type override', method: 'delete', path: (id) => `/v1/flows/${id}/parameter-overrides/device-type/factor` },
  { name: 'DELETE device override', method: 'delete', path: (id) => `/v1/flows/${id}/parameter-overrides/devices/${PROBE_UUID}/factor` },
  { name: 'GET resolved parameters', method: 'get', path: (id) => `/v1/flows/${id}/resolved-parameters?deviceId=${PROBE_UUID}` },
  { name: 'POST fixture run', method: 'post', path: (id) => `/v1/flows/${id}/fixture-runs`, body: { flowVersionId: PROBE_UUID } },
  { name: 'POST preview', method: 'post', path: (id) => `/v1/flows/${id}/preview`, body: { flowVersionId: PROBE_UUID, input: { ...PROBE_INPUT, mode: 'preview' } } },
  { name: 'GET executions', method: 'get', path: (id) => `/v1/flows/${id}/executions?${WINDOW}` },
  { name: 'GET replays', method: 'get', path: (id) => `/v1/flows/${id}/replays` },
  { name: 'POST replay', method: 'post', path: (id) => `/v1/flows/${id}/replays`, body: { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z', dryRun: true } },
  { name: 'GET debug capture', method: 'get', path: (id) => `/v1/flows/${id}/debug-capture` },
  { name: 'POST debug capture', method: 'post', path: (id) => `/v1/flows/${id}/debug-capture`, body: { minutes: 5, maxExecutions: 10 } },
  { name: 'DELETE debug capture', method: 'delete', path: (id) => `/v1/flows/${id}/debug-capture` },
];

/** Endpoints addressed by an execution (given as `flowId/flowExecutionId`). */
const EXECUTION_PROBES: Probe[] = [{ name: 'GET execution', method: 'get', path: (ids) => `/v1/flows/${ids.replace('/', '/executions/')}` }];

/** Endpoints addressed by a replay (given as `flowId/replayId`). */
const REPLAY_PROBES: Probe[] = [
  { name: 'GET replay', method: 'get', path: (ids) => `/v1/flows/${ids.replace('/', '/replays/')}` },
  { name: 'cancel replay', method: 'post', path: (ids) => `/v1/flows/${ids.replace('/', '/replays/')}/cancel` },
];

/** Endpoints addressed by a flow version (given as `flowId/flowVersionId`). */
const FLOW_VERSION_PROBES: Probe[] = [
  { name: 'GET version', method: 'get', path: (ids) => `/v1/flows/${ids.replace('/', '/versions/')}` },
  { name: 'validate version', method: 'post', path: (ids) => `/v1/flows/${ids.replace('/', '/versions/')}/validate` },
  { name: 'release version', method: 'post', path: (ids) => `/v1/flows/${ids.replace('/', '/versions/')}/release` },
  { name: 'deprecate version', method: 'post', path: (ids) => `/v1/flows/${ids.replace('/', '/versions/')}/deprecate` },
];

/** Endpoints addressed by a fixture (given as `flowId/fixtureId`). */
const FIXTURE_PROBES: Probe[] = [
  { name: 'GET fixture', method: 'get', path: (ids) => `/v1/flows/${ids.replace('/', '/fixtures/')}` },
  { name: 'PUT fixture', method: 'put', path: (ids) => `/v1/flows/${ids.replace('/', '/fixtures/')}`, body: { input: PROBE_INPUT }, headers: IF_MATCH },
  { name: 'DELETE fixture', method: 'delete', path: (ids) => `/v1/flows/${ids.replace('/', '/fixtures/')}`, headers: IF_MATCH },
];

/** Endpoints addressed by a device id. */
const DEVICE_PROBES: Probe[] = [
  { name: 'GET device', method: 'get', path: (id) => `/v1/devices/${id}` },
  { name: 'PATCH device', method: 'patch', path: (id) => `/v1/devices/${id}`, body: { name: 'Renamed' } },
  { name: 'disable device', method: 'post', path: (id) => `/v1/devices/${id}/disable` },
  { name: 'reactivate device', method: 'post', path: (id) => `/v1/devices/${id}/reactivate` },
  { name: 'retire device', method: 'post', path: (id) => `/v1/devices/${id}/retire` },
  { name: 'GET assignments', method: 'get', path: (id) => `/v1/devices/${id}/assignments` },
  {
    name: 'POST assignment',
    method: 'post',
    path: (id) => `/v1/devices/${id}/assignments`,
    body: { organizationUnitId: '00000000-0000-4000-8000-000000000000' },
  },
  { name: 'GET current values', method: 'get', path: (id) => `/v1/devices/${id}/current-values` },
  { name: 'GET measurements', method: 'get', path: (id) => `/v1/devices/${id}/measurements?${WINDOW}` },
  { name: 'GET measurements bucketed', method: 'get', path: (id) => `/v1/devices/${id}/measurements?${WINDOW}&bucket=1h&aggregation=count` },
  { name: 'GET measurements of a field', method: 'get', path: (id) => `/v1/devices/${id}/measurements?${WINDOW}&fieldKeys=temperature` },
];

/** Endpoints addressed by an assignment period (of a device given as `deviceId/deviceAssignmentId`). */
const ASSIGNMENT_PROBES: Probe[] = [
  { name: 'GET assignment', method: 'get', path: (ids) => `/v1/devices/${ids.replace('/', '/assignments/')}` },
  { name: 'end assignment', method: 'post', path: (ids) => `/v1/devices/${ids.replace('/', '/assignments/')}/end` },
];

/** Endpoints addressed by a unit id. */
const UNIT_PROBES: Probe[] = [
  { name: 'GET unit', method: 'get', path: (id) => `/v1/organization-units/${id}` },
  { name: 'GET ancestors', method: 'get', path: (id) => `/v1/organization-units/${id}/ancestors` },
  { name: 'PATCH unit', method: 'patch', path: (id) => `/v1/organization-units/${id}`, body: { name: 'Renamed' } },
  { name: 'disable unit', method: 'post', path: (id) => `/v1/organization-units/${id}/disable` },
  { name: 'reactivate unit', method: 'post', path: (id) => `/v1/organization-units/${id}/reactivate` },
];

/** Endpoints addressed by a membership id. */
const MEMBERSHIP_PROBES: Probe[] = [
  { name: 'GET membership', method: 'get', path: (id) => `/v1/memberships/${id}` },
  { name: 'PATCH membership', method: 'patch', path: (id) => `/v1/memberships/${id}`, body: { role: 'tenant_viewer' } },
  { name: 'disable membership', method: 'post', path: (id) => `/v1/memberships/${id}/disable` },
  { name: 'reactivate membership', method: 'post', path: (id) => `/v1/memberships/${id}/reactivate` },
];


/**
 * Inputs of the OpenAPI document that take an id of another kind than a tenant-owned resource, keyed by
 * `METHOD /path/template` and the input (`path:`, `query:` or `body:` and its name). Every other id input must be
 * probed with a foreign id by this suite (see the last test).
 */
const NOT_TENANT_OWNED: Record<string, Record<string, string>> = {
  // Sessions belong to a user, not to a tenant: another user's session is a 404 (auth suite).
  'DELETE /v1/auth/sessions/{sessionId}': { 'path:sessionId': 'a session of the caller' },
  // Users are platform accounts shared by tenants, managed by platform administrators only.
  'GET /v1/users/{userId}': { 'path:userId': 'platform administrators only' },
  'PATCH /v1/users/{userId}': { 'path:userId': 'platform administrators only' },
  'POST /v1/users/{userId}/temporary-password': { 'path:userId': 'platform administrators only' },
  'PUT /v1/users/{userId}/platform-roles/platform_admin': { 'path:userId': 'platform administrators only' },
  'DELETE /v1/users/{userId}/platform-roles/platform_admin': { 'path:userId': 'platform administrators only' },
  'GET /v1/users/{userId}/memberships': { 'path:userId': 'platform administrators only', 'query:tenantId': 'platform administrators only' },
  'GET /v1/tenants/{tenantNumber}/memberships': { 'query:userId': 'a platform account, any tenant may grant it' },
  'POST /v1/tenants/{tenantNumber}/memberships': { 'body:userId': 'a platform account, any tenant may grant it' },
  // A user is a platform account; one without a grant in the tenant is the same 400 reference_not_found as a random id.
  'POST /v1/tenants/{tenantNumber}/recipient-bindings': { 'body:userId': 'a platform account (members only, checked like a random id)' },
  // Tenant lifecycle is for platform administrators only: anyone else gets 403 before any lookup.
  'POST /v1/tenants/{tenantNumber}/disable': { 'path:tenantNumber': 'platform administrators only' },
  'POST /v1/tenants/{tenantNumber}/reactivate': { 'path:tenantNumber': 'platform administrators only' },
  'POST /v1/tenants/{tenantNumber}/imports/legacy-snapshot': { 'path:tenantNumber': 'platform administrators only' },
  // Audit filters: the actor is a platform account and the correlation id a request's, neither owned by a tenant.
  'GET /v1/tenants/{tenantNumber}/audit-logs': { 'query:actorId': 'a platform account', 'query:correlationId': 'a request id' },
  'GET /v1/flows/{flowId}/executions': { 'query:correlationId': 'a request id' },
  // Platform-wide views and platform credentials: platform administrators only, who see every tenant.
  'GET /v1/audit-logs': {
    'query:actorId': 'platform administrators only',
    'query:entityId': 'platform administrators only',
    'query:correlationId': 'platform administrators only',
    'query:tenantId': 'platform administrators only',
  },
  'GET /v1/ingestion-credentials': { 'query:tenantId': 'platform administrators only' },
  'GET /v1/raw-ingestion-messages': {
    'query:tenantId': 'platform administrators only',
    'query:deviceId': 'platform administrators only',
    'query:credentialId': 'platform administrators only',
  },
  'GET /v1/raw-ingestion-messages/{rawIngestionMessageId}': { 'path:rawIngestionMessageId': 'platform administrators only' },
  // The network server's own message id, a deduplication key within the credential's tenant, never looked up.
  'POST /v1/ingestion/http': { 'body:messageId': 'the sender’s message id' },
  // Flow templates are global: every signed-in user reads them, platform administrators write them.
  'GET /v1/flow-templates/{flowTemplateId}': { 'path:flowTemplateId': 'a global template' },
  'PATCH /v1/flow-templates/{flowTemplateId}': { 'path:flowTemplateId': 'a global template' },
  'GET /v1/flow-templates/{flowTemplateId}/versions': { 'path:flowTemplateId': 'a global template' },
  'POST /v1/flow-templates/{flowTemplateId}/versions': { 'path:flowTemplateId': 'a global template' },
  ...Object.fromEntries(
    ['GET /v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}', ...['validate', 'release', 'deprecate', 'copy'].map((action) => `POST /v1/flow-templates/{flowTemplateId}/versions/{flowTemplateVersionId}/${action}`)].map(
      (key) => [key, { 'path:flowTemplateId': 'a global template', 'path:flowTemplateVersionId': 'a global template version' }],
    ),
  ),
};

/** Names of inputs that carry an id: `...Id`, `...Ids` and `tenantNumber`. */
const ID_INPUT = /(Id|Ids|^tenantNumber)$/;

type Schema = Record<string, unknown>;

const requestSchemaOf = (operation: Record<string, unknown>): Schema | undefined =>
  (operation.requestBody as { content?: Record<string, { schema?: Schema }> } | undefined)?.content?.['application/json']?.schema;

/** Dotted names of the id properties of a request body schema, following $refs, compositions and array items. */
function idPropertiesOf(schema: Schema | undefined, components: Record<string, Schema>, prefix = '', seen = new Set<string>()): string[] {
  if (!schema) return [];
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace('#/components/schemas/', '');
    return seen.has(name) ? [] : idPropertiesOf(components[name], components, prefix, new Set([...seen, name]));
  }
  const parts = (['oneOf', 'anyOf', 'allOf'] as const).flatMap((key) => (schema[key] as Schema[] | undefined) ?? []);
  const found = parts.flatMap((part) => idPropertiesOf(part, components, prefix, seen));
  if (schema.items) found.push(...idPropertiesOf(schema.items as Schema, components, prefix, seen));
  for (const [key, property] of Object.entries((schema.properties ?? {}) as Record<string, Schema>)) {
    const name = prefix ? `${prefix}.${key}` : key;
    if (ID_INPUT.test(key)) found.push(name);
    found.push(...idPropertiesOf(property, components, name, seen));
  }
  return [...new Set(found)];
}

/** Dotted names and values of a request body's properties (array elements under their array's name). */
function bodyIdsOf(body: unknown, prefix = ''): [string, unknown][] {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [];
  return Object.entries(body as Record<string, unknown>).flatMap(([key, value]) => {
    const name = prefix ? `${prefix}.${key}` : key;
    const nested = Array.isArray(value) ? value.flatMap((item) => bodyIdsOf(item, name)) : bodyIdsOf(value, name);
    return [[name, value] as [string, unknown], ...nested];
  });
}

interface CrossProbe {
  name: string;
  method: Method;
  path: (id: string) => string;
  body?: (id: string) => Record<string, unknown>;
  headers?: Record<string, string>;
  /** The foreign id, and the random stand-in to compare with (a random UUID unless given). */
  foreign: string;
  missing?: string;
}

interface SentRequest {
  method: Method;
  url: string;
  body?: unknown;
}

/** Status and body of an answer without the per-request correlation id: two answers compared for sameness. */
const sameness = (res: Response): unknown => (res.body?.error ? withoutCorrelation(res) : { status: res.status, body: res.body });

interface SeededFlow {
  flowId: string;
  versionId: string;
  fixtureId: string;
  /** An execution of the version and a queued replay of it. */
  executionId: string;
  replayId: string;
}

describe('tenant isolation', () => {
  let t: TestApp;
  let a: SeededTenant;
  let b: SeededTenant;
  let chain: SeededUnit[]; // a: root → l2 → l3 → l4 → l5
  let sibling: SeededUnit; // a: another root
  let foreignUnit: SeededUnit; // b
  let foreignMembership: string; // b
  let foreignType: SeededDeviceType; // b, with a field `temperature`
  let foreignDevice: SeededDevice; // b, assigned to foreignUnit
  let foreignAssignment: string; // its open period
  let siblingDevice: SeededDevice; // a, in the sibling root
  let siblingAssignment: string;
  let movedDevice: SeededDevice; // a: in the sibling root until `movedAt`, then in chain[2]
  let movedAt: Date;
  let ownType: SeededDeviceType; // a
  let ownMembership: string; // a, the viewer's
  let foreignFlow: SeededFlow; // b, of foreignType, with a tenant and a type override of `factor`
  let ownFlow: SeededFlow; // a, of ownType
  let foreignBlock: string; // b, with a draft version
  let foreignBlockVersion: string;
  let ownBlock: string; // a, with a draft version
  let ownBlockVersion: string;
  let foreignRawMessage: string; // b, a stored uplink
  let foreignCredential: string; // b
  let foreignDelivery: string; // b
  let foreignDeadLetter: string; // b
  let platformCredential: string;
  let ownCredential: string; // a
  let template: { templateId: string; versionId: string }; // global, released: copied into flows
  let bystander: string; // a user without grants
  let foreignTemplate: string; // b, with a draft version and a binding
  let foreignTemplateVersion: string;
  let foreignBinding: string;
  let ownTemplate: string; // a, with a draft version
  let ownTemplateVersion: string;
  let ownBinding: string; // a, of ownTemplate
  const tokens: Record<string, string> = {};

  const openAssignmentOf = async (device: SeededDevice): Promise<string> => {
    const [row] = await t.dataSource.query<{ device_assignment_id: string }[]>(
      `SELECT device_assignment_id FROM device_assignments WHERE device_id = $1 AND valid_to IS NULL`,
      [device.deviceId],
    );
    return row!.device_assignment_id;
  };

  /** Every request this suite sends, so that the coverage test below can tell which inputs got a foreign id. */
  const sent: SentRequest[] = [];
  const http = () => {
    const agent = t.http();
    const recorded = (method: Method) => (url: string) => {
      const entry: SentRequest = { method, url };
      sent.push(entry);
      const test = agent[method](url);
      const send = test.send.bind(test);
      test.send = ((body: string | object) => {
        entry.body = body;
        return send(body);
      }) as typeof test.send;
      return test;
    };
    return { get: recorded('get'), post: recorded('post'), patch: recorded('patch'), put: recorded('put'), delete: recorded('delete') };
  };

  const send = (who: string, probe: Probe, target: string) => {
    const req = http()[probe.method](probe.path(target)).set('Authorization', `Bearer ${tokens[who]}`).set(probe.headers ?? {});
    return probe.body ? req.send(probe.body) : req;
  };

  beforeAll(async () => {
    t = await startTestApp();
    a = await seedTenant(t);
    b = await seedTenant(t);
    chain = await seedChain(t, a, 5);
    sibling = await seedUnit(t, a);
    foreignUnit = await seedUnit(t, b);

    foreignType = await seedDeviceType(t, b);
    await seedField(t, b, foreignType, { key: 'temperature' });
    foreignDevice = await seedDevice(t, b, foreignType, foreignUnit);
    foreignAssignment = await openAssignmentOf(foreignDevice);
    ownType = await seedDeviceType(t, a);
    const ownField = await seedField(t, a, ownType, { key: 'temperature' });
    siblingDevice = await seedDevice(t, a, ownType, sibling);
    siblingAssignment = await openAssignmentOf(siblingDevice);
    const start = new Date(Date.now() - 3 * 3600_000);
    movedAt = new Date(Date.now() - 3600_000);
    movedDevice = await seedDevice(t, a, ownType);
    await seedAssignment(t, a, movedDevice, sibling, start, movedAt);
    await seedAssignment(t, a, movedDevice, chain[2]!, movedAt);
    // One point per 30 minutes: four while in the sibling unit, two after the move.
    await t.dataSource.query(
      `INSERT INTO measurements (device_id, field_no, observed_at, raw_received_at, value_num)
       SELECT $1, $2, at, at, extract(epoch FROM at) FROM generate_series($3::timestamptz + interval '15 minutes', $3::timestamptz + interval '165 minutes', interval '30 minutes') AS at`,
      [movedDevice.deviceId, ownField.fieldNo, start],
    );

    const seedFlow = async (tenant: SeededTenant, type: SeededDeviceType, key: string) => {
      const [flow] = await t.dataSource.query<{ flow_id: string }[]>(
        `INSERT INTO flows (tenant_id, device_type_id, key, name) VALUES ($1, $2, $3, 'Probe flow') RETURNING flow_id`,
        [tenant.tenantId, type.deviceTypeId, key],
      );
      const [version] = await t.dataSource.query<{ flow_version_id: string }[]>(
        `INSERT INTO flow_versions (flow_id, tenant_id, version_number, graph, parameters)
         VALUES ($1, $2, 1, $3::jsonb, '[{"key":"factor","type":"number","defaultValue":1}]'::jsonb) RETURNING flow_version_id`,
        [flow!.flow_id, tenant.tenantId, JSON.stringify({ ...PROBE_GRAPH, deviceTypeId: type.deviceTypeId })],
      );
      const [fixture] = await t.dataSource.query<{ fixture_id: string }[]>(
        `INSERT INTO flow_fixtures (tenant_id, flow_id, input) VALUES ($1, $2, $3::jsonb) RETURNING fixture_id`,
        [tenant.tenantId, flow!.flow_id, JSON.stringify({ ...PROBE_INPUT, tenantId: tenant.tenantId, deviceTypeId: type.deviceTypeId })],
      );
      const [replay] = await t.dataSource.query<{ replay_id: string }[]>(
        `INSERT INTO flow_replays (tenant_id, flow_id, flow_version_id, range_from, range_to, dry_run)
         VALUES ($1, $2, $3, '2026-01-01T00:00:00Z', '2026-01-02T00:00:00Z', true) RETURNING replay_id`,
        [tenant.tenantId, flow!.flow_id, version!.flow_version_id],
      );
      const executionId = randomUUID();
      await t.dataSource.query(
        `INSERT INTO flow_executions (flow_execution_id, tenant_id, flow_id, flow_version_id, version_number, device_id, mode, raw_received_at,
                observed_at, correlation_id, status, started_at, duration_ms, trace)
         VALUES ($1, $2, $3, $4, 1, $5, 'live', '2026-01-01T10:00:01Z', '2026-01-01T10:00:00Z', 'probe', 'succeeded', '2026-01-01T10:00:01Z', 0.1, '[]')`,
        [executionId, tenant.tenantId, flow!.flow_id, version!.flow_version_id, randomUUID()],
      );
      return { flowId: flow!.flow_id, versionId: version!.flow_version_id, fixtureId: fixture!.fixture_id, executionId, replayId: replay!.replay_id };
    };
    foreignFlow = await seedFlow(b, foreignType, 'foreign-flow');
    ownFlow = await seedFlow(a, ownType, 'own-flow');
    await t.dataSource.query(
      `INSERT INTO flow_parameter_overrides (tenant_id, level, device_type_id, key, value) VALUES ($1, 'tenant', NULL, 'factor', '2'), ($1, 'device_type', $2, 'factor', '3')`,
      [b.tenantId, foreignType.deviceTypeId],
    );

    const people: [string, SeededTenant, 'tenant_admin' | 'tenant_operator' | 'tenant_viewer', SeededUnit | null, boolean][] = [
      ['adminA', a, 'tenant_admin', null, true],
      ['operatorA', a, 'tenant_operator', null, true],
      ['viewerA', a, 'tenant_viewer', null, true],
      ['scopedA', a, 'tenant_admin', chain[2]!, true],
      ['pointA', a, 'tenant_admin', chain[2]!, false],
      ['scopedViewerA', a, 'tenant_viewer', chain[2]!, true],
      ['adminB', b, 'tenant_admin', null, true],
    ];
    for (const [name, tenant, role, unit, includeDescendants] of people) {
      const user = await seedUser(t);
      const membershipId = await seedGrant(t, user.userId, tenant, role, unit, { includeDescendants });
      if (name === 'viewerA') ownMembership = membershipId;
      if (name === 'adminB') foreignMembership = membershipId;
      tokens[name] = (await login(t, user.username, user.password)).accessToken;
    }
    tokens.platformAdmin = (await loginAdmin(t)).accessToken;
    bystander = (await seedUser(t)).userId;

    const seedBlock = async (tenant: SeededTenant, key: string): Promise<[string, string]> => {
      const [block] = await t.dataSource.query<{ flow_block_id: string }[]>(
        `INSERT INTO flow_blocks (scope, tenant_id, key, name) VALUES ('tenant', $1, $2, 'Probe block') RETURNING flow_block_id`,
        [tenant.tenantId, key],
      );
      const [version] = await t.dataSource.query<{ flow_block_version_id: string }[]>(
        `INSERT INTO flow_block_versions (flow_block_id, tenant_id, version_number, source_code, source_sha256, sample_input)
         VALUES ($1, $2, 1, $3, encode(sha256(convert_to($3, 'UTF8')), 'hex'), '{"payload": [1]}') RETURNING flow_block_version_id`,
        [block!.flow_block_id, tenant.tenantId, BLOCK_SOURCE],
      );
      return [block!.flow_block_id, version!.flow_block_version_id];
    };
    [foreignBlock, foreignBlockVersion] = await seedBlock(b, 'foreign-block');
    [ownBlock, ownBlockVersion] = await seedBlock(a, 'own-block');
    foreignRawMessage = (await seedRawMessage(t, { tenantId: b.tenantId })).rawIngestionMessageId;

    const seedCredential = async (tenant: SeededTenant | null): Promise<string> => {
      const [row] = await t.dataSource.query<{ ingestion_credential_id: string }[]>(
        `INSERT INTO ingestion_credentials (scope, tenant_id, name, token_sha256, token_prefix)
         VALUES ($1, $2, 'Probe credential', sha256(gen_random_uuid()::text::bytea), 'uit_probe000') RETURNING ingestion_credential_id`,
        [tenant ? 'tenant' : 'platform', tenant?.tenantId ?? null],
      );
      return row!.ingestion_credential_id;
    };
    const [seededTemplate] = await t.dataSource.query<{ flow_template_id: string }[]>(
      `INSERT INTO flow_templates (key, name) VALUES ('isolation-probe', 'Probe template') RETURNING flow_template_id`,
    );
    const [seededTemplateVersion] = await t.dataSource.query<{ flow_template_version_id: string }[]>(
      `INSERT INTO flow_template_versions (flow_template_id, version_number, status, graph, checksum, required_fields, released_at)
       VALUES ($1, 1, 'released', $2::jsonb, repeat('0', 64), '[]'::jsonb, clock_timestamp()) RETURNING flow_template_version_id`,
      [seededTemplate!.flow_template_id, JSON.stringify({ ...PROBE_GRAPH, deviceTypeId: null })],
    );
    template = { templateId: seededTemplate!.flow_template_id, versionId: seededTemplateVersion!.flow_template_version_id };
    foreignCredential = await seedCredential(b);
    platformCredential = await seedCredential(null);
    ownCredential = await seedCredential(a);

    const seedTemplate = async (tenant: SeededTenant, key: string): Promise<[string, string]> => {
      const [template] = await t.dataSource.query<{ email_template_id: string }[]>(
        `INSERT INTO email_templates (tenant_id, key, name) VALUES ($1, $2, 'Probe template') RETURNING email_template_id`,
        [tenant.tenantId, key],
      );
      const [version] = await t.dataSource.query<{ email_template_version_id: string }[]>(
        `INSERT INTO email_template_versions (email_template_id, tenant_id, version_number, subject, body_text)
         VALUES ($1, $2, 1, 'Probe', 'Probe') RETURNING email_template_version_id`,
        [template!.email_template_id, tenant.tenantId],
      );
      return [template!.email_template_id, version!.email_template_version_id];
    };
    [foreignTemplate, foreignTemplateVersion] = await seedTemplate(b, 'foreign-template');
    [ownTemplate, ownTemplateVersion] = await seedTemplate(a, 'own-template');
    const [binding] = await t.dataSource.query<{ recipient_binding_id: string }[]>(
      `INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email) VALUES ($1, $2, 'email', 'probe@example.test') RETURNING recipient_binding_id`,
      [b.tenantId, foreignTemplate],
    );
    foreignBinding = binding!.recipient_binding_id;
    const [own] = await t.dataSource.query<{ recipient_binding_id: string }[]>(
      `INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email) VALUES ($1, $2, 'email', 'own@example.test') RETURNING recipient_binding_id`,
      [a.tenantId, ownTemplate],
    );
    ownBinding = own!.recipient_binding_id;
    foreignDelivery = randomUUID();
    await t.dataSource.query(
      `INSERT INTO email_deliveries (email_delivery_id, tenant_id, email_template_id, email_template_version_id, recipient_email, status, message_id, attempt_count)
       VALUES ($1, $2, $3, $4, 'probe@example.com', 'dead_lettered', '<probe@uplink.test>', 1)`,
      [foreignDelivery, b.tenantId, foreignTemplate, foreignTemplateVersion],
    );
    const [letter] = await t.dataSource.query<{ dead_letter_id: string }[]>(
      `INSERT INTO dead_letters (tenant_id, email_delivery_id, email_template_id, email_template_version_id, recipient_email, message_id, subject,
              body_text, attempts, last_error, first_attempt_at, last_attempt_at)
       VALUES ($1, $2, $3, $4, 'probe@example.com', '<probe@uplink.test>', 'Probe', 'Probe', 1, '{"code":"smtp_550","message":"550"}', now(), now())
       RETURNING dead_letter_id`,
      [b.tenantId, foreignDelivery, foreignTemplate, foreignTemplateVersion],
    );
    foreignDeadLetter = letter!.dead_letter_id;
  });
  afterAll(() => t.close());

  /**
   * Foreign ids inside an otherwise own request: a filter, a body reference or a second path id under an own
   * parent. Each is sent once with the foreign id and once with a random one; the two answers must be the same.
   */
  const crossProbes = (): CrossProbe[] => {
    const own = { type: ownType.deviceTypeId, flow: ownFlow.flowId, device: movedDevice.deviceId, unit: chain[2]!.organizationUnitId };
    const tenant = `/v1/tenants/${a.tenantNumber}`;
    const deviceBody = (deviceTypeId: string, organizationUnitId?: string) => ({ devEui: '00000000000000AB', name: 'Probe', deviceTypeId, organizationUnitId });
    return [
      { name: 'me of a tenant', method: 'get', path: (n) => `/v1/auth/me?tenantNumber=${n}`, foreign: String(b.tenantNumber), missing: RANDOM_TENANT_NUMBER },
      { name: 'units under a parent', method: 'get', path: (id) => `${tenant}/organization-units?parentOrganizationUnitId=${id}`, foreign: foreignUnit.organizationUnitId },
      { name: 'unit under a parent', method: 'post', path: () => `${tenant}/organization-units`, body: (id) => ({ key: 'cross-unit', name: 'Probe', parentOrganizationUnitId: id }), foreign: foreignUnit.organizationUnitId },
      { name: 'memberships of a unit', method: 'get', path: (id) => `${tenant}/memberships?organizationUnitId=${id}`, foreign: foreignUnit.organizationUnitId },
      {
        name: 'membership on a unit',
        method: 'post',
        path: () => `${tenant}/memberships`,
        body: (id) => ({ userId: bystander, role: 'tenant_viewer', organizationUnitId: id }),
        foreign: foreignUnit.organizationUnitId,
      },
      { name: 'audit of an entity', method: 'get', path: (id) => `${tenant}/audit-logs?entityId=${id}`, foreign: foreignDevice.deviceId },
      { name: 'devices of a type', method: 'get', path: (id) => `${tenant}/devices?deviceTypeId=${id}`, foreign: foreignType.deviceTypeId },
      { name: 'devices of a unit', method: 'get', path: (id) => `${tenant}/devices?organizationUnitId=${id}`, foreign: foreignUnit.organizationUnitId },
      { name: 'device of a type', method: 'post', path: () => `${tenant}/devices`, body: (id) => deviceBody(id), foreign: foreignType.deviceTypeId },
      { name: 'device in a unit', method: 'post', path: () => `${tenant}/devices`, body: (id) => deviceBody(own.type, id), foreign: foreignUnit.organizationUnitId },
      { name: 'assignment to a unit', method: 'post', path: () => `/v1/devices/${own.device}/assignments`, body: (id) => ({ organizationUnitId: id }), foreign: foreignUnit.organizationUnitId },
      { name: 'flows of a type', method: 'get', path: (id) => `${tenant}/flows?deviceTypeId=${id}`, foreign: foreignType.deviceTypeId },
      {
        name: 'activate a version',
        method: 'post',
        path: () => `/v1/flows/${own.flow}/activate`,
        body: (id) => ({ flowVersionId: id }),
        headers: IF_MATCH,
        foreign: foreignFlow.versionId,
      },
      { name: 'overrides of a device', method: 'get', path: (id) => `/v1/flows/${own.flow}/parameter-overrides?deviceId=${id}`, foreign: foreignDevice.deviceId },
      { name: 'PUT device override', method: 'put', path: (id) => `/v1/flows/${own.flow}/parameter-overrides/devices/${id}/factor`, body: () => ({ value: 1 }), foreign: foreignDevice.deviceId },
      { name: 'DELETE device override', method: 'delete', path: (id) => `/v1/flows/${own.flow}/parameter-overrides/devices/${id}/factor`, foreign: foreignDevice.deviceId },
      { name: 'parameters of a device', method: 'get', path: (id) => `/v1/flows/${own.flow}/resolved-parameters?deviceId=${id}`, foreign: foreignDevice.deviceId },
      { name: 'deliveries of a template', method: 'get', path: (id) => `${tenant}/email-deliveries?emailTemplateId=${id}`, foreign: foreignTemplate },
      { name: 'deliveries of a device', method: 'get', path: (id) => `${tenant}/email-deliveries?deviceId=${id}`, foreign: foreignDevice.deviceId },
      { name: 'deliveries of an execution', method: 'get', path: (id) => `${tenant}/email-deliveries?flowExecutionId=${id}`, foreign: foreignFlow.executionId },
      { name: 'dead letters of a template', method: 'get', path: (id) => `${tenant}/dead-letters?emailTemplateId=${id}`, foreign: foreignTemplate },
      {
        name: 'test-send of a foreign version under an own template',
        method: 'post',
        path: (id) => `/v1/email-templates/${ownTemplate}/versions/${id}/test-send`,
        body: () => ({ to: 'probe@example.com' }),
        foreign: foreignTemplateVersion,
      },
      {
        name: 'test-send with a foreign execution',
        method: 'post',
        path: () => `/v1/email-templates/${ownTemplate}/versions/${ownTemplateVersion}/test-send`,
        body: (id) => ({ to: 'probe@example.com', flowExecutionId: id }),
        foreign: foreignFlow.executionId,
      },
      {
        name: 'run an own block version on a foreign raw message',
        method: 'post',
        path: () => `/v1/flow-blocks/${ownBlock}/versions/${ownBlockVersion}/run`,
        body: (id) => ({ rawIngestionMessageId: id }),
        foreign: foreignRawMessage,
      },
      {
        name: 'copy a flow template into a flow',
        method: 'post',
        path: () => `/v1/flow-templates/${template.templateId}/versions/${template.versionId}/copy`,
        body: (id) => ({ flowId: id }),
        foreign: foreignFlow.flowId,
      },
      {
        name: 'parameters of a version',
        method: 'get',
        path: (id) => `/v1/flows/${own.flow}/resolved-parameters?deviceId=${own.device}&flowVersionId=${id}`,
        foreign: foreignFlow.versionId,
      },
      {
        name: 'activate an e-mail template version',
        method: 'post',
        path: () => `/v1/email-templates/${ownTemplate}/activate`,
        body: (id) => ({ emailTemplateVersionId: id }),
        headers: IF_MATCH,
        foreign: foreignTemplateVersion,
      },
      {
        name: 'render against an execution',
        method: 'post',
        path: () => `/v1/email-templates/${ownTemplate}/versions/${ownTemplateVersion}/render`,
        body: (id) => ({ flowExecutionId: id }),
        foreign: foreignFlow.executionId,
      },
      { name: 'bindings of a template', method: 'get', path: (id) => `${tenant}/recipient-bindings?emailTemplateId=${id}`, foreign: foreignTemplate },
      { name: 'bindings of a type', method: 'get', path: (id) => `${tenant}/recipient-bindings?deviceTypeId=${id}`, foreign: foreignType.deviceTypeId },
      { name: 'bindings of a unit', method: 'get', path: (id) => `${tenant}/recipient-bindings?organizationUnitId=${id}`, foreign: foreignUnit.organizationUnitId },
      {
        name: 'binding to a template',
        method: 'post',
        path: () => `${tenant}/recipient-bindings`,
        body: (id) => ({ emailTemplateId: id, recipientType: 'email', email: 'cross@example.test' }),
        foreign: foreignTemplate,
      },
      {
        name: 'binding to a type',
        method: 'post',
        path: () => `${tenant}/recipient-bindings`,
        body: (id) => ({ emailTemplateId: ownTemplate, recipientType: 'email', email: 'cross@example.test', deviceTypeId: id }),
        foreign: foreignType.deviceTypeId,
      },
      {
        name: 'binding to a unit',
        method: 'post',
        path: () => `${tenant}/recipient-bindings`,
        body: (id) => ({ emailTemplateId: ownTemplate, recipientType: 'email', email: 'cross@example.test', organizationUnitId: id }),
        foreign: foreignUnit.organizationUnitId,
      },
      { name: 'binding narrowed to a type', method: 'patch', path: () => `/v1/recipient-bindings/${ownBinding}`, body: (id) => ({ deviceTypeId: id }), foreign: foreignType.deviceTypeId },
      {
        name: 'binding narrowed to a unit',
        method: 'patch',
        path: () => `/v1/recipient-bindings/${ownBinding}`,
        body: (id) => ({ organizationUnitId: id }),
        foreign: foreignUnit.organizationUnitId,
      },
    ];
  };

  describe.each(['adminA', 'operatorA', 'viewerA', 'scopedA', 'pointA'])('%s', (who) => {
    it.each(TENANT_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign tenant from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, String(b.tenantNumber));
        const missing = await send(who, probe, RANDOM_TENANT_NUMBER);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(UNIT_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign unit from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignUnit.organizationUnitId);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(MEMBERSHIP_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign membership from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignMembership);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(DEVICE_TYPE_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign device type from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignType.deviceTypeId);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(DEVICE_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign device from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignDevice.deviceId);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(ASSIGNMENT_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign assignment from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, `${foreignDevice.deviceId}/${foreignAssignment}`);
        const missing = await send(who, probe, `${randomUUID()}/${randomUUID()}`);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(FLOW_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign flow from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignFlow.flowId);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(FLOW_BLOCK_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign custom block from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignBlock);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(FLOW_VERSION_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign flow version from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, `${foreignFlow.flowId}/${foreignFlow.versionId}`);
        const missing = await send(who, probe, `${randomUUID()}/${randomUUID()}`);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
        const underOwnFlow = await send(who, probe, `${ownFlow.flowId}/${foreignFlow.versionId}`);
        const randomUnderOwnFlow = await send(who, probe, `${ownFlow.flowId}/${randomUUID()}`);
        expect(underOwnFlow.status).toBe(404);
        expect(withoutCorrelation(underOwnFlow)).toEqual(withoutCorrelation(randomUnderOwnFlow));
      },
    );

    it.each(INGESTION_CREDENTIAL_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign or platform ingestion credential from a missing one: %s',
      async (_name, probe) => {
        const missing = await send(who, probe, randomUUID());
        for (const id of [foreignCredential, platformCredential]) {
          const foreign = await send(who, probe, id);
          expect(foreign.status).toBe(404);
          expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
        }
      },
    );

    it.each([
      ...EMAIL_DELIVERY_PROBES.map((probe) => [probe.name, probe, () => foreignDelivery] as const),
      ...DEAD_LETTER_PROBES.map((probe) => [probe.name, probe, () => foreignDeadLetter] as const),
    ])('cannot tell a foreign e-mail delivery or dead letter from a missing one: %s', async (_name, probe, target) => {
      const foreign = await send(who, probe, target());
      const missing = await send(who, probe, target().includes('/') ? `${randomUUID()}/${randomUUID()}` : randomUUID());
      expect(foreign.status).toBe(404);
      expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
    });

    it.each(FIXTURE_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign fixture from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, `${foreignFlow.flowId}/${foreignFlow.fixtureId}`);
        const missing = await send(who, probe, `${randomUUID()}/${randomUUID()}`);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
        const underOwnFlow = await send(who, probe, `${ownFlow.flowId}/${foreignFlow.fixtureId}`);
        const randomUnderOwnFlow = await send(who, probe, `${ownFlow.flowId}/${randomUUID()}`);
        expect(underOwnFlow.status).toBe(404);
        expect(withoutCorrelation(underOwnFlow)).toEqual(withoutCorrelation(randomUnderOwnFlow));
      },
    );

    it.each([
      ...EXECUTION_PROBES.map((probe) => [probe.name, probe, (flow: SeededFlow) => flow.executionId] as const),
      ...REPLAY_PROBES.map((probe) => [probe.name, probe, (flow: SeededFlow) => flow.replayId] as const),
    ])('cannot tell a foreign execution or replay from a missing one: %s', async (_name, probe, idOf) => {
      const foreign = await send(who, probe, `${foreignFlow.flowId}/${idOf(foreignFlow)}`);
      const missing = await send(who, probe, `${randomUUID()}/${randomUUID()}`);
      expect(foreign.status).toBe(404);
      expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      const underOwnFlow = await send(who, probe, `${ownFlow.flowId}/${idOf(foreignFlow)}`);
      const randomUnderOwnFlow = await send(who, probe, `${ownFlow.flowId}/${randomUUID()}`);
      expect(underOwnFlow.status).toBe(404);
      expect(withoutCorrelation(underOwnFlow)).toEqual(withoutCorrelation(randomUnderOwnFlow));
    });

    it('cannot tell a foreign device, version or replay named in an execution filter or a replay body from a missing one', async () => {
      const auth = { Authorization: `Bearer ${tokens[who]}` };
      const filters = ['deviceId', 'flowVersionId', 'replayId'] as const;
      const foreignIds = { deviceId: foreignDevice.deviceId, flowVersionId: foreignFlow.versionId, replayId: foreignFlow.replayId };
      for (const filter of filters) {
        const path = (id: string) => `/v1/flows/${ownFlow.flowId}/executions?${filter}=${id}`;
        const foreign = await http().get(path(foreignIds[filter])).set(auth);
        const missing = await http().get(path(randomUUID())).set(auth);
        if (who === 'adminA') expect(foreign.status).toBe(400);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      }
      const window = { from: '2026-01-01T00:00:00Z', to: '2026-01-02T00:00:00Z' };
      const bodies = [
        [(id: string) => ({ ...window, flowVersionId: id }), foreignFlow.versionId],
        [(id: string) => ({ ...window, deviceIds: [id] }), foreignDevice.deviceId],
      ] as const;
      for (const [bodyOf, foreignId] of bodies) {
        const path = `/v1/flows/${ownFlow.flowId}/replays`;
        const foreign = await http().post(path).set(auth).send(bodyOf(foreignId));
        const missing = await http().post(path).set(auth).send(bodyOf(randomUUID()));
        if (who === 'adminA') expect(foreign.status).toBe(400);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      }
    });

    it('cannot tell a foreign flow version or fixture named in a run body from a missing one', async () => {
      const bodies = [
        [`/v1/flows/${ownFlow.flowId}/fixture-runs`, (versionId: string) => ({ flowVersionId: versionId })],
        [`/v1/flows/${ownFlow.flowId}/fixture-runs`, (fixtureId: string) => ({ flowVersionId: ownFlow.versionId, fixtureIds: [fixtureId] })],
        [
          `/v1/flows/${ownFlow.flowId}/preview`,
          (versionId: string) => ({ flowVersionId: versionId, input: { ...PROBE_INPUT, mode: 'preview', tenantId: a.tenantId, deviceTypeId: ownType.deviceTypeId } }),
        ],
      ] as const;
      const foreignIds = [foreignFlow.versionId, foreignFlow.fixtureId, foreignFlow.versionId];
      for (const [index, [path, bodyOf]] of bodies.entries()) {
        const foreign = await http().post(path).set('Authorization', `Bearer ${tokens[who]}`).send(bodyOf(foreignIds[index]!));
        const missing = await http().post(path).set('Authorization', `Bearer ${tokens[who]}`).send(bodyOf(randomUUID()));
        if (who === 'adminA') expect(foreign.status).toBe(400);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      }
    });

    it('never sees a foreign tenant’s flows or parameter overrides', async () => {
      const auth = { Authorization: `Bearer ${tokens[who]}` };
      if (who === 'scopedA' || who === 'pointA') {
        // Flows are catalog objects: a grant on a unit does not read them.
        await http().get(`/v1/tenants/${a.tenantNumber}/flows`).set(auth).expect(403);
        return;
      }
      const flows = await http().get(`/v1/tenants/${a.tenantNumber}/flows`).set(auth).expect(200);
      expect(flows.body.items.map((item: { flowId: string }) => item.flowId)).toEqual([ownFlow.flowId]);
      const overrides = await http().get(`/v1/flows/${ownFlow.flowId}/parameter-overrides`).set(auth).expect(200);
      expect(overrides.body).toMatchObject({ items: [], totalCount: 0 });
    });

    it.each(EMAIL_TEMPLATE_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign e-mail template from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignTemplate);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(EMAIL_TEMPLATE_VERSION_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign e-mail template version from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, `${foreignTemplate}/${foreignTemplateVersion}`);
        const missing = await send(who, probe, `${randomUUID()}/${randomUUID()}`);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
        const mixed = await send(who, probe, `${ownTemplate}/${foreignTemplateVersion}`);
        const randomVersion = await send(who, probe, `${ownTemplate}/${randomUUID()}`);
        expect(withoutCorrelation(mixed)).toEqual(withoutCorrelation(randomVersion));
      },
    );

    it.each(RECIPIENT_BINDING_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign recipient binding from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, foreignBinding);
        const missing = await send(who, probe, randomUUID());
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
      },
    );

    it.each(FLOW_BLOCK_VERSION_PROBES.map((probe) => [probe.name, probe] as const))(
      'cannot tell a foreign block version from a missing one: %s',
      async (_name, probe) => {
        const foreign = await send(who, probe, `${foreignBlock}/${foreignBlockVersion}`);
        const missing = await send(who, probe, `${randomUUID()}/${randomUUID()}`);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
        // A foreign version under one's own block is the version's 404, like a random version id.
        const mixed = await send(who, probe, `${ownBlock}/${foreignBlockVersion}`);
        const randomVersion = await send(who, probe, `${ownBlock}/${randomUUID()}`);
        expect(withoutCorrelation(mixed)).toEqual(withoutCorrelation(randomVersion));
      },
    );

    it('never lists a foreign device or device type', async () => {
      const devices = await http().get(`/v1/tenants/${a.tenantNumber}/devices`).set('Authorization', `Bearer ${tokens[who]}`).expect(200);
      expect(JSON.stringify(devices.body)).not.toContain(foreignDevice.deviceId);
      const types = await http().get(`/v1/tenants/${a.tenantNumber}/device-types`).set('Authorization', `Bearer ${tokens[who]}`).expect(200);
      expect(types.body.items.map((item: { deviceTypeId: string }) => item.deviceTypeId)).toContain(ownType.deviceTypeId);
      expect(JSON.stringify(types.body)).not.toContain(foreignType.deviceTypeId);
      const catalog = await http().get(`/v1/tenants/${a.tenantNumber}/flow-block-catalog`).set('Authorization', `Bearer ${tokens[who]}`);
      expect(JSON.stringify(catalog.body)).not.toContain(foreignBlock);
    });

    it('cannot tell a foreign id in a filter, a body or under an own parent from a missing one', async () => {
      for (const probe of crossProbes()) {
        const request = (id: string) => {
          const req = http()[probe.method](probe.path(id)).set('Authorization', `Bearer ${tokens[who]}`).set(probe.headers ?? {});
          return probe.body ? req.send(probe.body(id)) : req;
        };
        const foreign = await request(probe.foreign);
        const missing = await request(probe.missing ?? randomUUID());
        expect({ probe: probe.name, answer: sameness(foreign) }).toEqual({ probe: probe.name, answer: sameness(missing) });
      }
    });

    it('lists only its own tenant', async () => {
      const res = await http().get('/v1/tenants').set('Authorization', `Bearer ${tokens[who]}`).expect(200);
      expect(res.body.items.map((item: { tenantId: string }) => item.tenantId)).toEqual([a.tenantId]);
      expect(res.body.totalCount).toBe(1);
    });
  });

  it.each(['scopedA', 'pointA'])('%s: an out-of-scope unit of its own tenant is a 404 like a missing one', async (who) => {
    for (const probe of UNIT_PROBES) {
      const outside = await send(who, probe, sibling.organizationUnitId);
      const missing = await send(who, probe, randomUUID());
      expect(outside.status).toBe(404);
      expect(withoutCorrelation(outside)).toEqual(withoutCorrelation(missing));
    }
  });

  it.each(['scopedA', 'pointA', 'scopedViewerA'])('%s: a sibling unit’s device and its periods are 404s like missing ones', async (who) => {
    for (const probe of DEVICE_PROBES) {
      const outside = await send(who, probe, siblingDevice.deviceId);
      const missing = await send(who, probe, randomUUID());
      expect(outside.status).toBe(404);
      expect(withoutCorrelation(outside)).toEqual(withoutCorrelation(missing));
    }
    for (const probe of ASSIGNMENT_PROBES) {
      const outside = await send(who, probe, `${siblingDevice.deviceId}/${siblingAssignment}`);
      expect(outside.status).toBe(404);
    }
    const list = await http().get(`/v1/tenants/${a.tenantNumber}/devices`).set('Authorization', `Bearer ${tokens[who]}`).expect(200);
    const listed = list.body.items.map((item: { deviceId: string }) => item.deviceId);
    expect(listed).not.toContain(siblingDevice.deviceId);
    expect(listed).toContain(movedDevice.deviceId);
  });

  it('shows a unit-scoped viewer a moved-in device’s history only from the move on', async () => {
    const auth = { Authorization: `Bearer ${tokens.scopedViewerA}` };
    const periods = await http().get(`/v1/devices/${movedDevice.deviceId}/assignments`).set(auth).expect(200);
    expect(periods.body.items.map((item: { organizationUnitId: string }) => item.organizationUnitId)).toEqual([chain[2]!.organizationUnitId]);
    const hidden = await t.dataSource.query<{ device_assignment_id: string }[]>(
      `SELECT device_assignment_id FROM device_assignments WHERE device_id = $1 AND valid_to IS NOT NULL`,
      [movedDevice.deviceId],
    );
    await http().get(`/v1/devices/${movedDevice.deviceId}/assignments/${hidden[0]!.device_assignment_id}`).set(auth).expect(404);

    const window = `from=${encodeURIComponent(new Date(movedAt.getTime() - 4 * 3600_000).toISOString())}&to=${encodeURIComponent(new Date().toISOString())}`;
    const points = await http().get(`/v1/devices/${movedDevice.deviceId}/measurements?${window}`).set(auth).expect(200);
    const observed = points.body.items.map((item: { observedAt: string }) => new Date(item.observedAt).getTime());
    expect(observed).toHaveLength(2);
    expect(observed.every((time: number) => time >= movedAt.getTime())).toBe(true);
    const all = await http().get(`/v1/devices/${movedDevice.deviceId}/measurements?${window}`).set('Authorization', `Bearer ${tokens.adminA}`).expect(200);
    expect(all.body.items).toHaveLength(6);
  });

  it('never lists foreign or out-of-scope units', async () => {
    const all = await http().get(`/v1/tenants/${a.tenantNumber}/organization-units?q=unit-`).set('Authorization', `Bearer ${tokens.adminA}`);
    const ids = (res: Response) => (res.body.items as { organizationUnitId: string }[]).map((item) => item.organizationUnitId);
    expect(all.status).toBe(200);
    expect(ids(all)).not.toContain(foreignUnit.organizationUnitId);

    const scoped = await http().get(`/v1/tenants/${a.tenantNumber}/organization-units?q=unit-`).set('Authorization', `Bearer ${tokens.scopedA}`);
    expect(scoped.status).toBe(200);
    expect(ids(scoped)).not.toContain(sibling.organizationUnitId);
    expect(ids(scoped)).not.toContain(foreignUnit.organizationUnitId);
    expect(ids(scoped)).toEqual(expect.arrayContaining(chain.slice(2).map((unit) => unit.organizationUnitId)));
  });

  it('shows ancestors of a scoped grant for navigation only: readable, not writable', async () => {
    const ancestor = chain[1]!;
    const res = await http().get(`/v1/organization-units/${ancestor.organizationUnitId}`).set('Authorization', `Bearer ${tokens.scopedA}`).expect(200);
    expect(res.body.scopeRelation).toBe('ancestor');
    const patch = await t
      .http()
      .patch(`/v1/organization-units/${ancestor.organizationUnitId}`)
      .set('Authorization', `Bearer ${tokens.scopedA}`)
      .send({ name: 'Not mine' })
      .expect(403);
    expect(patch.body.error.details).toMatchObject({ reason: 'missing_permission' });
    const own = await http().get(`/v1/organization-units/${chain[4]!.organizationUnitId}`).set('Authorization', `Bearer ${tokens.scopedA}`).expect(200);
    expect(own.body.scopeRelation).toBe('accessible');
  });

  it('limits a grant without descendants to its own unit', async () => {
    await http().get(`/v1/organization-units/${chain[2]!.organizationUnitId}`).set('Authorization', `Bearer ${tokens.pointA}`).expect(200);
    await http().get(`/v1/organization-units/${chain[3]!.organizationUnitId}`).set('Authorization', `Bearer ${tokens.pointA}`).expect(404);
  });

  it("answers a viewer's writes with 403 missing_permission", async () => {
    const writes = [
      http().patch(`/v1/tenants/${a.tenantNumber}`).send({ name: 'Nope' }),
      http().post(`/v1/tenants/${a.tenantNumber}/organization-units`).send({ key: 'viewer-unit', name: 'Nope' }),
      http().patch(`/v1/organization-units/${chain[0]!.organizationUnitId}`).send({ name: 'Nope' }),
      http().post(`/v1/organization-units/${chain[0]!.organizationUnitId}/disable`),
      http().post(`/v1/tenants/${a.tenantNumber}/memberships`).send({ userId: randomUUID(), role: 'tenant_viewer' }),
      http().patch(`/v1/flows/${ownFlow.flowId}`).set(IF_MATCH).send({ name: 'Nope' }),
      http().post(`/v1/flows/${ownFlow.flowId}/versions`).send({ graph: { ...PROBE_GRAPH, deviceTypeId: ownType.deviceTypeId } }),
      http().post(`/v1/flows/${ownFlow.flowId}/versions/${ownFlow.versionId}/release`),
      http().post(`/v1/flows/${ownFlow.flowId}/versions/${ownFlow.versionId}/deprecate`),
      http().post(`/v1/flows/${ownFlow.flowId}/activate`).set(IF_MATCH).send({ flowVersionId: ownFlow.versionId }),
      http().post(`/v1/flows/${ownFlow.flowId}/fixtures`).send({ input: { ...PROBE_INPUT, tenantId: a.tenantId, deviceTypeId: ownType.deviceTypeId } }),
      http().put(`/v1/flows/${ownFlow.flowId}/fixtures/${ownFlow.fixtureId}`).set(IF_MATCH).send({ input: { ...PROBE_INPUT, tenantId: a.tenantId, deviceTypeId: ownType.deviceTypeId } }),
      http().delete(`/v1/flows/${ownFlow.flowId}/fixtures/${ownFlow.fixtureId}`).set(IF_MATCH),
      http().put(`/v1/flows/${ownFlow.flowId}/parameter-overrides/tenant/factor`).send({ value: 1 }),
      http().put(`/v1/flows/${ownFlow.flowId}/parameter-overrides/device-type/factor`).send({ value: 1 }),
      http().post(`/v1/tenants/${a.tenantNumber}/flow-blocks`).send({ key: 'viewer-block', name: 'Nope' }),
      http().patch(`/v1/flow-blocks/${ownBlock}`).send({ name: 'Nope' }),
      http().post(`/v1/flow-blocks/${ownBlock}/versions`).send(BLOCK_VERSION_BODY),
      http().post(`/v1/flow-blocks/${ownBlock}/versions/${ownBlockVersion}/compile`),
      http().post(`/v1/flow-blocks/${ownBlock}/versions/${ownBlockVersion}/release`),
      http().post(`/v1/flow-blocks/${ownBlock}/versions/${ownBlockVersion}/deprecate`),
      http().post(`/v1/flows/${ownFlow.flowId}/fixture-runs`).send({ flowVersionId: ownFlow.versionId }),
      http().post(`/v1/flow-templates/${template.templateId}/versions/${template.versionId}/copy`).send({ flowId: ownFlow.flowId }),
      http()
        .post(`/v1/flows/${ownFlow.flowId}/preview`)
        .send({ flowVersionId: ownFlow.versionId, input: { ...PROBE_INPUT, mode: 'preview', tenantId: a.tenantId, deviceTypeId: ownType.deviceTypeId } }),
      http().post(`/v1/tenants/${a.tenantNumber}/ingestion-credentials`).send({ name: 'Nope' }),
      http().post(`/v1/ingestion-credentials/${ownCredential}/revoke`),
    ];
    for (const write of writes) {
      const res = await write.set('Authorization', `Bearer ${tokens.viewerA}`);
      expect(res.status).toBe(403);
      expect(res.body.error.details.reason).toBe('missing_permission');
    }
    const denied = await t.dataSource.query(`SELECT count(*)::int AS n FROM audit_log WHERE event_type = 'access.denied' AND tenant_id = $1`, [
      a.tenantId,
    ]);
    expect(denied[0].n).toBeGreaterThanOrEqual(writes.length);
  });

  it('makes the tenant invisible on the next request once the only membership is disabled', async () => {
    const viewer = await seedUser(t);
    const membership = await seedGrant(t, viewer.userId, a, 'tenant_viewer');
    const token = (await login(t, viewer.username, viewer.password)).accessToken;
    await http().get(`/v1/tenants/${a.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(200);
    await http().post(`/v1/memberships/${membership}/disable`).set('Authorization', `Bearer ${tokens.adminA}`).expect(200);
    await http().get(`/v1/tenants/${a.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(404);
    const list = await http().get('/v1/tenants').set('Authorization', `Bearer ${token}`).expect(200);
    expect(list.body.items).toEqual([]);
    // Only that user loses the tenant: another member's grant in it stays active and effective.
    const grants = await t.dataSource.query<{ membership_id: string; status: string }[]>(
      `SELECT membership_id, status FROM memberships WHERE membership_id = ANY($1::uuid[]) ORDER BY status`,
      [[membership, ownMembership]],
    );
    expect(grants).toEqual([
      { membership_id: ownMembership, status: 'active' },
      { membership_id: membership, status: 'disabled' },
    ]);
    await http().get(`/v1/tenants/${a.tenantNumber}`).set('Authorization', `Bearer ${tokens.viewerA}`).expect(200);
  });

  it('makes a disabled tenant invisible to its members on the next request, not to platform admins', async () => {
    const c = await seedTenant(t);
    const member = await seedUser(t);
    await seedGrant(t, member.userId, c, 'tenant_admin');
    const token = (await login(t, member.username, member.password)).accessToken;
    await http().get(`/v1/tenants/${c.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(200);
    await http().post(`/v1/tenants/${c.tenantNumber}/disable`).set('Authorization', `Bearer ${tokens.platformAdmin}`).expect(200);
    await http().get(`/v1/tenants/${c.tenantNumber}`).set('Authorization', `Bearer ${token}`).expect(404);
    const admin = await http().get(`/v1/tenants/${c.tenantNumber}`).set('Authorization', `Bearer ${tokens.platformAdmin}`).expect(200);
    expect(admin.body.status).toBe('disabled');
  });
  /*
   * Runs last: it reads the requests the tests above sent. Every id input of every operation in the OpenAPI
   * document must have been sent a foreign (or out-of-scope) id at least once, unless NOT_TENANT_OWNED lists it,
   * so that a new route without its probe fails here.
   */
  it('probes every operation of the OpenAPI document that takes a tenant-owned id', async () => {
    const document = await buildOpenApi();
    const components = (document.components?.schemas ?? {}) as Record<string, Schema>;
    const foreign = new Set<string>([
      String(b.tenantNumber),
      foreignUnit.organizationUnitId,
      foreignMembership,
      foreignType.deviceTypeId,
      foreignDevice.deviceId,
      foreignAssignment,
      ...Object.values(foreignFlow),
      foreignBlock,
      foreignBlockVersion,
      foreignRawMessage,
      foreignCredential,
      platformCredential,
      foreignTemplate,
      foreignTemplateVersion,
      foreignBinding,
      foreignDelivery,
      foreignDeadLetter,
      sibling.organizationUnitId,
      siblingDevice.deviceId,
      siblingAssignment,
    ]);
    const isForeign = (value: unknown): boolean =>
      Array.isArray(value) ? value.some(isForeign) : (typeof value === 'string' || typeof value === 'number') && foreign.has(String(value));

    const probed = new Set<string>();
    for (const request of sent) {
      const [pathPart, query = ''] = request.url.split('?');
      const template = templateOf(document, pathPart!);
      if (!template) continue;
      const key = `${request.method.toUpperCase()} ${template}`;
      const segments = pathPart!.split('/');
      template.split('/').forEach((part, index) => {
        const name = /^\{(.+)\}$/.exec(part)?.[1];
        if (name && isForeign(decodeURIComponent(segments[index]!))) probed.add(`${key} path:${name}`);
      });
      for (const [name, value] of new URLSearchParams(query)) if (isForeign(value)) probed.add(`${key} query:${name}`);
      for (const [name, value] of bodyIdsOf(request.body)) if (isForeign(value)) probed.add(`${key} body:${name}`);
    }

    const required: string[] = [];
    for (const { method, path, operation } of operationsOf(document)) {
      const key = `${method.toUpperCase()} ${path}`;
      const inputs = [
        ...((operation.parameters ?? []) as { name: string; in: string }[]).filter((p) => p.in !== 'header' && ID_INPUT.test(p.name)).map((p) => `${p.in}:${p.name}`),
        ...idPropertiesOf(requestSchemaOf(operation), components).map((name) => `body:${name}`),
      ];
      for (const input of inputs) if (!NOT_TENANT_OWNED[key]?.[input]) required.push(`${key} ${input}`);
    }
    expect(required.length).toBeGreaterThan(100);
    expect(required.filter((input) => !probed.has(input))).toEqual([]);

    // An exemption for an input the document no longer has is stale.
    const all = new Set(
      operationsOf(document).flatMap(({ method, path, operation }) => [
        ...((operation.parameters ?? []) as { name: string; in: string }[]).map((p) => `${method.toUpperCase()} ${path} ${p.in}:${p.name}`),
        ...idPropertiesOf(requestSchemaOf(operation), components).map((name) => `${method.toUpperCase()} ${path} body:${name}`),
      ]),
    );
    const exempted = Object.entries(NOT_TENANT_OWNED).flatMap(([key, inputs]) => Object.keys(inputs).map((input) => `${key} ${input}`));
    expect(exempted.filter((input) => !all.has(input))).toEqual([]);
  });
});
