/**
 * Realistic examples of every request and response schema, keyed by component schema name. They are set as the
 * schema-level `example` when the document is built (see `withSchemaExamples`); the document test checks that every
 * request body and 2xx response has one and that each example is valid against its own schema, so a DTO change that
 * makes an example wrong fails the test.
 */

const TENANT_ID = '5b0c7e2a-3f41-4d8e-9a6b-1c2d3e4f5a6b';
const USER_ID = '8f14e45f-ceea-4e7a-8b2d-6c1f0a9d3b57';
const ADMIN_USER_ID = '0d9c2b1a-7e6f-4c5d-8b3a-2f1e0d9c8b7a';
const SESSION_ID = 'c4ca4238-a0b9-4382-8dcc-509a6f75849b';
const ROOT_UNIT_ID = '1f0e2d3c-4b5a-4697-8877-a6b5c4d3e2f1';
const UNIT_ID = '6e8a2c41-9b3d-4f57-a1c2-d3e4f5a6b7c8';
const MEMBERSHIP_ID = 'a87ff679-a2f3-471d-9181-a67b7542122c';
const DEVICE_TYPE_ID = '3c59dc04-8e1a-4b2f-9d6c-7e8f9a0b1c2d';
const FIELD_ID = 'e4da3b7f-bbce-4345-8777-2b0675c2f7a9';
const FIELD2_ID = 'd3d94468-02a4-4c3b-9e6f-8a7b6c5d4e3f';
const DEVICE_ID = '9bf31c7f-f062-4f36-a9d1-2e8c4b7a5d60';
const ASSIGNMENT_ID = '45c48cce-2e2d-4fbd-aa1a-f4d1c6b3e7a2';
const EARLIER_ASSIGNMENT_ID = '70efdf2e-c9b0-4b8d-8f63-1a2b3c4d5e6f';
const AUDIT_ID = '1679091c-5a88-4faf-afb5-e6087eb1b2dc';
const CORRELATION_ID = '3f1c9a52-8d4e-4f7b-9a61-0c2e5b7d9e14';
const CURSOR = 'eyJ2IjoxLCJrIjpbIjIwMjYtMDMtMTRUMDk6MjY6NTMuNTg5WiIsIjliZjMxYzdmIl19.Qm9fS2lYc1VhN3JwZ0pXbFh0N2c';
const ACCESS_TOKEN =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiI4ZjE0ZTQ1Zi1jZWVhLTRlN2EtOGIyZC02YzFmMGE5ZDNiNTciLCJzaWQiOiJjNGNhNDIzOC1hMGI5LTQzODItOGRjYy01MDlhNmY3NTg0OWIiLCJpYXQiOjE3NzM0ODA0MTMsImV4cCI6MTc3MzQ4MjIxM30.kXq1m0n3v5QwYh2ZbR8sT4uJ7cLd9eFgH1iK6oP0aNs';

const user = {
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

const session = {
  sessionId: SESSION_ID,
  createdAt: '2026-03-14T09:26:53.589Z',
  lastUsedAt: '2026-03-14T11:02:40.117Z',
  refreshIdleExpiresAt: '2026-03-21T11:02:40.117Z',
  current: true,
};

const tenant = {
  tenantId: TENANT_ID,
  tenantNumber: 7,
  key: 'acme-water',
  name: 'Acme Water Utilities',
  status: 'active',
  metadata: { region: 'eu-west', contractId: 'C-2026-0117' },
  createdAt: '2026-01-12T14:03:22.481Z',
  updatedAt: '2026-01-12T14:03:22.481Z',
};

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

const membership = {
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

const auditEvent = {
  auditLogId: AUDIT_ID,
  eventType: 'device.assigned',
  actorType: 'user',
  actorId: USER_ID,
  action: 'assign',
  entityType: 'device',
  entityId: DEVICE_ID,
  outcome: 'success',
  occurredAt: '2026-03-14T10:05:09.233Z',
  correlationId: CORRELATION_ID,
  method: 'POST',
  route: '/v1/devices/{deviceId}/assignments',
  statusCode: 201,
  metadata: { organizationUnitId: UNIT_ID, deviceAssignmentId: ASSIGNMENT_ID },
};

const deviceType = {
  deviceTypeId: DEVICE_TYPE_ID,
  tenantId: TENANT_ID,
  key: 'water-meter-lw',
  name: 'LoRaWAN water meter',
  description: 'Ultrasonic water meter reporting volume, flow and battery every 15 minutes.',
  status: 'active',
  lockVersion: 3,
  createdAt: '2026-01-20T13:45:00.120Z',
  updatedAt: '2026-02-18T16:20:44.902Z',
};

const field = {
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

const batteryField = {
  ...field,
  deviceFieldDefinitionId: FIELD2_ID,
  key: 'battery.voltage',
  name: 'Battery voltage',
  description: '',
  unit: 'V',
  measurementType: 'gauge',
  lockVersion: 1,
  createdAt: '2026-01-20T13:48:02.731Z',
  updatedAt: '2026-01-20T13:48:02.731Z',
};

const assignment = {
  deviceAssignmentId: ASSIGNMENT_ID,
  deviceId: DEVICE_ID,
  tenantId: TENANT_ID,
  organizationUnitId: UNIT_ID,
  validFrom: '2026-03-14T10:05:09.201Z',
  validTo: null,
  assignedAt: '2026-03-14T10:05:09.201Z',
  createdAt: '2026-03-14T10:05:09.201Z',
  updatedAt: '2026-03-14T10:05:09.201Z',
};

const closedAssignment = {
  ...assignment,
  deviceAssignmentId: EARLIER_ASSIGNMENT_ID,
  organizationUnitId: ROOT_UNIT_ID,
  validFrom: '2026-02-10T07:30:00.000Z',
  validTo: '2026-03-14T10:05:09.201Z',
  assignedAt: '2026-02-10T07:31:12.448Z',
  createdAt: '2026-02-10T07:31:12.448Z',
  updatedAt: '2026-03-14T10:05:09.201Z',
};

const device = {
  deviceId: DEVICE_ID,
  tenantId: TENANT_ID,
  deviceTypeId: DEVICE_TYPE_ID,
  devEui: '70B3D57ED005A4F1',
  name: 'Meter 0417 – Harbour Road pump station',
  status: 'active',
  metadata: { serialNumber: 'WM-22-004171', installedBy: 'North crew 2' },
  currentAssignment: assignment,
  lastSeenAt: '2026-03-14T10:15:00.412Z',
  createdAt: '2026-02-10T07:31:12.448Z',
  updatedAt: '2026-03-14T10:05:09.201Z',
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

const measurementPoint = { fieldKey: 'volume.total', observedAt: '2026-03-14T10:00:00.000Z', value: 1532.418 };
const measurementBucket = { fieldKey: 'volume.total', bucketStart: '2026-03-14T10:00:00.000Z', value: 1532.9, count: 4 };

const FLOW_BLOCK_ID = '2b7e1516-28ae-4d2a-a6d2-abf7158809cf';
const GLOBAL_FLOW_BLOCK_ID = 'f4a3c2b1-0e9d-4c8b-a7f6-e5d4c3b2a190';
const FLOW_BLOCK_VERSION_ID = '6bc1bee2-2e40-4f9f-96e9-3d7e117393a1';
const FLOW_BLOCK_VERSION2_ID = 'ae2d8a57-1e03-4ac9-9cb7-6f2e45af8e51';

/** A real TTN v3 payload formatter (tank level sensor), the example of a codec block's source. */
const TANK_DECODER = [
  '// Ultrasonic tank level sensor, The Things Stack payload formatter.',
  '// fPort 1: uint16 BE distance (mm), int16 BE temperature (0.1 °C), uint8 battery (%).',
  'function decodeUplink(input) {',
  '  var bytes = input.bytes;',
  '  if (input.fPort !== 1) {',
  '    return { errors: ["unknown fPort " + input.fPort] };',
  '  }',
  '  if (bytes.length < 5) {',
  '    return { errors: ["payload too short: " + bytes.length + " bytes"] };',
  '  }',
  '  var distance = (bytes[0] << 8) | bytes[1];',
  '  var raw = (bytes[2] << 8) | bytes[3];',
  '  var temperature = (raw & 0x8000 ? raw - 0x10000 : raw) / 10;',
  '  var warnings = bytes[4] < 20 ? ["battery low"] : [];',
  '  var depth = input.variables.tankDepthMm || 2000;',
  '  return {',
  '    data: { distance_mm: distance, level_percent: Math.round((1 - distance / depth) * 1000) / 10, temperature: temperature, battery: bytes[4] },',
  '    warnings: warnings,',
  '  };',
  '}',
  '',
].join('\n');

const tankSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  additionalProperties: false,
  properties: { tankDepthMm: { type: 'integer', minimum: 100, maximum: 20000, default: 2000 } },
};
const tankSample = { payload: [0x02, 0x58, 0x00, 0xd7, 0x55], input: { connectionData: { fPort: 1 } } };

const flowBlock = {
  flowBlockId: FLOW_BLOCK_ID,
  scope: 'tenant',
  tenantId: TENANT_ID,
  key: 'tank-level-ttn',
  name: 'Tank level (TTN codec)',
  description: 'Decodes the ultrasonic tank level sensor uplinks with its TTN payload formatter.',
  latestVersionNumber: 2,
  createdAt: '2026-03-10T09:12:44.120Z',
  updatedAt: '2026-03-10T09:12:44.120Z',
};
const globalFlowBlock = {
  ...flowBlock,
  flowBlockId: GLOBAL_FLOW_BLOCK_ID,
  scope: 'global',
  tenantId: null,
  key: 'cayenne-lpp',
  name: 'Cayenne LPP decoder',
  description: 'Decodes Cayenne Low Power Payload frames for every tenant.',
  latestVersionNumber: 1,
};
const blockArtifact = {
  engine: 'isolated-vm',
  engineVersion: '5.0.4',
  sha256: '9f2c4e8a1b3d5f7091a2b3c4d5e6f708192a3b4c5d6e7f8091a2b3c4d5e6f708',
  sizeBytes: 871,
  compiledAt: '2026-03-11T14:03:27.514Z',
};
const blockGateReport = {
  compile: 'passed',
  sandbox: 'passed',
  durationMs: 14,
  issues: [],
  sample: { result: { payload: { distance_mm: 600, level_percent: 70, temperature: 21.5, battery: 85 } }, logs: [], logsTruncated: false },
};
const blockVersionSummary = {
  flowBlockVersionId: FLOW_BLOCK_VERSION_ID,
  flowBlockId: FLOW_BLOCK_ID,
  tenantId: TENANT_ID,
  versionNumber: 2,
  status: 'released',
  scriptContract: 'decodeUplink',
  sourceSha256: blockArtifact.sha256,
  configurationSchema: tankSchema,
  sampleInput: tankSample,
  notes: 'Reports the level in percent of the configured tank depth.',
  artifact: blockArtifact,
  gateReport: blockGateReport,
  createdAt: '2026-03-11T14:02:58.301Z',
  releasedAt: '2026-03-11T14:03:27.530Z',
  deprecatedAt: null,
};
const blockVersion = { ...blockVersionSummary, sourceCode: TANK_DECODER };
const catalogVersion = {
  flowBlockVersionId: FLOW_BLOCK_VERSION_ID,
  versionNumber: 2,
  scriptContract: 'decodeUplink',
  ports: ['out'],
  configurationSchema: tankSchema,
  releasedAt: '2026-03-11T14:03:27.530Z',
};
const catalogCustomItem = {
  type: 'custom',
  flowBlockId: FLOW_BLOCK_ID,
  scope: 'tenant',
  key: flowBlock.key,
  name: flowBlock.name,
  description: flowBlock.description,
  versions: [catalogVersion],
};
const catalogBuiltInItem = {
  type: 'builtin',
  key: 'scale',
  name: 'Scale',
  description: 'Multiplies a value and adds an offset, optionally rounded.',
  version: 1,
  ports: ['out'],
  configurationSchema: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    required: ['fieldKey'],
    properties: { fieldKey: { type: 'string' }, multiply: { type: 'number', default: 1 }, add: { type: 'number', default: 0 } },
  },
};
const blockGateIssue = { severity: 'error', code: 'syntax_error', path: 'sourceCode', message: "SyntaxError: Unexpected token ';'", line: 12, column: 27 };

const page = (items: unknown[], totalCount?: number): Record<string, unknown> => ({
  items,
  nextCursor: CURSOR,
  ...(totalCount === undefined ? {} : { totalCount }),
});


const FLOW_ID = 'b6d767d2-f8ed-4d21-8a4f-5b3c2d1e0f9a';
const FLOW_VERSION_ID = '37693cfc-7480-4f9e-9c1b-2a3d4e5f6a7b';
const FLOW_VERSION2_ID = '1ff1de77-4005-48da-a1c2-b3d4e5f6a7b8';
const FIXTURE_ID = '8e296a06-7a2b-4c1d-9e3f-0a1b2c3d4e5f';
const OVERRIDE_ID = '4e732ced-3463-4d06-8f9a-0b1c2d3e4f5a';

const flow = {
  flowId: FLOW_ID,
  tenantId: TENANT_ID,
  deviceTypeId: DEVICE_TYPE_ID,
  deviceTypeName: 'LoRaWAN water meter',
  key: 'water-meter-decoder',
  name: 'Water meter decoder',
  description: 'Decodes the 6-byte uplink of the ultrasonic water meter into volume and battery.',
  activeVersionId: FLOW_VERSION_ID,
  activeVersionNumber: 3,
  createdAt: '2026-02-10T08:00:00.000Z',
  updatedAt: '2026-03-12T14:05:41.118Z',
};

/** A complete `flow-graph.v2`: decode-binary -> scale -> both outputs. */
const flowGraph = {
  schemaVersion: 'flow-graph.v2',
  deviceTypeId: DEVICE_TYPE_ID,
  nodes: [
    {
      kind: 'block',
      nodeId: 'decode',
      block: { type: 'builtin', key: 'decode-binary', version: 1 },
      name: 'Decode uplink',
      configuration: { reads: [{ offset: 0, type: 'uint32be', fieldKey: 'volume.total' }, { offset: 4, type: 'uint16be', fieldKey: 'battery.mv' }] },
      position: { x: 0, y: 100 },
    },
    {
      kind: 'block',
      nodeId: 'to-m3',
      block: { type: 'builtin', key: 'scale', version: 1 },
      name: 'Litres to m³',
      configuration: { fieldKey: 'volume.total', multiply: { $param: 'volumeFactor' }, add: 0, decimals: 3 },
      position: { x: 300, y: 100 },
    },
    { kind: 'current-output', nodeId: 'current', block: null, name: 'Current values', configuration: { fields: [{ fieldKey: 'volume.total', schemaRef: 'platform://schemas/number/v1' }, { fieldKey: 'battery.mv', schemaRef: 'platform://schemas/number/v1' }] }, position: { x: 600, y: 0 } },
    { kind: 'timeseries-output', nodeId: 'history', block: null, name: 'Time series', configuration: { fields: [{ fieldKey: 'volume.total', schemaRef: 'platform://schemas/number/v1' }] }, position: { x: 600, y: 200 } },
  ],
  edges: [
    { fromNodeId: 'decode', fromPort: 'out', toNodeId: 'to-m3' },
    { fromNodeId: 'to-m3', toNodeId: 'current' },
    { fromNodeId: 'to-m3', toNodeId: 'history' },
  ],
};

const flowParameters = [{ key: 'volumeFactor', type: 'number', defaultValue: 0.001, description: 'Litres per reported unit, divided by 1000.' }];

const flowVersion = {
  flowVersionId: FLOW_VERSION_ID,
  flowId: FLOW_ID,
  tenantId: TENANT_ID,
  versionNumber: 3,
  status: 'released',
  graph: flowGraph,
  parameters: flowParameters,
  checksum: '9f2c4e1b7a3d5f60812c9e4b3a7d6f5e0c1b2a3948576e5f4d3c2b1a09f8e7d6',
  releasedAt: '2026-03-12T14:02:10.507Z',
  createdAt: '2026-03-12T13:40:00.000Z',
};

const fixtureInput = {
  mode: 'fixture',
  rawPayload: { encoding: 'hex', data: '0001E2400E74' },
  observedAt: '2026-03-14T09:15:00.000Z',
  rawReceivedAt: '2026-03-14T09:15:01.204Z',
  tenantId: TENANT_ID,
  deviceId: DEVICE_ID,
  deviceTypeId: DEVICE_TYPE_ID,
  correlationId: 'fixture-normal-reading',
  connectionData: { fPort: 2, rssi: -97, snr: 7.5 },
  parameters: {},
};

/** A preview of the example graph on the example input: 123456 litres -> 123.456 m³, battery 3700 mV. */
const executionResult = {
  status: 'succeeded',
  flowVersionId: FLOW_VERSION_ID,
  durationMs: 0.412,
  current: { 'volume.total': 123.456, 'battery.mv': 3700 },
  timeseries: { 'volume.total': 123.456 },
  actions: [],
  error: null,
  trace: [
    { nodeId: 'decode', kind: 'block', block: { type: 'builtin', key: 'decode-binary', version: 1 }, status: 'succeeded', port: 'out', startedAtOffsetMs: 0.021, durationMs: 0.095, output: { payload: [0, 1, 226, 64, 14, 116], values: { 'volume.total': 123456, 'battery.mv': 3700 } }, outputTruncated: false, logs: [], error: null },
    { nodeId: 'to-m3', kind: 'block', block: { type: 'builtin', key: 'scale', version: 1 }, status: 'succeeded', port: 'out', startedAtOffsetMs: 0.131, durationMs: 0.032, output: { payload: [0, 1, 226, 64, 14, 116], values: { 'volume.total': 123.456, 'battery.mv': 3700 } }, outputTruncated: false, logs: [], error: null },
    { nodeId: 'current', kind: 'current-output', block: null, status: 'succeeded', port: null, startedAtOffsetMs: 0.178, durationMs: 0.041, output: { 'volume.total': 123.456, 'battery.mv': 3700 }, outputTruncated: false, logs: [], error: null },
    { nodeId: 'history', kind: 'timeseries-output', block: null, status: 'succeeded', port: null, startedAtOffsetMs: 0.236, durationMs: 0.019, output: { 'volume.total': 123.456 }, outputTruncated: false, logs: [], error: null },
  ],
};

const fixture = {
  fixtureId: FIXTURE_ID,
  flowId: FLOW_ID,
  tenantId: TENANT_ID,
  name: 'Normal reading',
  input: fixtureInput,
  raw: null,
  rawRetentionExtended: false,
  assertions: [{ path: 'current["volume.total"]', expected: 123.456 }, { path: 'status', expected: 'succeeded' }],
  lockVersion: 2,
  createdAt: '2026-03-12T13:45:00.000Z',
  updatedAt: '2026-03-13T08:10:22.941Z',
};

const parameterOverride = {
  parameterOverrideId: OVERRIDE_ID,
  tenantId: TENANT_ID,
  level: 'device',
  deviceTypeId: DEVICE_TYPE_ID,
  deviceId: DEVICE_ID,
  key: 'volumeFactor',
  value: 0.01,
  createdAt: '2026-03-13T10:00:00.000Z',
  updatedAt: '2026-03-13T10:00:00.000Z',
};

export const SCHEMA_EXAMPLES: Record<string, unknown> = {
  // Authentication
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

  // Users
  UserResponse: user,
  UserPage: page([user, { ...user, userId: ADMIN_USER_ID, username: 'platform.admin', email: 'ops@uplink.example', displayName: 'Platform Administrator', metadata: {}, platformRoles: ['platform_admin'], isProtected: true, createdAt: '2026-01-05T06:00:00.000Z', updatedAt: '2026-01-05T06:12:44.871Z' }], 142),
  CreateUserRequest: {
    username: 'maria.lopez',
    email: 'maria.lopez@acme-water.example',
    displayName: 'María López',
    temporaryPassword: 'Temp-Pass-7Q2x-Lm9w',
    metadata: { department: 'Field operations', employeeNumber: 'E-10442' },
  },
  UpdateUserRequest: { displayName: 'María López García', status: 'disabled' },
  SetTemporaryPasswordRequest: { temporaryPassword: 'Reset-8Kp3-Vn6t-Wq1z' },
  UserMembershipResponse: { ...membership, tenantNumber: 7 },
  UserMembershipPage: page([{ ...membership, tenantNumber: 7 }], 3),

  // Tenants
  TenantResponse: tenant,
  TenantPage: page([tenant], 12),
  CreateTenantRequest: { key: 'acme-water', name: 'Acme Water Utilities', metadata: { region: 'eu-west', contractId: 'C-2026-0117' } },
  UpdateTenantRequest: { name: 'Acme Water & Wastewater Utilities' },

  // Organization units
  OrganizationUnitResponse: unit,
  OrganizationUnitPage: page([rootUnit, unit], 27),
  OrganizationUnitAncestors: { items: [rootUnit] },
  CreateOrganizationUnitRequest: { key: 'north-district', name: 'North District', parentOrganizationUnitId: ROOT_UNIT_ID, metadata: { costCenter: 'CC-4410' } },
  UpdateOrganizationUnitRequest: { name: 'North & Harbour District', metadata: { costCenter: 'CC-4410', manager: 'J. Okafor' } },

  // Memberships
  MembershipResponse: membership,
  MembershipPage: page([membership], 38),
  CreateMembershipRequest: { userEmail: 'maria.lopez@acme-water.example', role: 'tenant_operator', organizationUnitId: UNIT_ID, includeDescendants: true },
  UpdateMembershipRequest: { role: 'tenant_admin' },

  // Audit
  AuditEventResponse: auditEvent,
  AuditEventPage: page([auditEvent]),
  GlobalAuditEventResponse: { ...auditEvent, tenantId: TENANT_ID },
  GlobalAuditEventPage: page([
    { ...auditEvent, tenantId: TENANT_ID },
    {
      ...auditEvent,
      auditLogId: '8e296a06-7a2b-4c1d-9e3f-5a6b7c8d9e0f',
      eventType: 'session.login_succeeded',
      action: 'login',
      entityType: 'session',
      entityId: SESSION_ID,
      occurredAt: '2026-03-14T09:26:53.589Z',
      correlationId: 'b1946ac9-2d7e-4f81-a9c3-6e5d4c3b2a10',
      route: '/v1/auth/login',
      statusCode: 200,
      metadata: {},
      tenantId: null,
    },
  ]),

  // Device types and fields
  DeviceTypeResponse: deviceType,
  DeviceTypePage: page([deviceType], 4),
  CreateDeviceTypeRequest: { key: 'water-meter-lw', name: 'LoRaWAN water meter', description: 'Ultrasonic water meter reporting volume, flow and battery every 15 minutes.' },
  UpdateDeviceTypeRequest: { description: 'Ultrasonic water meter (firmware 2.x) reporting every 15 minutes.' },
  DeviceFieldResponse: field,
  CreateDeviceFieldRequest: {
    key: 'volume.total',
    name: 'Total volume',
    description: 'Cumulative volume through the meter since installation.',
    schemaRef: 'platform://schemas/number/v1',
    unit: 'm³',
    storageTargets: ['current', 'timeseries'],
    measurementType: 'counter',
  },
  UpdateDeviceFieldRequest: { name: 'Total volume (cumulative)', unit: 'm³' },


  // Flows
  FlowResponse: flow,
  FlowPage: page([flow], 12),
  CreateFlowRequest: { key: 'water-meter-decoder', name: 'Water meter decoder', description: 'Decodes the 6-byte uplink of the ultrasonic water meter.' },
  UpdateFlowRequest: { description: 'Decodes the 6-byte uplink (firmware 2.x) into volume and battery.' },
  ActivateFlowRequest: { flowVersionId: FLOW_VERSION_ID },
  FlowVersionResponse: flowVersion,
  FlowVersionPage: page([flowVersion, { ...flowVersion, flowVersionId: FLOW_VERSION2_ID, versionNumber: 2, status: 'deprecated' }]),
  CreateFlowVersionRequest: { graph: flowGraph, parameters: flowParameters },
  ValidationReportResponse: {
    flowVersionId: FLOW_VERSION_ID,
    valid: false,
    checksum: '9f2c4e1b7a3d5f60812c9e4b3a7d6f5e0c1b2a3948576e5f4d3c2b1a09f8e7d6',
    issues: [
      { severity: 'error', code: 'schema_ref_mismatch', path: 'graph.nodes[2].configuration.fields[1].schemaRef', message: 'Field "battery.mv" has schemaRef platform://schemas/string/v1.' },
      { severity: 'warning', code: 'dead_end_node', path: 'graph.nodes[4]', message: 'What "debug" emits goes nowhere.' },
    ],
  },
  FixtureResponse: fixture,
  FixturePage: page([fixture], 7),
  FixtureRequest: { name: 'Normal reading', input: fixtureInput, assertions: [{ path: 'current["volume.total"]', expected: 123.456 }, { path: 'status', expected: 'succeeded' }] },
  RunFixturesRequest: { flowVersionId: FLOW_VERSION_ID, fixtureIds: [FIXTURE_ID, '45c48cce-7a2b-4c1d-9e3f-0a1b2c3d4e60'] },
  FixtureRunResponse: {
    flowVersionId: FLOW_VERSION_ID,
    total: 2,
    passed: 1,
    failed: 1,
    results: [
      {
        fixtureId: FIXTURE_ID,
        name: 'Normal reading',
        passed: true,
        status: 'succeeded',
        assertions: [
          { path: 'current["volume.total"]', expected: 123.456, actual: 123.456, passed: true },
          { path: 'status', expected: 'succeeded', actual: 'succeeded', passed: true },
        ],
        error: null,
      },
      {
        fixtureId: '45c48cce-7a2b-4c1d-9e3f-0a1b2c3d4e60',
        name: 'Truncated uplink',
        passed: false,
        status: 'failed',
        assertions: [{ path: 'status', expected: 'succeeded', actual: 'failed', passed: false }],
        error: { nodeId: 'decode', code: 'decode_error', message: 'Read at offset 4 needs 2 bytes; the payload has 4.' },
      },
    ],
  },
  PreviewFlowRequest: { flowVersionId: FLOW_VERSION_ID, input: { ...fixtureInput, mode: 'preview', correlationId: 'preview-1', parameters: { volumeFactor: 0.001 } } },
  ExecutionResultResponse: executionResult,
  ParameterOverrideResponse: parameterOverride,
  ParameterOverridePage: page([{ ...parameterOverride, parameterOverrideId: '02e74f10-e032-4a8b-9c1d-2e3f4a5b6c7d', level: 'tenant', deviceTypeId: null, deviceId: null, value: 0.001 }, parameterOverride], 2),
  SetParameterOverrideRequest: { value: 0.01 },
  ResolvedParametersResponse: {
    flowId: FLOW_ID,
    deviceId: DEVICE_ID,
    flowVersionId: FLOW_VERSION_ID,
    parameters: [
      { key: 'volumeFactor', type: 'number', value: 0.01, source: 'device' },
      { key: 'alarmThreshold', type: 'number', value: 500, source: 'default' },
    ],
  },
  // Custom blocks
  FlowBlockResponse: flowBlock,
  FlowBlockPage: page([flowBlock, { ...flowBlock, flowBlockId: 'd2f1e0c9-b8a7-4f96-8e5d-4c3b2a190f8e', key: 'pulse-meter-cs3', name: 'Pulse meter (ChirpStack v3 codec)', latestVersionNumber: 1 }], 12),
  CreateFlowBlockRequest: { key: 'tank-level-ttn', name: 'Tank level (TTN codec)', description: 'Decodes the ultrasonic tank level sensor uplinks with its TTN payload formatter.' },
  UpdateFlowBlockRequest: { description: 'Tank level sensor, firmware 3.x payload formatter.' },
  FlowBlockVersionResponse: blockVersion,
  FlowBlockVersionSummary: blockVersionSummary,
  FlowBlockVersionPage: {
    items: [blockVersionSummary, { ...blockVersionSummary, flowBlockVersionId: FLOW_BLOCK_VERSION2_ID, versionNumber: 1, status: 'deprecated', deprecatedAt: '2026-03-11T14:05:00.000Z' }],
    nextCursor: CURSOR,
  },
  CreateFlowBlockVersionRequest: {
    sourceCode: TANK_DECODER,
    configurationSchema: tankSchema,
    sampleInput: tankSample,
    notes: 'Reports the level in percent of the configured tank depth.',
  },
  SampleInputRequest: tankSample,
  BlockArtifact: blockArtifact,
  BlockGateReport: blockGateReport,
  BlockGateIssue: blockGateIssue,
  FlowBlockCompileResult: { passed: false, gateReport: { compile: 'failed', sandbox: 'not_run', durationMs: 3, issues: [blockGateIssue] } },
  CatalogBlockVersion: catalogVersion,
  CatalogItem: catalogCustomItem,
  FlowBlockCatalog: { items: [catalogBuiltInItem, catalogCustomItem, { ...catalogCustomItem, flowBlockId: GLOBAL_FLOW_BLOCK_ID, scope: 'global', key: globalFlowBlock.key, name: globalFlowBlock.name, description: globalFlowBlock.description, versions: [{ ...catalogVersion, flowBlockVersionId: FLOW_BLOCK_VERSION2_ID, versionNumber: 1, configurationSchema: null }] }] },

  // Devices and assignments
  DeviceResponse: device,
  DevicePage: page([device, { ...device, deviceId: 'c20ad4d7-6fe9-4759-aa27-a0c99bff6710', devEui: '70B3D57ED005A512', name: 'Meter 0418 – Quay Street', metadata: {}, currentAssignment: null, lastSeenAt: null, status: 'disabled' }], 318),
  CreateDeviceRequest: {
    devEui: '70B3D57ED005A4F1',
    name: 'Meter 0417 – Harbour Road pump station',
    deviceTypeId: DEVICE_TYPE_ID,
    metadata: { serialNumber: 'WM-22-004171', installedBy: 'North crew 2' },
    organizationUnitId: UNIT_ID,
  },
  UpdateDeviceRequest: { name: 'Meter 0417 – Harbour Road (replaced battery)' },
  DeviceAssignmentResponse: assignment,
  DeviceAssignmentPage: page([closedAssignment, assignment], 2),
  AssignDeviceRequest: { organizationUnitId: UNIT_ID, validFrom: '2026-03-14T10:05:09.201Z' },
  EndDeviceAssignmentRequest: { validTo: '2026-03-20T18:00:00.000Z' },

  // Telemetry
  MeasurementPoint: measurementPoint,
  MeasurementBucket: measurementBucket,
  CurrentValueEntry: { definition: field, currentValue: 1532.418, observedAt: '2026-03-14T10:15:00.000Z' },
  CurrentValuesResponse: {
    tenantId: TENANT_ID,
    deviceId: DEVICE_ID,
    deviceTypeId: DEVICE_TYPE_ID,
    fields: [
      { definition: field, currentValue: 1532.418, observedAt: '2026-03-14T10:15:00.000Z' },
      { definition: batteryField, currentValue: 3.61, observedAt: '2026-03-14T06:00:00.000Z' },
    ],
  },
  MeasurementPage: {
    deviceId: DEVICE_ID,
    items: [
      measurementPoint,
      { fieldKey: 'volume.total', observedAt: '2026-03-14T10:15:00.000Z', value: 1532.877 },
      { fieldKey: 'volume.total', observedAt: '2026-03-14T10:30:00.000Z', value: 1533.204 },
    ],
    nextCursor: CURSOR,
  },

  // Diagnostics
  VersionResponse: { version: '0.1.0', gitCommit: '4e1b7c2a9f0d3e5b6c7a8d9e0f1a2b3c4d5e6f70', builtAt: '2026-03-10T16:22:05.000Z', apiVersion: 'v1' },
  ReadinessResponse: {
    status: 'ready',
    checks: {
      database: { status: 'up', latencyMs: 2 },
      migrations: { status: 'up', latencyMs: 3 },
      sandbox: { status: 'up', latencyMs: 11 },
    },
  },
  EchoRequest: { message: 'hello from the field team' },
  EchoResponse: {
    message: 'hello from the field team',
    correlationId: CORRELATION_ID,
    receivedAt: '2026-03-14T11:02:41.008Z',
    userId: USER_ID,
    databaseRoundTripMs: 1.7,
  },
};

/**
 * Examples of the required parameters (path ids, If-Match, the measurement window), consistent with the schema
 * examples. Optional query parameters get none: Swagger UI would pre-fill them and filter every "Try it out".
 */
export const PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: 7,
  userId: USER_ID,
  sessionId: SESSION_ID,
  organizationUnitId: UNIT_ID,
  membershipId: MEMBERSHIP_ID,
  deviceTypeId: DEVICE_TYPE_ID,
  key: 'volume.total',
  deviceId: DEVICE_ID,
  deviceAssignmentId: ASSIGNMENT_ID,
  flowId: FLOW_ID,
  flowVersionId: FLOW_VERSION_ID,
  fixtureId: FIXTURE_ID,
  parameterOverrideId: OVERRIDE_ID,
  flowBlockId: FLOW_BLOCK_ID,
  flowBlockVersionId: FLOW_BLOCK_VERSION_ID,
  'If-Match': '"3"',
  from: '2026-03-14T00:00:00.000Z',
  to: '2026-03-15T00:00:00.000Z',
};

/** Error envelope examples per HTTP status, completed per operation where the operation says more (see openapi.ts). */
export function errorExample(code: string, category: string, message: string, details?: Record<string, unknown>): Record<string, unknown> {
  return { error: { code, category, message, correlationId: CORRELATION_ID, ...(details ? { details } : {}) } };
}
