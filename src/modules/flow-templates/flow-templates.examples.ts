/**
 * Examples of the flow template, template version and validation report schemas and of the parameters of their
 * routes, attached to the flow templates controller with @ApiDocs.
 */
import { CURSOR, FLOW_ID, FLOW_TEMPLATE_ID, FLOW_TEMPLATE_VERSION_ID, page } from '../../shared/http/example-values';

const FLOW_TEMPLATE_VERSION2_ID = '0a5b3913-3c4d-4e5f-8a6b-7c8d9e0f1a2b';
const NUMBER = 'platform://schemas/number/v1';

const requiredFields = [
  { key: 'temperature', schemaRef: NUMBER, storageTargets: ['current', 'timeseries'] },
  { key: 'humidity', schemaRef: NUMBER, storageTargets: ['current', 'timeseries'] },
];

const template = {
  flowTemplateId: FLOW_TEMPLATE_ID,
  key: 'generic-temperature-humidity',
  name: 'Generic temperature and humidity sensor',
  description: 'Decodes a 3-byte uplink: int16 BE temperature in 0.01 °C, uint8 relative humidity in %.',
  latestVersionNumber: 3,
  latestReleasedVersionId: FLOW_TEMPLATE_VERSION_ID,
  latestReleasedVersionNumber: 3,
  requiredFields,
  createdAt: '2026-02-01T09:00:00.000Z',
  updatedAt: '2026-02-01T09:00:00.000Z',
};

/** decode-binary -> scale -> both outputs, with no device type. */
const templateGraph = {
  schemaVersion: 'flow-graph.v2',
  deviceTypeId: null,
  nodes: [
    {
      kind: 'block',
      nodeId: 'decode',
      block: { type: 'builtin', key: 'decode-binary', version: 1 },
      name: 'Decode uplink',
      configuration: { reads: [{ offset: 0, type: 'int16be', fieldKey: 'temperature' }, { offset: 2, type: 'uint8', fieldKey: 'humidity' }] },
      position: { x: 0, y: 100 },
    },
    {
      kind: 'block',
      nodeId: 'celsius',
      block: { type: 'builtin', key: 'scale', version: 1 },
      name: 'Hundredths to °C',
      configuration: { fieldKey: 'temperature', multiply: 0.01, add: { $param: 'temperatureOffset' }, decimals: 2 },
      position: { x: 300, y: 100 },
    },
    { kind: 'current-output', nodeId: 'current', block: null, name: 'Current values', configuration: { fields: requiredFields.map(({ key }) => ({ fieldKey: key, schemaRef: NUMBER })) }, position: { x: 600, y: 0 } },
    { kind: 'timeseries-output', nodeId: 'history', block: null, name: 'Time series', configuration: { fields: requiredFields.map(({ key }) => ({ fieldKey: key, schemaRef: NUMBER })) }, position: { x: 600, y: 200 } },
  ],
  edges: [
    { fromNodeId: 'decode', toNodeId: 'celsius' },
    { fromNodeId: 'celsius', toNodeId: 'current' },
    { fromNodeId: 'celsius', toNodeId: 'history' },
  ],
};
const templateParameters = [{ key: 'temperatureOffset', type: 'number', defaultValue: 0, description: 'Calibration offset in °C.' }];

const templateVersion = {
  flowTemplateVersionId: FLOW_TEMPLATE_VERSION_ID,
  flowTemplateId: FLOW_TEMPLATE_ID,
  versionNumber: 3,
  status: 'released',
  graph: templateGraph,
  parameters: templateParameters,
  requiredFields,
  checksum: '4b227777d4dd1fc61c6f884f48641d02b4d121d3fd328cb08b5531fcacdabf8a',
  createdAt: '2026-03-01T10:00:00.000Z',
  releasedAt: '2026-03-01T10:05:12.331Z',
  deprecatedAt: null,
};

export const FLOW_TEMPLATES_SCHEMA_EXAMPLES: Record<string, unknown> = {
  FlowTemplateResponse: template,
  FlowTemplatePage: page([template], 3),
  CreateFlowTemplateRequest: { key: template.key, name: template.name, description: template.description },
  UpdateFlowTemplateRequest: { description: 'Decodes a 3-byte uplink (firmware 1.x and 2.x).' },
  RequiredFieldResponse: requiredFields[0],
  FlowTemplateVersionResponse: templateVersion,
  FlowTemplateVersionPage: {
    items: [
      templateVersion,
      { ...templateVersion, flowTemplateVersionId: FLOW_TEMPLATE_VERSION2_ID, versionNumber: 2, status: 'deprecated', deprecatedAt: '2026-03-01T10:06:00.000Z' },
    ],
    nextCursor: CURSOR,
  },
  CreateFlowTemplateVersionRequest: { graph: templateGraph, parameters: templateParameters },
  FlowTemplateValidationReport: {
    flowTemplateVersionId: FLOW_TEMPLATE_VERSION_ID,
    valid: false,
    checksum: templateVersion.checksum,
    requiredFields,
    issues: [
      {
        severity: 'error',
        code: 'unknown_block',
        path: 'graph.nodes[0].block.flowBlockVersionId',
        message: 'There is no custom block version 2b7e1516-28ae-4d2a-a6d2-abf7158809cf among the global blocks (a template may use only those).',
      },
    ],
  },
  CopyFlowTemplateVersionRequest: { flowId: FLOW_ID },
};

export const FLOW_TEMPLATES_PARAMETER_EXAMPLES: Record<string, unknown> = {
  flowTemplateId: FLOW_TEMPLATE_ID,
  flowTemplateVersionId: FLOW_TEMPLATE_VERSION_ID,
};
