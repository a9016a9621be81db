/*
 * `npm run bench:sandbox`: a typical decoder (12-byte payload to 4 scaled values) through ScriptSandbox.invoke
 * (the built engine: host process, tenant isolate, block-version context), next to the same function run the way
 * Node-RED's function node runs it (node:vm, one reused context, `runInContext` with a timeout per message),
 * in the same run. Prints calls/s, p99 latency, the ratio (goals: >= 2x the peer and >= 20,000 calls/s) and the
 * memory of an idle tenant isolate. Prints figures; never fails on a number.
 *
 * BENCH_DURATION seconds per measurement (default 5), BENCH_CONCURRENCY calls in flight (default 64: uplinks of
 * many devices arrive together; the node:vm peer is synchronous, so it has no such knob), BENCH_TENANTS idle
 * isolates for the memory figure (default 50).
 */
const vm = require('node:vm');
const { join } = require('node:path');
const { fail, measureInProcess, percentile, ROOT } = require('./support');

const { ScriptSandbox } = require(join(ROOT, 'dist', 'modules', 'sandbox', 'script-sandbox.js'));
const { SandboxEngine } = require(join(ROOT, 'dist', 'modules', 'sandbox', 'isolate', 'sandbox-engine.js'));

const duration = Number(process.env.BENCH_DURATION ?? 5) * 1000;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const tenants = Number(process.env.BENCH_TENANTS ?? 50);
const limits = { timeoutMs: 50, memoryMb: 64, maxIsolates: Math.max(100, tenants + 1) };

const BODY = `
  const b = msg.payload;
  const u16 = (i) => (b[i] << 8) | b[i + 1];
  const s16 = (i) => { const v = u16(i); return v & 0x8000 ? v - 0x10000 : v; };
  const u32 = (i) => ((b[i] << 24) >>> 0) + (b[i + 1] << 16) + (b[i + 2] << 8) + b[i + 3];
  const scale = ctx.configuration.scale;
  return { values: { temperature: s16(0) * scale, humidity: u16(2) * scale, pressure: u32(4) * scale, battery: u16(8) / 1000 } };`;
const SOURCE = `function transform(msg, ctx) {${BODY}\n}`;
const PAYLOAD = [0x09, 0x29, 0x17, 0x70, 0x00, 0x01, 0x8a, 0x88, 0x0e, 0x74, 0x00, 0x00];
const EXPECTED = { temperature: 23.45, humidity: 60, pressure: 1010, battery: 3.7 };

const msg = () => ({ payload: PAYLOAD.slice(), values: {}, input: { source: 'bench' } });
const ctx = {
  parameters: {},
  configuration: { scale: 0.01 },
  device: { deviceId: '00000000-0000-0000-0000-000000000001', deviceTypeId: '00000000-0000-0000-0000-000000000002', metadata: {} },
  tenantId: '00000000-0000-0000-0000-000000000003',
  observedAt: '2026-11-23T00:00:00.000Z',
  mode: 'live',
  nodeId: 'decoder',
};

function check(values) {
  for (const [key, value] of Object.entries(EXPECTED)) {
    if (Math.abs(values[key] - value) > 1e-9) throw new Error(`decoder returned ${JSON.stringify(values)}`);
  }
}

function print(name, calls, elapsedMs, latencies) {
  const perSecond = Math.round((calls * 1000) / elapsedMs);
  process.stdout.write(`${name.padEnd(44)} ${String(perSecond).padStart(8)} calls/s   p99 ${percentile(latencies, 0.99).toFixed(3)} ms\n`);
  return perSecond;
}

function measureInvoke(sandbox, artifact, inFlight, ms) {
  return measureInProcess(async () => {
    const outcome = await sandbox.invoke(ctx.tenantId, 'bench-decoder', artifact, msg(), ctx);
    if (!outcome.ok) throw new Error(`invoke failed: ${JSON.stringify(outcome.error)}`);
  }, inFlight, ms);
}

/** Node-RED's function node: one context per node, the function body wrapped once, runInContext per message. */
function measureNodeVm(ms) {
  const context = vm.createContext({ msg: null, ctx: null, results: null });
  const script = new vm.Script(`results = (function (msg, ctx) {${BODY}\n})(msg, ctx);`);
  const latencies = [];
  let calls = 0;
  const started = performance.now();
  const deadline = started + ms;
  while (performance.now() < deadline) {
    const t0 = performance.now();
    context.msg = msg();
    context.ctx = ctx;
    script.runInContext(context, { timeout: limits.timeoutMs });
    latencies.push(performance.now() - t0);
    if (calls === 0) check(context.results.values);
    calls += 1;
  }
  return { calls, elapsed: performance.now() - started, latencies };
}

/** RSS and isolate heap of `tenants` idle tenant isolates (one decoder context each), in this process. */
async function measureIdleIsolates() {
  let heapUsed = 0;
  const engine = new SandboxEngine(limits, { isolatesChanged: () => {}, heapChanged: (bytes) => (heapUsed = bytes), catastrophicError: () => {} });
  const compiled = await engine.compile(SOURCE);
  const msgJson = JSON.stringify(msg());
  const ctxJson = JSON.stringify(ctx);
  global.gc?.();
  const before = process.memoryUsage().rss;
  for (let tenant = 0; tenant < tenants; tenant += 1) await engine.invoke(`tenant-${tenant}`, 'decoder', compiled.artifact, msgJson, ctxJson);
  await new Promise((resolve) => setTimeout(resolve, 1100)); // heap samples are taken at most once a second
  for (let tenant = 0; tenant < tenants; tenant += 1) await engine.invoke(`tenant-${tenant}`, 'decoder', compiled.artifact, msgJson, ctxJson);
  await new Promise((resolve) => setTimeout(resolve, 50));
  global.gc?.();
  const rss = (process.memoryUsage().rss - before) / tenants;
  const heap = heapUsed / tenants;
  engine.dispose();
  return { rssMiB: rss / 1048576, heapMiB: heap / 1048576 };
}

async function main() {
  const sandbox = new ScriptSandbox(limits);
  try {
    const compiled = await sandbox.compile(SOURCE);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    const first = await sandbox.invoke(ctx.tenantId, 'bench-decoder', compiled.artifact, msg(), ctx);
    check(first.result.values);
    process.stdout.write(`decoder: 12-byte payload -> 4 scaled values; ${duration / 1000} s per measurement after a warm-up\n`);

    await measureInvoke(sandbox, compiled.artifact, concurrency, 1000);
    const sequential = await measureInvoke(sandbox, compiled.artifact, 1, duration);
    print('ScriptSandbox.invoke, 1 call in flight', sequential.calls, sequential.elapsed, sequential.latencies);
    const ours = await measureInvoke(sandbox, compiled.artifact, concurrency, duration);
    const oursPerSecond = print(`ScriptSandbox.invoke, ${concurrency} calls in flight`, ours.calls, ours.elapsed, ours.latencies);

    measureNodeVm(1000);
    const peer = measureNodeVm(duration);
    const peerPerSecond = print('node:vm runInContext + timeout (Node-RED)', peer.calls, peer.elapsed, peer.latencies);

    const ratio = oursPerSecond / peerPerSecond;
    process.stdout.write(`ratio ${ratio.toFixed(2)} (goal >= 2.00: ${ratio >= 2 ? 'met' : 'NOT met'}); `);
    process.stdout.write(`${oursPerSecond} calls/s (goal >= 20000: ${oursPerSecond >= 20000 ? 'met' : 'NOT met'})\n`);
  } finally {
    sandbox.onModuleDestroy();
  }
  const idle = await measureIdleIsolates();
  process.stdout.write(`idle tenant isolate (one decoder context): ${idle.rssMiB.toFixed(2)} MiB RSS, ${idle.heapMiB.toFixed(2)} MiB V8 heap used (mean of ${tenants})\n`);
}

main().catch(fail('bench:sandbox'));
