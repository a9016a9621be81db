/*
 * `npm run bench:blocks`: a realistic TTN v3 payload codec (test/fixtures/codecs/ttn-environment.js, ~4.5 KB:
 * fPort switch, signed, float and bit-field decoding, warnings) through the codec path of ScriptSandbox.invoke
 * (the built engine: host process, tenant isolate, block-version context, decodeUplink called with
 * { bytes, fPort, recvTime, variables }), next to the same codec run with node:vm in one reused context and a
 * timeout per message, in the same run. Prints calls/s and p99 of each, the ratio (goal: at least 2x), and the
 * cost of the first call of a new block version (its context is created: bootstrap plus the codec's top-level
 * code), for this codec and for the 38 KB one. Prints figures; never fails on a number.
 *
 * BENCH_DURATION seconds per measurement (default 5), BENCH_CONCURRENCY calls in flight (default 64; the
 * node:vm peer is synchronous, so it has no such knob), BENCH_FIRST_CALLS new versions timed (default 200).
 */
const vm = require('node:vm');
const os = require('node:os');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { fail, measureInProcess, percentile, ROOT } = require('./support');

const { ScriptSandbox } = require(join(ROOT, 'dist', 'modules', 'sandbox', 'script-sandbox.js'));

const duration = Number(process.env.BENCH_DURATION ?? 5) * 1000;
const concurrency = Number(process.env.BENCH_CONCURRENCY ?? 64);
const firstCalls = Number(process.env.BENCH_FIRST_CALLS ?? 200);
const limits = { timeoutMs: 50, memoryMb: 64, maxIsolates: 100 };

const CODEC = readFileSync(join(ROOT, 'test', 'fixtures', 'codecs', 'ttn-environment.js'), 'utf8');
const LARGE_CODEC = readFileSync(join(ROOT, 'test', 'fixtures', 'codecs', 'large-multisensor.js'), 'utf8');
/** fPort 1: -5.25 °C, 45.5 %RH, 1013.25 hPa (float32), 612 ppm, 2.95 V (a warning). */
const FRAME = [0xfd, 0xf3, 0x5b, 0x00, 0x50, 0x7d, 0x44, 0x02, 0x64, 0x0b, 0x86];
const EXPECTED = { temperature: -5.25, humidity: 45.5, pressure: 1013.25, co2: 612, battery: 2.95 };
const OBSERVED_AT = '2026-11-23T00:00:00.000Z';

const tenantId = '00000000-0000-0000-0000-000000000003';
const msg = () => ({ payload: FRAME.slice(), values: {}, input: { observedAt: OBSERVED_AT, connectionData: { fPort: 1, rssi: -97 } } });
const ctx = {
  parameters: {},
  configuration: {},
  device: { deviceId: '00000000-0000-0000-0000-000000000001', deviceTypeId: '00000000-0000-0000-0000-000000000002', metadata: {} },
  tenantId,
  observedAt: OBSERVED_AT,
  mode: 'live',
  nodeId: 'decoder',
};

function check(data) {
  if (JSON.stringify(data) !== JSON.stringify(EXPECTED)) throw new Error(`codec returned ${JSON.stringify(data)}`);
}

function print(name, calls, elapsedMs, latencies) {
  const perSecond = Math.round((calls * 1000) / elapsedMs);
  process.stdout.write(`${name.padEnd(48)} ${String(perSecond).padStart(8)} calls/s   p99 ${percentile(latencies, 0.99).toFixed(3)} ms\n`);
  return perSecond;
}

function measureInvoke(sandbox, artifact, inFlight, ms) {
  return measureInProcess(async () => {
    const outcome = await sandbox.invoke(tenantId, 'bench-codec', artifact, msg(), ctx);
    if (!outcome.ok) throw new Error(`invoke failed: ${JSON.stringify(outcome.error)}`);
  }, inFlight, ms);
}

/** The codec in node:vm: one context with its source evaluated once, decodeUplink run per message with a timeout. */
function measureNodeVm(ms) {
  const context = vm.createContext({});
  vm.runInContext(CODEC, context);
  // The input is built inside the context, as the codec path builds it inside the isolate.
  const script = new vm.Script('result = decodeUplink({ bytes: frame, fPort: fPort, recvTime: new Date(observedAt), variables: variables });');
  const latencies = [];
  let calls = 0;
  let timedOut = 0;
  const started = performance.now();
  const deadline = started + ms;
  while (performance.now() < deadline) {
    const t0 = performance.now();
    const message = msg();
    context.frame = message.payload;
    context.fPort = message.input.connectionData.fPort;
    context.observedAt = message.input.observedAt;
    context.variables = ctx.configuration;
    try {
      script.runInContext(context, { timeout: limits.timeoutMs });
    } catch (error) {
      // on a loaded machine a call can be descheduled past the timeout: counted, not fatal
      if (!/timed out/.test(error.message)) throw error;
      timedOut += 1;
      continue;
    }
    // what leaves the context is plain JSON, as what leaves an isolate
    const result = JSON.parse(JSON.stringify({ payload: context.result.data }));
    latencies.push(performance.now() - t0);
    if (calls === 0) check(result.payload);
    calls += 1;
  }
  return { calls, elapsed: performance.now() - started, latencies, timedOut };
}

/** The first call of `count` new block versions of `source`, one after another: context creation included. */
async function measureFirstCalls(sandbox, source, count) {
  const compiled = await sandbox.compile(source);
  if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
  const latencies = [];
  for (let i = 0; i < count; i += 1) {
    const t0 = performance.now();
    const outcome = await sandbox.invoke(tenantId, `first-${source.length}-${i}`, compiled.artifact, msg(), ctx);
    latencies.push(performance.now() - t0);
    if (!outcome.ok && outcome.error.code !== 'script_error') throw new Error(JSON.stringify(outcome.error));
  }
  return latencies;
}

async function main() {
  const sandbox = new ScriptSandbox(limits);
  try {
    const compiled = await sandbox.compile(CODEC);
    if (!compiled.ok) throw new Error(JSON.stringify(compiled.issues));
    if (compiled.scriptContract !== 'decodeUplink') throw new Error(`contract ${compiled.scriptContract}`);
    const first = await sandbox.invoke(tenantId, 'bench-codec', compiled.artifact, msg(), ctx);
    check(first.result.payload);
    process.stdout.write(`codec: ${CODEC.length} chars, 11-byte frame on fPort 1 -> 5 values and a warning; ${duration / 1000} s per measurement after a warm-up\n`);
    // The engine spreads a call over three threads (service, host, isolate), the node:vm peer runs on one: on a
    // machine whose cores are busy with other work the ratio says more about the load than about the engines.
    process.stdout.write(`machine: ${os.cpus().length} cores, load average ${os.loadavg()[0].toFixed(2)}\n`);

    await measureInvoke(sandbox, compiled.artifact, concurrency, 1000);
    const sequential = await measureInvoke(sandbox, compiled.artifact, 1, duration);
    print('codec via ScriptSandbox.invoke, 1 call in flight', sequential.calls, sequential.elapsed, sequential.latencies);
    const ours = await measureInvoke(sandbox, compiled.artifact, concurrency, duration);
    const oursPerSecond = print(`codec via ScriptSandbox.invoke, ${concurrency} in flight`, ours.calls, ours.elapsed, ours.latencies);

    measureNodeVm(1000);
    const peer = measureNodeVm(duration);
    const peerPerSecond = print('codec in node:vm, reused context + timeout', peer.calls, peer.elapsed, peer.latencies);
    if (peer.timedOut > 0) process.stdout.write(`  (node:vm: ${peer.timedOut} calls timed out on this machine's load and are not counted)\n`);
    const ratio = oursPerSecond / peerPerSecond;
    process.stdout.write(`ratio ${ratio.toFixed(2)} (goal >= 2.00: ${ratio >= 2 ? 'met' : 'NOT met'})\n`);

    for (const [name, source] of [
      ['this codec', CODEC],
      ['the 38 KB codec', LARGE_CODEC],
    ]) {
      const latencies = await measureFirstCalls(sandbox, source, firstCalls);
      process.stdout.write(
        `first call of a new block version (${name}, ${source.length} chars): p50 ${percentile(latencies, 0.5).toFixed(3)} ms, p99 ${percentile(latencies, 0.99).toFixed(3)} ms (${firstCalls} versions)\n`,
      );
    }
    const warm = sequential.latencies;
    process.stdout.write(`later calls of a version (1 in flight): p50 ${percentile(warm, 0.5).toFixed(3)} ms\n`);
  } finally {
    sandbox.onModuleDestroy();
  }
}

main().catch(fail('bench:blocks'));
