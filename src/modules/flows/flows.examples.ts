/**
 * Examples of the flow, flow version, fixture, preview and parameter schemas and of the parameters of their routes,
 * attached to the flows controller with @ApiDocs.
 */
import { DEVICE_ID, DEVICE_TYPE_ID, FLOW_ID, FLOW_TEMPLATE_ID, FLOW_TEMPLATE_VERSION_ID, FLOW_VERSION_ID, IF_MATCH, TENANT_ID, TENANT_NUMBER, page } from '../../shared/http/example-values';

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
  templateUpdate: { flowTemplateVersionId: FLOW_TEMPLATE_VERSION_ID, versionNumber: 3 },
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
  sourceTemplate: { flowTemplateId: FLOW_TEMPLATE_ID, flowTemplateVersionId: '0a5b3913-3c4d-4e5f-8a6b-7c8d9e0f1a2b', versionNumber: 2 },
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

export const FLOWS_SCHEMA_EXAMPLES: Record<string, unknown> = {
  FlowResponse: flow,
  TemplateUpdateResponse: flow.templateUpdate,
  SourceTemplateResponse: flowVersion.sourceTemplate,
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
};

export const FLOWS_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
  deviceTypeId: DEVICE_TYPE_ID,
  deviceId: DEVICE_ID,
  key: 'volume.total',
  flowId: FLOW_ID,
  flowVersionId: FLOW_VERSION_ID,
  fixtureId: FIXTURE_ID,
  parameterOverrideId: OVERRIDE_ID,
  'If-Match': IF_MATCH,
};
