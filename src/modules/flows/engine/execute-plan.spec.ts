import type { InvocationOutcome, ScriptArtifact } from '../../sandbox/domain/sandbox-contract';
import { SandboxUnavailableError } from '../../sandbox/domain/sandbox.errors';
import type { ExecuteOptions, ExecutionResult, FieldContractEntry, FlowGraphEdge, FlowGraphNode, FlowInput, JsonObject, PlanContext, SandboxInvoker } from './engine-types';
import { executePlan, traceOutput } from './execute-plan';
import { compilePlan } from './execution-plan';

const AT = { x: 0, y: 0 };

const NUMBER = 'platform://schemas/number/v1';
const STRING = 'platform://schemas/string/v1';
const BOOLEAN = 'platform://schemas/boolean/v1';
const JSON_REF = 'platform://schemas/json/v1';
const TEMPLATE = '7b0c3a51-0d7e-4a59-9f69-1f3e5a1c2b10';
const ARTIFACT: ScriptArtifact = { format: 'uplink-script.v1', source: 'function transform(){}', sha256: 'x', scriptContract: 'transform' };

const builtin = (nodeId: string, key: string, configuration: JsonObject): FlowGraphNode => ({ kind: 'block', nodeId, name: nodeId, position: AT, block: { type: 'builtin', key, version: 1 }, configuration });
const custom = (nodeId: string, flowBlockVersionId = 'cbv-1', configuration: JsonObject = {}): FlowGraphNode => ({ kind: 'block', nodeId, name: nodeId, position: AT, block: { type: 'custom', flowBlockVersionId }, configuration });
const current = (fields: Array<[string, string]>): FlowGraphNode => ({ kind: 'current-output', nodeId: 'current', name: 'current', position: AT, block: null, configuration: { fields: fields.map(([fieldKey, schemaRef]) => ({ fieldKey, schemaRef })) } });
const series = (fields: Array<[string, string]>): FlowGraphNode => ({ kind: 'timeseries-output', nodeId: 'series', name: 'series', position: AT, block: null, configuration: { fields: fields.map(([fieldKey, schemaRef]) => ({ fieldKey, schemaRef })) } });
const edge = (fromNodeId: string, toNodeId: string, fromPort?: string): FlowGraphEdge => ({ fromNodeId, toNodeId, ...(fromPort ? { fromPort } : {}) });

const field = (schemaRef: string, extra: Partial<FieldContractEntry> = {}): FieldContractEntry => ({ schemaRef, storageTargets: ['current', 'timeseries'], status: 'active', ...extra });
const FIELDS: Record<string, FieldContractEntry> = {
  temperature: field(NUMBER),
  humidity: field(NUMBER),
  label: field(STRING),
  open: field(BOOLEAN),
  doc: field(JSON_REF),
  'env.temperature': field(NUMBER),
};

/** A sandbox stand-in answering from a queue or a function (the real one is exercised in engine-sandbox.spec.ts). */
function fakeSandbox(answer: (msg: unknown, ctx: unknown) => InvocationOutcome | Promise<InvocationOutcome>) {
  const calls: Array<{ msg: unknown; ctx: unknown; blockVersionId: string; tenantId: string }> = [];
  const sandbox: SandboxInvoker = {
    invoke: (tenantId, blockVersionId, _artifact, msg, ctx) => {
      calls.push({ msg, ctx, blockVersionId, tenantId });
      return Promise.resolve(answer(msg, ctx));
    },
  };
  return { sandbox, calls };
}
const ok = (result: Extract<InvocationOutcome, { ok: true }>['result'], logs: string[] = []): InvocationOutcome => ({ ok: true, result, logs, logsTruncated: false });

function plan(nodes: FlowGraphNode[], edges: FlowGraphEdge[], context: Partial<PlanContext> = {}, releasedAt: string | null = null) {
  return compilePlan(
    { flowVersionId: 'fv-1', graph: { schemaVersion: 'flow-graph.v2', deviceTypeId: 'dt-1', nodes, edges }, parameters: [], status: releasedAt ? 'released' : 'draft', releasedAt },
    { fields: FIELDS, resolveBlock: () => ({ artifact: ARTIFACT, tenantId: null, scriptContract: 'transform' }), sandbox: fakeSandbox(() => ok(null)).sandbox, ...context },
  );
}

const hexInput = (hex: string, extra: Partial<FlowInput> = {}): FlowInput => ({
  mode: 'preview',
  rawPayload: { encoding: 'hex', data: hex },
  observedAt: '2026-11-23T10:00:00.000Z',
  rawReceivedAt: '2026-11-23T10:00:01.000Z',
  tenantId: 'tenant-1',
  deviceId: 'device-1',
  deviceTypeId: 'type-1',
  correlationId: 'corr-1',
  connectionData: { fPort: 2, rssi: -97 },
  parameters: {},
  ...extra,
});
const jsonInput = (doc: unknown, extra: Partial<FlowInput> = {}) => hexInput('', { rawPayload: { encoding: 'json', data: JSON.stringify(doc) }, ...extra });

const OPTIONS: ExecuteOptions = { mode: 'preview', budgetMs: 1000 };
const statuses = (result: ExecutionResult) => Object.fromEntries(result.trace.map((t) => [t.nodeId, t.status]));

/** values from the JSON payload, so each test states its inputs directly. */
const fromPayload = (mappings: Array<[string, string]>) => builtin('map', 'map-field', { mappings: mappings.map(([source, fieldKey]) => ({ source, fieldKey })) });

describe('execute: initial message', () => {
  const graph = () => plan([fromPayload([['payload', 'doc']]), current([['doc', JSON_REF]]), series([])], [edge('map', 'current')]);

  it.each([
    ['base64', 'AQL/', [1, 2, 255]],
    ['hex', '0102ff', [1, 2, 255]],
    ['hex', '', []],
    ['utf8', 'héllo', 'héllo'],
    ['json', '{"a":[1,{"b":true}]}', { a: [1, { b: true }] }],
  ])('decodes %s %j', async (encoding, data, payload) => {
    const result = await executePlan(graph(), hexInput('', { rawPayload: { encoding, data } }), {}, OPTIONS);
    expect(result.status).toBe('succeeded');
    expect(result.current).toEqual({ doc: payload });
  });

  it.each([
    ['base64', 'AQL'],
    ['base64', 'A=QL'],
    ['hex', '0g'],
    ['hex', '012'],
    ['json', '{"a":'],
    ['ebcdic', 'x'],
  ])('fails %s %j with decode_error before any node, all nodes skipped', async (encoding, data) => {
    const result = await executePlan(graph(), hexInput('', { rawPayload: { encoding, data } }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'failed', error: { nodeId: null, code: 'decode_error' }, current: {}, timeseries: {}, actions: [] });
    expect(result.trace.map((t) => t.status)).toEqual(['skipped', 'skipped', 'skipped']);
  });

  it('fails without a rawPayload', async () => {
    const result = await executePlan(graph(), hexInput('', { rawPayload: undefined }), {}, OPTIONS);
    expect(result.error).toMatchObject({ code: 'decode_error' });
  });

  it('gives every entry node the initial message, with the input envelope', async () => {
    const result = await executePlan(
      plan([fromPayload([['input.connectionData.rssi', 'temperature']]), { ...fromPayload([['input.deviceId', 'label']]), nodeId: 'map2' }, current([['temperature', NUMBER], ['label', STRING]]), series([])], [edge('map', 'current'), edge('map2', 'current')]),
      hexInput('00'),
      {},
      OPTIONS,
    );
    expect(result.current).toEqual({ temperature: -97, label: 'device-1' });
  });
});

describe('execute: order, ports and merging', () => {
  it('runs in topological order with ties broken by the order of nodes', async () => {
    const nodes = [
      series([]),
      current([['temperature', NUMBER]]),
      builtin('b', 'scale', { fieldKey: 'temperature', multiply: 2 }),
      builtin('a', 'map-field', { mappings: [{ source: 'payload.t', fieldKey: 'temperature' }] }),
      builtin('c', 'scale', { fieldKey: 'temperature', add: 1 }),
    ];
    const result = await executePlan(plan(nodes, [edge('a', 'b'), edge('b', 'current'), edge('a', 'c')]), jsonInput({ t: 10 }), {}, OPTIONS);
    expect(result.trace.map((t) => t.nodeId)).toEqual(['series', 'a', 'b', 'current', 'c']);
    expect(result.current).toEqual({ temperature: 20 });
  });

  it('sends a filter message down pass or reject only', async () => {
    const nodes = [
      fromPayload([['payload.t', 'temperature']]),
      builtin('filter', 'filter', { path: 'values.temperature', operator: 'gt', value: 0 }),
      builtin('positive', 'map-field', { mappings: [{ source: 'values.temperature', fieldKey: 'label' }] }),
      builtin('negative', 'scale', { fieldKey: 'temperature', multiply: -1 }),
      current([['temperature', NUMBER], ['label', NUMBER]]),
      series([]),
    ];
    const edges = [edge('map', 'filter'), edge('filter', 'positive', 'pass'), edge('filter', 'negative', 'reject'), edge('positive', 'current'), edge('negative', 'current')];
    const positive = await executePlan(plan(nodes, edges), jsonInput({ t: 5 }), {}, OPTIONS);
    expect(statuses(positive)).toMatchObject({ filter: 'succeeded', positive: 'succeeded', negative: 'skipped', current: 'succeeded', series: 'skipped' });
    expect(positive.trace.find((t) => t.nodeId === 'filter')?.port).toBe('pass');
    expect(positive.current).toEqual({ temperature: 5, label: 5 });
    const negative = await executePlan(plan(nodes, edges), jsonInput({ t: -5 }), {}, OPTIONS);
    expect(statuses(negative)).toMatchObject({ positive: 'skipped', negative: 'succeeded' });
    expect(negative.trace.find((t) => t.nodeId === 'filter')?.port).toBe('reject');
    expect(negative.current).toEqual({ temperature: 5 });
  });

  it('is filtered when the message reaches no output or action node', async () => {
    const nodes = [fromPayload([['payload.t', 'temperature']]), builtin('filter', 'filter', { path: 'values.temperature', operator: 'gt', value: 0 }), current([['temperature', NUMBER]]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'filter'), edge('filter', 'current', 'pass')]), jsonInput({ t: -1 }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'filtered', current: {}, timeseries: {}, actions: [], error: null });
    expect(statuses(result)).toEqual({ map: 'succeeded', filter: 'succeeded', current: 'skipped', series: 'skipped' });
  });

  it('merges values of several incoming messages at an output, later in topological order winning', async () => {
    const nodes = [
      builtin('first', 'map-field', { mappings: [{ source: 'payload.a', fieldKey: 'temperature' }, { source: 'payload.h', fieldKey: 'humidity' }] }),
      builtin('second', 'map-field', { mappings: [{ source: 'payload.b', fieldKey: 'temperature' }] }),
      current([['temperature', NUMBER], ['humidity', NUMBER]]),
      series([['temperature', NUMBER]]),
    ];
    const result = await executePlan(plan(nodes, [edge('second', 'current'), edge('first', 'current'), edge('first', 'series')]), jsonInput({ a: 1, b: 2, h: 50 }), {}, OPTIONS);
    expect(result.current).toEqual({ temperature: 2, humidity: 50 });
    expect(result.timeseries).toEqual({ temperature: 1 });
    expect(result.trace.find((t) => t.nodeId === 'current')?.output).toEqual({ temperature: 2, humidity: 50 });
  });

  it('does not write null or missing values and only the configured fields', async () => {
    const nodes = [fromPayload([['payload.t', 'temperature'], ['payload.h', 'humidity'], ['payload.l', 'label']]), current([['temperature', NUMBER], ['humidity', NUMBER]]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'current')]), jsonInput({ t: null, l: 'x' }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'succeeded', current: {} });
  });

  it('finds field keys with dots', async () => {
    const nodes = [fromPayload([['payload.env.t', 'env.temperature']]), current([['env.temperature', NUMBER]]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'current')]), jsonInput({ env: { t: 3 } }), {}, OPTIONS);
    expect(result.current).toEqual({ 'env.temperature': 3 });
  });

  it('returns an e-mail request as data when an action node receives a message (succeeded without outputs)', async () => {
    const nodes = [fromPayload([['payload.t', 'temperature']]), builtin('mail', 'email-action', { emailTemplateId: TEMPLATE }), current([]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'mail')]), jsonInput({ t: 1 }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'succeeded', actions: [{ nodeId: 'mail', emailTemplateId: TEMPLATE }], current: {}, timeseries: {} });
  });

  it('runs a node not fed by any emitting predecessor never (each node at most once, fan-out runs each branch once)', async () => {
    const { sandbox, calls } = fakeSandbox(() => ok({ values: { humidity: 1 } }));
    const nodes = [fromPayload([['payload.t', 'temperature']]), custom('script'), current([['temperature', NUMBER], ['humidity', NUMBER]]), series([['temperature', NUMBER]])];
    const result = await executePlan(plan(nodes, [edge('map', 'script'), edge('map', 'series'), edge('script', 'current')], { sandbox }), jsonInput({ t: 4 }), {}, OPTIONS);
    expect(calls).toHaveLength(1);
    expect(result).toMatchObject({ status: 'succeeded', current: { temperature: 4, humidity: 1 }, timeseries: { temperature: 4 } });
  });
});

describe('execute: failures', () => {
  const failing = [
    fromPayload([['payload.t', 'temperature']]),
    builtin('scale', 'scale', { fieldKey: 'temperature', multiply: 2 }),
    builtin('mail', 'email-action', { emailTemplateId: TEMPLATE }),
    current([['temperature', NUMBER]]),
    series([['temperature', NUMBER]]),
  ];
  const edges = [edge('map', 'mail'), edge('map', 'series'), edge('map', 'scale'), edge('scale', 'current')];

  it('fails on a node error: downstream skipped, no writes, no actions', async () => {
    const result = await executePlan(plan(failing, edges), jsonInput({ t: 'warm' }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'failed', current: {}, timeseries: {}, actions: [], error: { nodeId: 'scale', code: 'type_mismatch' } });
    expect(statuses(result)).toEqual({ map: 'succeeded', scale: 'failed', mail: 'skipped', current: 'skipped', series: 'skipped' });
    expect(result.trace.find((t) => t.nodeId === 'scale')?.error).toEqual({ code: 'type_mismatch', message: 'values.temperature is a string, not a finite number.' });
  });

  it.each([
    [NUMBER, 'a', 'not a finite number'],
    [NUMBER, { x: 1 }, 'not a finite number'],
    [STRING, 5, 'not a string'],
    [STRING, 'x'.repeat(4097), 'longer than 4096'],
    [BOOLEAN, 'true', 'not a boolean'],
    [JSON_REF, { s: 'x'.repeat(16 * 1024) }, 'larger than 16384'],
  ])('checks %s at the output: a bad value is a type_mismatch (%#)', async (schemaRef, value, message) => {
    const fields: Record<string, FieldContractEntry> = { v: field(schemaRef) };
    const result = await executePlan(plan([fromPayload([['payload.v', 'v']]), current([['v', schemaRef]]), series([])], [edge('map', 'current')], { fields }), jsonInput({ v: value }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'failed', error: { nodeId: 'current', code: 'type_mismatch' }, current: {} });
    expect(result.error?.message).toContain(message);
  });

  it.each([
    ['a negative number', NUMBER, -1.5],
    ['4096 astral characters', STRING, '😀'.repeat(4096)],
    ['false', BOOLEAN, false],
    ['an array as json', JSON_REF, [1, { a: null }]],
    ['a string as json', JSON_REF, 'x'],
  ])('accepts %s', async (_label, schemaRef, value) => {
    const fields: Record<string, FieldContractEntry> = { v: field(schemaRef) };
    const result = await executePlan(plan([fromPayload([['payload.v', 'v']]), current([['v', schemaRef]]), series([])], [edge('map', 'current')], { fields }), jsonInput({ v: value }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'succeeded', current: { v: value } });
  });

  it('ignores a field deprecated after the release with a trace warning, writing the others', async () => {
    const fields = { ...FIELDS, humidity: field(NUMBER, { status: 'deprecated', deprecatedAt: '2026-06-01T00:00:00.000Z' }) };
    const nodes = [fromPayload([['payload.t', 'temperature'], ['payload.h', 'humidity']]), current([['temperature', NUMBER], ['humidity', NUMBER]]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'current')], { fields }, '2026-01-01T00:00:00.000Z'), jsonInput({ t: 1, h: 2 }), {}, OPTIONS);
    expect(result).toMatchObject({ status: 'succeeded', current: { temperature: 1 } });
    expect(result.current).not.toHaveProperty('humidity');
    expect(result.trace.find((t) => t.nodeId === 'current')?.logs).toEqual(["warning: field humidity was deprecated after this version's release; not written"]);
  });

  it('ignores fields the contract does not allow at this output', async () => {
    const fields = { ...FIELDS, humidity: field(NUMBER, { storageTargets: ['timeseries'] }) };
    const nodes = [fromPayload([['payload.h', 'humidity']]), current([['humidity', NUMBER], ['ghost', NUMBER]]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'current')], { fields }), jsonInput({ h: 2 }), {}, OPTIONS);
    expect(result.current).toEqual({});
    expect(result.trace.find((t) => t.nodeId === 'current')?.logs).toEqual([
      'warning: field humidity is not stored in current; not written',
      'warning: field ghost is not a field of the device type; not written',
    ]);
  });

  it('fails with parameter_error when a $param has no value, and resolves it otherwise', async () => {
    const nodes = [fromPayload([['payload.t', 'temperature']]), builtin('scale', 'scale', { fieldKey: 'temperature', multiply: { $param: 'factor' } }), current([['temperature', NUMBER]]), series([])];
    const edges2 = [edge('map', 'scale'), edge('scale', 'current')];
    const missing = await executePlan(plan(nodes, edges2), jsonInput({ t: 2 }), {}, OPTIONS);
    expect(missing).toMatchObject({ status: 'failed', error: { nodeId: 'scale', code: 'parameter_error', message: 'The parameter factor has no value.' } });
    const nulled = await executePlan(plan(nodes, edges2), jsonInput({ t: 2 }), { factor: null }, OPTIONS);
    expect(nulled.error?.code).toBe('parameter_error');
    const resolved = await executePlan(plan(nodes, edges2), jsonInput({ t: 2 }), { factor: 3 }, OPTIONS);
    expect(resolved.current).toEqual({ temperature: 6 });
  });

  it('fails an unknown built-in or a custom block the resolver does not know with block_unavailable', async () => {
    const unknown = await executePlan(plan([builtin('x', 'teleport', {}), current([]), series([])], [edge('x', 'current')]), hexInput(''), {}, OPTIONS);
    expect(unknown.error).toMatchObject({ nodeId: 'x', code: 'block_unavailable' });
    const missing = await executePlan(plan([custom('x'), current([]), series([])], [edge('x', 'current')], { resolveBlock: () => undefined }), hexInput(''), {}, OPTIONS);
    expect(missing.error).toMatchObject({ nodeId: 'x', code: 'block_unavailable' });
  });
});

describe('execute: custom blocks', () => {
  const nodes = [fromPayload([['payload.t', 'temperature']]), custom('script', 'cbv-1', { unit: { $param: 'unit' } }), current([['temperature', NUMBER], ['label', STRING]]), series([])];
  const edges = [edge('map', 'script'), edge('script', 'current')];

  it('calls the sandbox with msg and ctx and merges the result (payload replaces, values merge)', async () => {
    const { sandbox, calls } = fakeSandbox(() => ok({ payload: 'new', values: { label: 'hot' } }, ['line']));
    const result = await executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 30 }), { unit: 'C' }, { mode: 'live', budgetMs: 1000, tenantId: 'tenant-9', device: { deviceId: 'd', deviceTypeId: 't', metadata: { k: 'v' } } });
    expect(result).toMatchObject({ status: 'succeeded', current: { temperature: 30, label: 'hot' } });
    expect(calls[0]).toEqual({
      tenantId: 'tenant-9',
      blockVersionId: 'cbv-1',
      msg: expect.objectContaining({ payload: { t: 30 }, values: { temperature: 30 }, input: expect.objectContaining({ deviceId: 'device-1' }) }),
      ctx: { parameters: { unit: 'C' }, configuration: { unit: 'C' }, device: { deviceId: 'd', deviceTypeId: 't', metadata: { k: 'v' } }, tenantId: 'tenant-9', observedAt: '2026-11-23T10:00:00.000Z', mode: 'live', nodeId: 'script' },
    });
    const trace = result.trace.find((t) => t.nodeId === 'script');
    expect(trace).toMatchObject({ status: 'succeeded', port: 'out', output: { payload: 'new', values: { temperature: 30, label: 'hot' } }, logs: ['line'] });
  });

  it('derives ctx.device and ctx.tenantId from the input when not given', async () => {
    const { sandbox, calls } = fakeSandbox(() => ok({}));
    await executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 1 }), { unit: 'C' }, OPTIONS);
    expect(calls[0].ctx).toMatchObject({ tenantId: 'tenant-1', device: { deviceId: 'device-1', deviceTypeId: 'type-1', metadata: {} }, mode: 'preview' });
  });

  it('filters the message when the script returns null', async () => {
    const { sandbox } = fakeSandbox(() => ok(null, ['dropped']));
    const result = await executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 1 }), { unit: 'C' }, OPTIONS);
    expect(result.status).toBe('filtered');
    expect(statuses(result)).toMatchObject({ script: 'filtered', current: 'skipped' });
    expect(result.trace.find((t) => t.nodeId === 'script')?.logs).toEqual(['dropped']);
  });

  it.each(['script_error', 'timeout', 'memory_limit', 'invalid_output', 'output_too_large', 'decode_error'] as const)('passes the sandbox error %s through', async (code) => {
    const { sandbox } = fakeSandbox(() => ({ ok: false, error: { code, message: `it failed: ${code}` }, logs: ['before'], logsTruncated: false }));
    const result = await executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 1 }), { unit: 'C' }, OPTIONS);
    expect(result).toMatchObject({ status: 'failed', error: { nodeId: 'script', code, message: `it failed: ${code}` }, current: {} });
    expect(result.trace.find((t) => t.nodeId === 'script')).toMatchObject({ status: 'failed', logs: ['before'], error: { code } });
  });

  it('throws SandboxUnavailableError when the sandbox itself is down', async () => {
    const { sandbox } = fakeSandbox(() => {
      throw new SandboxUnavailableError();
    });
    await expect(executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 1 }), { unit: 'C' }, OPTIONS)).rejects.toBeInstanceOf(SandboxUnavailableError);
  });

  it('records an unusable artifact as a node failure, not an outage', async () => {
    const { sandbox } = fakeSandbox(() => ({ ok: false, error: { code: 'block_unavailable', message: 'The block version has no usable artifact.' }, logs: [], logsTruncated: false }));
    const result = await executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 1 }), { unit: 'C' }, OPTIONS);
    expect(result.error).toMatchObject({ nodeId: 'script', code: 'block_unavailable' });
  });
});

describe('execute: budget', () => {
  const nodes = [fromPayload([['payload.t', 'temperature']]), custom('script'), builtin('scale', 'scale', { fieldKey: 'temperature' }), current([['temperature', NUMBER]]), series([])];
  const edges = [edge('map', 'script'), edge('script', 'scale'), edge('scale', 'current')];

  it('fails the running node with timeout when a script call outlasts the whole budget', async () => {
    const { sandbox } = fakeSandbox(() => new Promise((resolve) => setTimeout(() => resolve(ok({})), 200)));
    const result = await executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 1 }), {}, { mode: 'preview', budgetMs: 20 });
    expect(result).toMatchObject({ status: 'failed', error: { nodeId: 'script', code: 'timeout', message: 'The execution exceeded its budget of 20 ms.' }, current: {} });
    expect(statuses(result)).toMatchObject({ scale: 'skipped', current: 'skipped' });
  });

  it('fails the next node with timeout once the budget is spent between nodes', async () => {
    let clock = 0;
    const { sandbox } = fakeSandbox(() => {
      clock += 1500;
      return ok({});
    });
    const result = await executePlan(plan(nodes, edges, { sandbox }), jsonInput({ t: 1 }), {}, { mode: 'preview', budgetMs: 1000, now: () => clock });
    expect(result.error).toMatchObject({ nodeId: 'scale', code: 'timeout' });
    expect(result.trace.find((t) => t.nodeId === 'script')).toMatchObject({ status: 'succeeded', startedAtOffsetMs: 0, durationMs: 1500 });
  });
});

describe('execute: trace', () => {
  it('truncates an output beyond 4 KiB to the first 4 KiB of its JSON text', async () => {
    const nodes = [fromPayload([['payload', 'doc']]), current([]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'current')]), hexInput('00'.repeat(2000)), {}, OPTIONS);
    const trace = result.trace[0];
    expect(trace.outputTruncated).toBe(true);
    expect(typeof trace.output).toBe('string');
    expect(Buffer.byteLength(trace.output as string)).toBe(4096);
    expect((trace.output as string).startsWith('{"payload":[0,0,')).toBe(true);
    const small = await executePlan(plan(nodes, [edge('map', 'current')]), hexInput('0001'), {}, OPTIONS);
    expect(small.trace[0]).toMatchObject({ output: { payload: [0, 1], values: { doc: [0, 1] } }, outputTruncated: false });
  });

  it('cuts no character in two when truncating', async () => {
    const nodes = [fromPayload([['payload', 'label']]), current([]), series([])];
    const result = await executePlan(plan(nodes, [edge('map', 'current')]), hexInput('', { rawPayload: { encoding: 'utf8', data: '€'.repeat(3000) } }), {}, OPTIONS);
    const output = result.trace[0].output as string;
    expect(output).not.toContain('\uFFFD');
    expect(Buffer.byteLength(output)).toBeLessThanOrEqual(4096);
  });

  it('keeps at most 20 log lines of at most 500 characters', async () => {
    const { sandbox } = fakeSandbox(() => ok({}, Array.from({ length: 30 }, (_, i) => `${i}`.padEnd(800, 'x'))));
    const result = await executePlan(plan([custom('script'), current([]), series([])], [edge('script', 'current')], { sandbox }), hexInput(''), {}, OPTIONS);
    const logs = result.trace[0].logs;
    expect(logs).toHaveLength(20);
    expect(logs.every((line) => line.length === 500)).toBe(true);
    expect(logs[19].startsWith('19x')).toBe(true);
  });

  it('is deterministic: the same input 50 times gives identical results apart from durations', async () => {
    const { sandbox } = fakeSandbox((msg) => ok({ values: { label: JSON.stringify((msg as { values: unknown }).values) } }, ['ran']));
    const nodes = [
      builtin('decode', 'decode-binary', { reads: [{ offset: 0, type: 'int16be', fieldKey: 'temperature' }, { offset: 2, type: 'uint8', fieldKey: 'humidity' }] }),
      custom('script'),
      builtin('scale', 'scale', { fieldKey: 'temperature', multiply: 0.1, decimals: 1 }),
      builtin('filter', 'filter', { path: 'values.humidity', operator: 'lt', value: 90 }),
      current([['temperature', NUMBER], ['humidity', NUMBER], ['label', STRING]]),
      series([['temperature', NUMBER]]),
    ];
    const compiled = plan(nodes, [edge('decode', 'script'), edge('script', 'scale'), edge('scale', 'filter'), edge('filter', 'current', 'pass'), edge('filter', 'series', 'pass')], { sandbox });
    const withoutTimes = (result: ExecutionResult) => ({ ...result, durationMs: 0, trace: result.trace.map((t) => ({ ...t, startedAtOffsetMs: 0, durationMs: 0 })) });
    const first = withoutTimes(await executePlan(compiled, hexInput('00e741'), {}, OPTIONS));
    expect(first).toMatchObject({ status: 'succeeded', current: { temperature: 23.1, humidity: 65 } });
    for (let i = 0; i < 50; i += 1) {
      expect(withoutTimes(await executePlan(compiled, hexInput('00e741'), {}, OPTIONS))).toEqual(first);
    }
  });
});

describe('traceOutput', () => {
  const ofJsonBytes = (bytes: number) => ({ s: 'x'.repeat(bytes - '{"s":""}'.length) });
  it('keeps a value of exactly 4 KiB of JSON and cuts one byte more', () => {
    expect(JSON.stringify(ofJsonBytes(4096)).length).toBe(4096);
    expect(traceOutput(ofJsonBytes(4096))).toEqual({ output: ofJsonBytes(4096), outputTruncated: false });
    const cut = traceOutput(ofJsonBytes(4097));
    expect(cut.outputTruncated).toBe(true);
    expect(cut.output).toBe(JSON.stringify(ofJsonBytes(4097)).slice(0, 4096));
  });

  it('counts escapes and multi-byte characters', () => {
    expect(traceOutput({ s: '\u0001'.repeat(700) }).outputTruncated).toBe(true);
    expect(traceOutput({ s: '\u0001'.repeat(600) }).outputTruncated).toBe(false);
    expect(traceOutput(['é'.repeat(2100)]).outputTruncated).toBe(true);
    expect(traceOutput(Array.from({ length: 1000 }, () => 255)).outputTruncated).toBe(false);
  });
});
