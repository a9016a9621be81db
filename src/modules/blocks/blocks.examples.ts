/**
 * Examples of the custom block, block version and catalog schemas and of the parameters of their routes, attached to
 * the flow blocks controller with @ApiDocs.
 */
import { CURSOR, TENANT_ID, TENANT_NUMBER, page } from '../../shared/http/example-values';

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

export const BLOCKS_SCHEMA_EXAMPLES: Record<string, unknown> = {
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
  RunFlowBlockVersionRequest: { input: tankSample, configuration: { tankDepthMm: 2000 } },
  FlowBlockRunResult: {
    ok: true,
    result: { payload: { distance_mm: 600, level_percent: 70, temperature: 21.5, battery: 85 } },
    logs: [],
    logsTruncated: false,
    durationMs: 9,
  },
  BlockRunError: { code: 'runtime_error', message: "TypeError: Cannot read properties of undefined (reading 'length')", line: 8, column: 13 },
  CatalogBlockVersion: catalogVersion,
  CatalogItem: catalogCustomItem,
  FlowBlockCatalog: { items: [catalogBuiltInItem, catalogCustomItem, { ...catalogCustomItem, flowBlockId: GLOBAL_FLOW_BLOCK_ID, scope: 'global', key: globalFlowBlock.key, name: globalFlowBlock.name, description: globalFlowBlock.description, versions: [{ ...catalogVersion, flowBlockVersionId: FLOW_BLOCK_VERSION2_ID, versionNumber: 1, configurationSchema: null }] }] },
};

export const BLOCKS_PARAMETER_EXAMPLES: Record<string, unknown> = {
  tenantNumber: TENANT_NUMBER,
  flowBlockId: FLOW_BLOCK_ID,
  flowBlockVersionId: FLOW_BLOCK_VERSION_ID,
};
