/*
 * `npm run bench:flows`: the flow engine in-process (no database, no HTTP) on a 5-node flow
 * decode-binary -> custom block -> scale -> filter -> outputs (storage writes are data, never done), as
 * executions/s next to ScriptSandbox.invoke alone calling the same custom block with the same message, in the
 * same run (goal: engine/sandbox at least 0.7: the graph around the script costs less than the script). Both
 * are measured with 1 and with BENCH_CONCURRENCY calls in flight, in BENCH_ROUNDS alternating slices so machine
 * load hits both alike (on a busy 2-core machine one-second figures swing by a third). Prints figures; never
 * fails on a number.
 *
 * Then the p50/p99 of `POST …/preview` over HTTP against the built service on a throw-away database.
 *
 * BENCH_DURATION seconds per side and measurement (default 10), BENCH_CONCURRENCY calls in flight (default 64),
 * BENCH_ROUNDS slices (default 10), BENCH_PREVIEW_REQUESTS (default 500) and BENCH_PREVIEW_IN_FLIGHT (default 8).
 */
const os = require('node:os');
const { join } = require('node:path');
const { ADMIN, fail, measureInProcess, percentile, ROOT, startService, throwAwayDatabase } = require('./support');

const { ScriptSandbox } = require(join(ROOT, 'dist', 'modules', 'sandbox', 'script-sandbox.js'));
const { compilePlan, executePlan } = require(join(ROOT, 'dist', 'modules', 'flows', 'engine', 'index.js'));

const duration = Number(process.env.BENCH_DURATION ?? 10) * 1000;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const rounds = Number(process.env.BENCH_ROUNDS ?? 10);
const limits = { timeoutMs: 50, memoryMb: 64, maxIsolates: 100 };

const TENANT = '00000000-0000-0000-0000-000000000003';
const BLOCK_VERSION = 'bench-flow-block';
const NUMBER = 'platform://schemas/number/v1';
/** The custom block: dew point from temperature and humidity, with a calibration offset from its configuration. */
const SCRIPT = `
function transform(msg, ctx) {
  var t = msg.values.temperature / 100 + ctx.configuration.offset;
  var rh = msg.values.humidity / 2;
  var a = 17.62, b = 243.12;
  var gamma = Math.log(rh / 100) + (a * t) / (b + t);
  return { values: { temperature: t * 100, dewPoint: Math.round(((b * gamma) / (a - gamma)) * 100) / 100 } };
}`;
/** int16 BE temperature (0.01 °C) = 23.45, uint8 humidity (0.5 %RH) = 72.5, uint16 BE battery (mV) = 3012. */
const HEX = '092991' + '0bc4';
const OBSERVED_AT = '2026-11-23T00:00:00.000Z';
const device = { deviceId: '00000000-0000-0000-0000-000000000001', deviceTypeId: '00000000-0000-0000-0000-000000000002', metadata: {} };

const graph = {
  schemaVersion: 'flow-graph.v2',
  deviceTypeId: device.deviceTypeId,
  nodes: [
    {
      kind: 'block',
      nodeId: 'decode',
      block: { type: 'builtin', key: 'decode-binary', version: 1 },
      configuration: {
        reads: [
          { offset: 0, type: 'int16be', fieldKey: 'temperature' },
          { offset: 2, type: 'uint8', fieldKey: 'humidity' },
          { offset: 3, type: 'uint16be', fieldKey: 'battery' },
        ],
      },
    },
    { kind: 'block', nodeId: 'dew-point', block: { type: 'custom', flowBlockVersionId: BLOCK_VERSION }, configuration: { offset: { $param: 'offset' } } },
    { kind: 'block', nodeId: 'scale', block: { type: 'builtin', key: 'scale', version: 1 }, configuration: { fieldKey: 'temperature', multiply: 0.01, decimals: 2 } },
    { kind: 'block', nodeId: 'plausible', block: { type: 'builtin', key: 'filter', version: 1 }, configuration: { path: 'values.temperature', operator: 'lt', value: 85 } },
    {
      kind: 'current-output',
      nodeId: 'current',
      block: null,
      configuration: { fields: ['temperature', 'humidity', 'battery', 'dewPoint'].map((fieldKey) => ({ fieldKey, schemaRef: NUMBER })) },
    },
    { kind: 'timeseries-output', nodeId: 'series', block: null, configuration: { fields: ['temperature', 'dewPoint'].map((fieldKey) => ({ fieldKey, schemaRef: NUMBER })) } },
  ],
  edges: [
    { fromNodeId: 'decode', toNodeId: 'dew-point' },
    { fromNodeId: 'dew-point', toNodeId: 'scale' },
    { fromNodeId: 'scale', toNodeId: 'plausible' },
    { fromNodeId: 'plausible', fromPort: 'pass', toNodeId: 'current' },
    { fromNodeId: 'plausible', fromPort: 'pass', toNodeId: 'series' },
  ],
};
const field = { schemaRef: NUMBER, storageTargets: ['current', 'timeseries'], status: 'active' };
const fields = { temperature: field, humidity: field, battery: field, dewPoint: field };
const parameters = { offset: 0.5 };

const input = () => ({
  mode: 'live',
  rawPayload: { encoding: 'hex', data: HEX },
  observedAt: OBSERVED_AT,
  rawReceivedAt: OBSERVED_AT,
  tenantId: TENANT,
  deviceId: device.deviceId,
  deviceTypeId: device.deviceTypeId,
  correlationId: 'bench',
  connectionData: { fPort: 1, rssi: -97 },
  parameters: {},
});
/** What the custom block receives inside the flow: the decoded values (the same message for the sandbox-only peer). */
const scriptMessage = () => ({ payload: [0x09, 0x29, 0x91, 0x0b, 0xc4], values: { temperature: 2345, humidity: 145, battery: 3012 }, input: input() });
const scriptCtx = { parameters, configuration: { offset: 0.5 }, device, tenantId: TENANT, observedAt: OBSERVED_AT, mode: 'live', nodeId: 'dew-point' };

/** BENCH_ROUNDS alternating slices each, so load spikes on the shared machine hit both sides alike. */
async function compare(sandboxCall, engineCall, inFlight) {
  const totals = { sandbox: { calls: 0, elapsed: 0, latencies: [] }, engine: { calls: 0, elapsed: 0, latencies: [] } };
  for (let round = 0; round < rounds; round += 1) {
    for (const [name, call] of [
      ['sandbox', sandboxCall],
      ['engine', engineCall],
    ]) {
      const result = await measureInProcess(call, inFlight, duration / rounds);
      totals[name].calls += result.calls;
      totals[name].elapsed += result.elapsed;
      totals[name].latencies.push(...result.latencies);
    }
  }
  const line = (label, { calls, elapsed, latencies }) => {
    const perSecond = Math.round((calls * 1000) / elapsed);
    process.stdout.write(`${label.padEnd(52)} ${String(perSecond).padStart(8)} /s   p99 ${percentile(latencies, 0.99).toFixed(3)} ms\n`);
    return perSecond;
  };
  const sandboxPerSecond = line(`custom block via ScriptSandbox.invoke, ${inFlight} in flight`, totals.sandbox);
  const enginePerSecond = line(`5-node flow via the engine, ${inFlight} in flight`, totals.engine);
  const ratio = enginePerSecond / sandboxPerSecond;
  process.stdout.write(`ratio engine/sandbox ${ratio.toFixed(2)} (goal >= 0.70: ${ratio >= 0.7 ? 'met' : 'NOT met'})\n`);
}

/** Sequential and in-flight requests of `POST …/preview` (BENCH_PREVIEW_REQUESTS, default 500, each). */
const previewRequests = Number(process.env.BENCH_PREVIEW_REQUESTS ?? 500);
const previewInFlight = Number(process.env.BENCH_PREVIEW_IN_FLIGHT ?? 8);

async function api(base, token, method, path, body, expected) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== expected) throw new Error(`${method} ${path}: ${res.status} ${text.slice(0, 500)}`);
  return { body: text ? JSON.parse(text) : null, headers: res.headers };
}

/**
 * The flow of the in-process figure, over HTTP, without its custom block: the BlockVersionLookup of this build
 * knows no custom block (a custom node would fail `block_unavailable`), so the graph is decode-binary -> scale ->
 * filter -> outputs.
 */
async function seedPreviewFlow(base) {
  const token = (await api(base, null, 'POST', '/v1/auth/login', { identifier: ADMIN.username, password: ADMIN.password }, 200)).body.accessToken;
  const tenant = (await api(base, token, 'POST', '/v1/tenants', { key: 'bench-flows', name: 'Bench flows' }, 201)).body;
  const type = (await api(base, token, 'POST', `/v1/tenants/${tenant.tenantNumber}/device-types`, { key: 'climate', name: 'Climate sensor' }, 201)).body;
  for (const key of ['temperature', 'humidity', 'battery']) {
    await api(base, token, 'POST', `/v1/device-types/${type.deviceTypeId}/fields`, { key, name: key, schemaRef: NUMBER, storageTargets: ['current', 'timeseries'], measurementType: 'gauge' }, 201);
  }
  const flow = (await api(base, token, 'POST', `/v1/device-types/${type.deviceTypeId}/flow`, { key: 'climate', name: 'Climate decoder' }, 201)).body;
  const keys = ['temperature', 'humidity', 'battery'];
  const httpGraph = {
    schemaVersion: 'flow-graph.v2',
    deviceTypeId: type.deviceTypeId,
    nodes: [
      { ...graph.nodes[0], name: 'Decode', position: { x: 0, y: 0 } },
      { ...graph.nodes[2], name: 'Scale', position: { x: 1, y: 0 } },
      { ...graph.nodes[3], name: 'Plausible', position: { x: 2, y: 0 } },
      { kind: 'current-output', nodeId: 'current', block: null, name: 'Current', configuration: { fields: keys.map((fieldKey) => ({ fieldKey, schemaRef: NUMBER })) }, position: { x: 3, y: 0 } },
      { kind: 'timeseries-output', nodeId: 'series', block: null, name: 'Series', configuration: { fields: keys.map((fieldKey) => ({ fieldKey, schemaRef: NUMBER })) }, position: { x: 3, y: 1 } },
    ],
    edges: [
      { fromNodeId: 'decode', toNodeId: 'scale' },
      { fromNodeId: 'scale', toNodeId: 'plausible' },
      { fromNodeId: 'plausible', fromPort: 'pass', toNodeId: 'current' },
      { fromNodeId: 'plausible', fromPort: 'pass', toNodeId: 'series' },
    ],
  };
  const draft = (await api(base, token, 'POST', `/v1/flows/${flow.flowId}/versions`, { graph: httpGraph }, 201)).body;
  const released = (await api(base, token, 'POST', `/v1/flows/${flow.flowId}/versions`, { graph: httpGraph }, 201)).body;
  await api(base, token, 'POST', `/v1/flows/${flow.flowId}/versions/${released.flowVersionId}/release`, undefined, 200);
  const body = (flowVersionId) => ({
    flowVersionId,
    input: { ...input(), mode: 'preview', tenantId: tenant.tenantId, deviceTypeId: type.deviceTypeId },
  });
  return { token, path: `/v1/flows/${flow.flowId}/preview`, draftBody: body(draft.flowVersionId), releasedBody: body(released.flowVersionId) };
}

async function previewLatencies(base, token, path, body, inFlight) {
  const call = async () => {
    const { body: result } = await api(base, token, 'POST', path, body, 200);
    if (result.status !== 'succeeded') throw new Error(`preview ${result.status}: ${JSON.stringify(result.error)}`);
  };
  for (let i = 0; i < 50; i += 1) await call(); // warm-up: JIT, plan cache, pool
  const latencies = [];
  let next = 0;
  const started = performance.now();
  async function worker() {
    while (next < previewRequests) {
      next += 1;
      const t0 = performance.now();
      await call();
      latencies.push(performance.now() - t0);
    }
  }
  await Promise.all(Array.from({ length: inFlight }, worker));
  return { latencies, perSecond: Math.round((latencies.length * 1000) / (performance.now() - started)) };
}

/**
 * p50/p99 of `POST …/preview` over HTTP: the built service on a throw-away database, a seeded flow, then
 * BENCH_PREVIEW_REQUESTS requests one at a time and with BENCH_PREVIEW_IN_FLIGHT in flight, for a draft (validated
 * on every request) and a released version (runs as it would live, no validation).
 */
async function measurePreviewOverHttp() {
  const database = await throwAwayDatabase('flows');
  let service;
  try {
    service = await startService(database.url);
    const seeded = await seedPreviewFlow(service.url);
    process.stdout.write(`POST .../preview over HTTP (decode-binary -> scale -> filter -> outputs; ${previewRequests} requests each after 50 warm-up)\n`);
    for (const [label, body] of [
      ['draft', seeded.draftBody],
      ['released', seeded.releasedBody],
    ]) {
      for (const inFlight of [1, previewInFlight]) {
        const { latencies, perSecond } = await previewLatencies(service.url, seeded.token, seeded.path, body, inFlight);
        process.stdout.write(
          `preview of a ${label} version, ${inFlight} in flight`.padEnd(52) +
            ` ${String(perSecond).padStart(8)} /s   p50 ${percentile(latencies, 0.5).toFixed(2)} ms   p99 ${percentile(latencies, 0.99).toFixed(2)} ms\n`,
        );
      }
    }
  } finally {
    await service?.stop();
    await database.drop();
  }
}

async function main() {
  const sandbox = new ScriptSandbox(limits);
  try {
    const compiled = await sandbox.compile(SCRIPT);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const plan = compilePlan(
      { flowVersionId: 'bench-flow-version', graph, parameters: [{ key: 'offset', type: 'number', defaultValue: 0 }], status: 'released', releasedAt: OBSERVED_AT },
      { fields, resolveBlock: () => ({ artifact: compiled.artifact, tenantId: TENANT, scriptContract: compiled.scriptContract }), sandbox },
    );
    const options = { mode: 'live', budgetMs: 1000, tenantId: TENANT, device };

    const first = await executePlan(plan, input(), parameters, options);
    const expected = { temperature: 23.95, humidity: 145, battery: 3012, dewPoint: 18.7 };
    if (first.status !== 'succeeded' || JSON.stringify(first.current) !== JSON.stringify(expected)) {
      throw new Error(`the flow returned ${JSON.stringify({ status: first.status, current: first.current, error: first.error })}`);
    }
    const alone = await sandbox.invoke(TENANT, BLOCK_VERSION, compiled.artifact, scriptMessage(), scriptCtx);
    if (!alone.ok) throw new Error(`invoke failed: ${JSON.stringify(alone.error)}`);

    const sandboxCall = async () => {
      const outcome = await sandbox.invoke(TENANT, BLOCK_VERSION, compiled.artifact, scriptMessage(), scriptCtx);
      if (!outcome.ok) throw new Error(`invoke failed: ${JSON.stringify(outcome.error)}`);
    };
    const engineCall = async () => {
      const result = await executePlan(plan, input(), parameters, options);
      if (result.status !== 'succeeded') throw new Error(`execution ${result.status}: ${JSON.stringify(result.error)}`);
    };

    process.stdout.write(`flow: decode-binary -> custom block (dew point) -> scale -> filter -> current + timeseries outputs; ${duration / 1000} s per measurement\n`);
    process.stdout.write(`machine: ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)}\n`);
    await measureInProcess(sandboxCall, concurrency, 1000);
    await measureInProcess(engineCall, concurrency, 1000);
    await compare(sandboxCall, engineCall, 1);
    await compare(sandboxCall, engineCall, concurrency);
    await measurePreviewOverHttp();
  } finally {
    sandbox.onModuleDestroy();
  }
}

main().catch(fail('bench:flows'));
