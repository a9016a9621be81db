import { validationIssues, ValidationContext } from './flow-graph-validator';
import type { FlowGraph, JsonObject, ParameterDeclaration } from './flow-graph';

const NUMBER = 'platform://schemas/number/v1';
const context: ValidationContext = {
  tenantId: 't1',
  fields: [{ key: 'level', schemaRef: NUMBER, storageTargets: ['current', 'timeseries'], status: 'active', deprecatedAt: null }],
  customBlocks: new Map(),
  emailTemplates: new Map(),
  releasedAt: null,
};

function graphWith(configuration: JsonObject, key = 'scale'): FlowGraph {
  return {
    schemaVersion: 'flow-graph.v2',
    deviceTypeId: 'd1',
    nodes: [
      { kind: 'block', nodeId: 'b', block: { type: 'builtin', key, version: 1 }, name: 'B', configuration, position: { x: 0, y: 0 } },
      { kind: 'current-output', nodeId: 'c', block: null, name: 'C', configuration: { fields: [{ fieldKey: 'level', schemaRef: NUMBER }] }, position: { x: 0, y: 0 } },
      { kind: 'timeseries-output', nodeId: 't', block: null, name: 'T', configuration: { fields: [] }, position: { x: 0, y: 0 } },
    ],
    edges: [
      { fromNodeId: 'b', toNodeId: 'c' },
      { fromNodeId: 'b', toNodeId: 't' },
    ],
  };
}

const codes = (graph: FlowGraph, parameters: ParameterDeclaration[] = []) => validationIssues(graph, parameters, context).map(({ code, path }) => ({ code, path }));

describe('validationIssues: $param references', () => {
  it('accepts a declared parameter of the type the place needs, with or without a default', () => {
    expect(codes(graphWith({ fieldKey: 'level', multiply: { $param: 'f' } }), [{ key: 'f', type: 'number', defaultValue: null }])).toEqual([]);
    expect(codes(graphWith({ fieldKey: 'level', multiply: { $param: 'f' } }), [{ key: 'f', type: 'number', defaultValue: 2.5 }])).toEqual([]);
  });

  it('a json parameter fits any place', () => {
    expect(codes(graphWith({ fieldKey: 'level', multiply: { $param: 'j' } }), [{ key: 'j', type: 'json', defaultValue: null }])).toEqual([]);
  });

  it('reports the place of an undeclared or wrong-typed parameter, once', () => {
    expect(codes(graphWith({ fieldKey: 'level', add: { $param: 'nope' } }))).toEqual([{ code: 'undeclared_parameter', path: 'graph.nodes[0].configuration.add' }]);
    expect(codes(graphWith({ fieldKey: { $param: 'b' } }), [{ key: 'b', type: 'boolean', defaultValue: null }])).toEqual([
      { code: 'parameter_type_mismatch', path: 'graph.nodes[0].configuration.fieldKey' },
    ]);
  });

  it('leaves range rules at a parameter\'s place to run time, but checks a default against them', () => {
    const graph = graphWith({ fieldKey: 'level', decimals: { $param: 'd' } });
    expect(codes(graph, [{ key: 'd', type: 'number', defaultValue: null }])).toEqual([]);
    expect(codes(graph, [{ key: 'd', type: 'number', defaultValue: 20 }])).toEqual([{ code: 'invalid_configuration', path: 'graph.nodes[0].configuration.decimals' }]);
  });

  it('reports the filter operator rules through the schema\'s conditional branches', () => {
    const filter = graphWith({ path: 'values.level', operator: 'gt' }, 'filter');
    filter.edges = [
      { fromNodeId: 'b', fromPort: 'pass', toNodeId: 'c' },
      { fromNodeId: 'b', fromPort: 'reject', toNodeId: 't' },
    ];
    expect(codes(filter)).toEqual([{ code: 'invalid_configuration', path: 'graph.nodes[0].configuration' }]);
  });
});

describe('validationIssues: a flow template (no tenant, no device type)', () => {
  const template: ValidationContext = { tenantId: null, fields: null, customBlocks: new Map(), emailTemplates: new Map(), releasedAt: null };
  const customGraph = (flowBlockVersionId: string): FlowGraph => ({
    ...graphWith({ fieldKey: 'level' }),
    deviceTypeId: null,
    nodes: [
      { kind: 'block', nodeId: 'b', block: { type: 'custom', flowBlockVersionId }, name: 'B', configuration: {}, position: { x: 0, y: 0 } },
      ...graphWith({ fieldKey: 'level' }).nodes.slice(1),
    ],
  });
  const info = (tenantId: string | null, status: 'draft' | 'released' | 'deprecated' = 'released') =>
    new Map([['v1', { flowBlockVersionId: 'v1', tenantId, status, configurationSchema: { type: 'object' } }]]);
  const templateCodes = (graph: FlowGraph, context: ValidationContext, parameters: ParameterDeclaration[] = []) =>
    validationIssues(graph, parameters, context).map(({ code, path }) => ({ code, path }));

  it('takes a released global block version, refuses a tenant’s as unknown_block', () => {
    expect(templateCodes(customGraph('v1'), { ...template, customBlocks: info(null) })).toEqual([]);
    expect(templateCodes(customGraph('v1'), { ...template, customBlocks: info('t1') })).toEqual([{ code: 'unknown_block', path: 'graph.nodes[0].block.flowBlockVersionId' }]);
    expect(templateCodes(customGraph('v1'), { ...template, customBlocks: info(null, 'deprecated') })).toEqual([
      { code: 'block_version_deprecated', path: 'graph.nodes[0].block.flowBlockVersionId' },
    ]);
  });

  it('checks output fields only against each other, and names an e-mail template only through a parameter', () => {
    expect(templateCodes({ ...graphWith({ fieldKey: 'other' }), deviceTypeId: null }, template)).toEqual([]);
    const clash = { ...graphWith({ fieldKey: 'level' }), deviceTypeId: null };
    clash.nodes[2] = { ...clash.nodes[2]!, configuration: { fields: [{ fieldKey: 'level', schemaRef: 'platform://schemas/string/v1' }] } };
    expect(templateCodes(clash, template)).toEqual([{ code: 'schema_ref_mismatch', path: 'graph.nodes[2].configuration.fields[0].schemaRef' }]);
    const email = (emailTemplateId: unknown): FlowGraph => ({
      ...graphWith({ fieldKey: 'level' }),
      deviceTypeId: null,
      nodes: [...graphWith({ fieldKey: 'level' }).nodes, { kind: 'block', nodeId: 'e', block: { type: 'builtin', key: 'email-action', version: 1 }, name: 'E', configuration: { emailTemplateId } as JsonObject, position: { x: 0, y: 0 } }],
      edges: [...graphWith({ fieldKey: 'level' }).edges, { fromNodeId: 'b', toNodeId: 'e' }],
    });
    expect(templateCodes(email('6f1e9d2c-3b4a-4c5d-8e7f-9a0b1c2d3e4f'), template)).toEqual([{ code: 'unknown_email_template', path: 'graph.nodes[3].configuration.emailTemplateId' }]);
    expect(templateCodes(email({ $param: 'mail' }), template, [{ key: 'mail', type: 'string', defaultValue: null }])).toEqual([]);
  });
});
