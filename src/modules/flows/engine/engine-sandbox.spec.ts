import { Test } from '@nestjs/testing';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AppConfig } from '../../../config/app-config';
import { AppConfigModule } from '../../../config/config.module';
import type { ScriptArtifact } from '../../sandbox/domain/sandbox-contract';
import { ScriptSandbox } from '../../sandbox/script-sandbox';
import type { ExecutionResult, FieldContractEntry, FlowGraphEdge, FlowGraphNode, FlowInput, FlowVersionForPlan, JsonObject } from './engine-types';
import { executePlan } from './execute-plan';
import { compilePlan } from './execution-plan';
import { FlowEngine } from './flow-engine';
import { FlowEngineModule } from './flow-engine.module';

const AT = { x: 0, y: 0 };

/*
 * The engine with the real ScriptSandbox: custom transform blocks and a TTN payload codec, each failure mode of a
 * script as the engine reports it, and the Nest provider with the configured budget.
 */

const TENANT = '55555555-5555-4555-8555-555555555555';
const NUMBER = 'platform://schemas/number/v1';
const STRING = 'platform://schemas/string/v1';
const number = (): FieldContractEntry => ({ schemaRef: NUMBER, storageTargets: ['current', 'timeseries'], status: 'active' });
const FIELDS: Record<string, FieldContractEntry> = {
  temperature: number(),
  humidity: number(),
  pressure: number(),
  co2: number(),
  battery: number(),
  label: { schemaRef: STRING, storageTargets: ['current'], status: 'active' },
};

let sandbox: ScriptSandbox;
let blocks = 0;
const artifacts = new Map<string, ScriptArtifact>();

beforeAll(() => {
  sandbox = new ScriptSandbox({ timeoutMs: 50, memoryMb: 64, maxIsolates: 10 });
});
afterAll(() => sandbox.onModuleDestroy());

/** A released custom block version of `source`; returns its id. */
async function blockVersion(source: string): Promise<string> {
  const compiled = await sandbox.compile(source);
  if (!compiled.ok) throw new Error(`does not compile: ${JSON.stringify(compiled.issues)}`);
  const id = `engine-block-${++blocks}`;
  artifacts.set(id, compiled.artifact);
  return id;
}

const outputs = (current: string[], series: string[] = []): FlowGraphNode[] => [
  { kind: 'current-output', nodeId: 'current', name: 'current', position: AT, block: null, configuration: { fields: current.map((fieldKey) => ({ fieldKey, schemaRef: FIELDS[fieldKey].schemaRef })) } },
  { kind: 'timeseries-output', nodeId: 'series', name: 'series', position: AT, block: null, configuration: { fields: series.map((fieldKey) => ({ fieldKey, schemaRef: NUMBER })) } },
];
const custom = (nodeId: string, flowBlockVersionId: string, configuration: JsonObject = {}): FlowGraphNode => ({ kind: 'block', nodeId, name: nodeId, position: AT, block: { type: 'custom', flowBlockVersionId }, configuration });
const builtin = (nodeId: string, key: string, configuration: JsonObject): FlowGraphNode => ({ kind: 'block', nodeId, name: nodeId, position: AT, block: { type: 'builtin', key, version: 1 }, configuration });
const edge = (fromNodeId: string, toNodeId: string, fromPort?: string): FlowGraphEdge => ({ fromNodeId, toNodeId, ...(fromPort ? { fromPort } : {}) });

function version(nodes: FlowGraphNode[], edges: FlowGraphEdge[]): FlowVersionForPlan {
  return { flowVersionId: `fv-${++blocks}`, graph: { schemaVersion: 'flow-graph.v2', deviceTypeId: 'dt-1', nodes, edges }, parameters: [], status: 'released', releasedAt: '2026-01-01T00:00:00.000Z' };
}
const resolveBlock = (id: string) => {
  const artifact = artifacts.get(id);
  return artifact ? { artifact, tenantId: TENANT, scriptContract: artifact.scriptContract } : undefined;
};
const input = (hex: string, fPort = 1): FlowInput => ({
  mode: 'fixture',
  rawPayload: { encoding: 'hex', data: hex },
  observedAt: '2026-11-23T10:00:00.000Z',
  rawReceivedAt: '2026-11-23T10:00:00.500Z',
  tenantId: TENANT,
  deviceId: '66666666-6666-4666-8666-666666666666',
  deviceTypeId: '77777777-7777-4777-8777-777777777777',
  correlationId: 'c-1',
  connectionData: { fPort, rssi: -97 },
  parameters: {},
});

async function run(nodes: FlowGraphNode[], edges: FlowGraphEdge[], hex: string, parameters: JsonObject = {}): Promise<ExecutionResult> {
  const plan = compilePlan(version(nodes, edges), { fields: FIELDS, resolveBlock, sandbox });
  return executePlan(plan, input(hex), parameters, { mode: 'fixture', budgetMs: 1000 });
}

describe('engine with the real sandbox', () => {
  it('runs decode-binary -> custom transform -> scale -> filter -> outputs, with ctx as the script sees it', async () => {
    const script = await blockVersion(`
      function transform(msg, ctx) {
        console.log('node ' + ctx.nodeId + ' mode ' + ctx.mode + ' offset ' + ctx.parameters.offset);
        return { values: { temperature: msg.values.temperature + ctx.configuration.offset, label: ctx.device.deviceId.slice(0, 4) + '@' + ctx.observedAt } };
      }`);
    const nodes = [
      builtin('decode', 'decode-binary', { reads: [{ offset: 0, type: 'int16be', fieldKey: 'temperature' }, { offset: 2, type: 'uint8', fieldKey: 'humidity' }] }),
      custom('script', script, { offset: { $param: 'offset' } }),
      builtin('scale', 'scale', { fieldKey: 'temperature', multiply: 0.1, decimals: 1 }),
      builtin('filter', 'filter', { path: 'values.humidity', operator: 'lte', value: 100 }),
      ...outputs(['temperature', 'humidity', 'label'], ['temperature']),
    ];
    const edges = [edge('decode', 'script'), edge('script', 'scale'), edge('scale', 'filter'), edge('filter', 'current', 'pass'), edge('filter', 'series', 'pass')];
    const result = await run(nodes, edges, '00e741', { offset: 10 });
    expect(result).toMatchObject({
      status: 'succeeded',
      error: null,
      current: { temperature: 24.1, humidity: 65, label: '6666@2026-11-23T10:00:00.000Z' },
      timeseries: { temperature: 24.1 },
    });
    expect(result.trace.find((t) => t.nodeId === 'script')).toMatchObject({ status: 'succeeded', port: 'out', logs: ['node script mode fixture offset 10'] });
  });

  it('runs a TTN payload codec unchanged: its data replaces the payload, warnings go to the logs', async () => {
    const codec = await blockVersion(readFileSync(join(__dirname, '../../../../test/fixtures/codecs/ttn-environment.js'), 'utf8'));
    const nodes = [
      custom('codec', codec),
      builtin('map', 'map-field', { mappings: ['temperature', 'humidity', 'pressure', 'co2', 'battery'].map((key) => ({ source: `payload.${key}`, fieldKey: key })) }),
      ...outputs(['temperature', 'humidity', 'pressure', 'co2', 'battery']),
    ];
    const result = await run(nodes, [edge('codec', 'map'), edge('map', 'current')], 'fdf35b00507d4402640b86');
    expect(result).toMatchObject({ status: 'succeeded', current: { temperature: -5.25, humidity: 45.5, pressure: 1013.25, co2: 612, battery: 2.95 } });
    expect(result.trace[0].logs.length).toBeGreaterThan(0);
    const unknownPort = await executePlan(compilePlan(version(nodes, [edge('codec', 'map'), edge('map', 'current')]), { fields: FIELDS, resolveBlock, sandbox }), input('00', 9), {}, { mode: 'fixture', budgetMs: 1000 });
    expect(unknownPort).toMatchObject({ status: 'failed', error: { nodeId: 'codec', code: 'script_error' } });
  });

  it('filters when the script returns null', async () => {
    const script = await blockVersion('function transform() { return null; }');
    const result = await run([custom('script', script), ...outputs([])], [edge('script', 'current')], '00');
    expect(result.status).toBe('filtered');
    expect(result.trace.map((t) => t.status)).toEqual(['filtered', 'skipped', 'skipped']);
  });

  it.each([
    ['script_error', 'function transform() { throw new Error("boom"); }'],
    ['timeout', 'function transform() { for (;;) {} }'],
    ['invalid_output', 'function transform() { return { payload: 1, extra: 2 }; }'],
    ['output_too_large', 'function transform() { return { payload: "x".repeat(70000) }; }'],
  ])('fails the execution with %s when the custom block fails that way', async (code, source) => {
    const script = await blockVersion(source);
    const result = await run([builtin('decode', 'decode-binary', { reads: [{ offset: 0, type: 'uint8', fieldKey: 'temperature' }] }), custom('script', script), ...outputs(['temperature'])], [edge('decode', 'script'), edge('decode', 'series'), edge('script', 'current')], '01');
    expect(result).toMatchObject({ status: 'failed', error: { nodeId: 'script', code }, current: {}, timeseries: {} });
    expect(result.trace.map((t) => [t.nodeId, t.status])).toEqual([
      ['decode', 'succeeded'],
      ['script', 'failed'],
      ['current', 'skipped'],
      ['series', 'skipped'],
    ]);
  });
});

describe('FlowEngine provider', () => {
  it('uses FLOW_EXECUTION_TIMEOUT_MS as the budget and caches plans by version id', async () => {
    const config = AppConfig.fromEnv({ FLOW_EXECUTION_TIMEOUT_MS: '30', SANDBOX_TIMEOUT_MS: '1000' });
    const moduleRef = await Test.createTestingModule({ imports: [AppConfigModule.forRoot(config), FlowEngineModule] }).compile();
    const engine = moduleRef.get(FlowEngine);
    try {
      const compiled = await moduleRef.get(ScriptSandbox).compile('function transform() { var t = Date.now(); while (Date.now() - t < 200) {} return {}; }');
      if (!compiled.ok) throw new Error('does not compile');
      const flow = version([custom('slow', 'slow-block'), ...outputs([])], [edge('slow', 'current')]);
      const load = jest.fn(() => ({ fields: FIELDS, resolveBlock: () => ({ artifact: compiled.artifact, tenantId: TENANT, scriptContract: compiled.scriptContract }) }));
      const plan = await engine.plan(flow, load);
      expect(await engine.plan(flow, load)).toBe(plan);
      expect(load).toHaveBeenCalledTimes(1);
      const result = await engine.execute(plan, input('00'), {}, { mode: 'preview' });
      expect(result).toMatchObject({ status: 'failed', error: { nodeId: 'slow', code: 'timeout', message: 'The execution exceeded its budget of 30 ms.' } });
    } finally {
      // the abandoned script call finishes before the sandbox shuts down
      await new Promise((resolve) => setTimeout(resolve, 300));
      await moduleRef.close();
    }
  });

  it('defaults the budget to 1000 ms', () => {
    expect(AppConfig.fromEnv({}).flowExecutionTimeoutMs).toBe(1000);
    expect(() => AppConfig.fromEnv({ FLOW_EXECUTION_TIMEOUT_MS: '0' })).toThrow('FLOW_EXECUTION_TIMEOUT_MS');
  });
});
