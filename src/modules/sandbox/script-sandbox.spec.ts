import { Registry, Counter, Gauge, Histogram } from 'prom-client';
import type { InvocationOutcome, ScriptArtifact, ScriptContextData, ScriptMessage } from './domain/sandbox-contract';
import { SandboxUnavailableError } from './domain/sandbox.errors';
import { ScriptSandbox } from './script-sandbox';

const TENANT = '11111111-1111-4111-8111-111111111111';
const OTHER_TENANT = '22222222-2222-4222-8222-222222222222';
const LIMITS = { timeoutMs: 50, memoryMb: 16, maxIsolates: 4 };

const msg = (payload: ScriptMessage['payload'] = [1, 2, 3, 4]): ScriptMessage => ({ payload, values: { seen: true }, input: { source: 'http' } });
const ctx: ScriptContextData = {
  parameters: { factor: 2 },
  configuration: { offset: 1 },
  device: { deviceId: 'd-1', deviceTypeId: 't-1', metadata: { site: 'north' } },
  tenantId: TENANT,
  observedAt: '2026-01-02T03:04:05.678Z',
  mode: 'live',
  nodeId: 'node-1',
};

let sandbox: ScriptSandbox;
let versions = 0;

async function artifactOf(source: string): Promise<ScriptArtifact> {
  const compiled = await sandbox.compile(source);
  if (!compiled.ok) throw new Error(`does not compile: ${JSON.stringify(compiled.issues)}`);
  return compiled.artifact;
}

/** Compiles `source` and invokes it once, as a new block version of `tenantId`. */
async function run(source: string, message = msg(), tenantId = TENANT): Promise<InvocationOutcome> {
  versions += 1;
  return sandbox.invoke(tenantId, `version-${versions}`, await artifactOf(source), message, ctx);
}

function errorCode(outcome: InvocationOutcome): string {
  return outcome.ok ? 'ok' : outcome.error.code;
}

// One engine (one host process) for the file: tests keep apart by tenant and block version ids.
beforeAll(() => {
  sandbox = new ScriptSandbox(LIMITS);
});

afterAll(() => sandbox.onModuleDestroy());

describe('ScriptSandbox.compile (compile gate)', () => {
  it('returns an artifact with the source and its SHA-256', async () => {
    const result = await sandbox.compile('function transform(msg) { return msg; }');
    expect(result).toEqual({
      ok: true,
      artifact: {
        format: 'uplink-script.v1',
        source: 'function transform(msg) { return msg; }',
        sha256: expect.stringMatching(/^[0-9a-f]{64}$/),
        scriptContract: 'transform',
      },
      scriptContract: 'transform',
    });
  });

  it('reports syntax_error with the 1-based line and column', async () => {
    const result = await sandbox.compile('// decoder\nfunction transform(msg) {\n  return msg +;\n}');
    expect(result).toEqual({
      ok: false,
      issues: [{ severity: 'error', code: 'syntax_error', path: 'sourceCode', message: "SyntaxError: Unexpected token ';'", line: 3, column: 15 }],
    });
  });

  it.each([
    ['no transform at all', 'function decode(msg) { return msg; }'],
    ['transform as a variable', 'const transform = (msg) => msg;'],
    ['transform only inside a block', '{ function transform(msg) { return msg; } }'],
    ['transform not a function', 'var transform = 1;'],
  ])('reports missing_transform for %s', async (_case, source) => {
    const result = await sandbox.compile(source);
    expect(result).toEqual({ ok: false, issues: [expect.objectContaining({ code: 'missing_transform', path: 'sourceCode' })] });
  });

  it('runs none of the top-level code while compiling', async () => {
    const result = await sandbox.compile('for (;;) {}\nfunction transform(msg) { return msg; }');
    expect(result.ok).toBe(true);
  });

  it('rejects module syntax and top-level return: the script is classic', async () => {
    expect((await sandbox.compile('export function transform(msg) { return msg; }')).ok).toBe(false);
    expect((await sandbox.compile('return 1;\nfunction transform(msg) { return msg; }')).ok).toBe(false);
  });
});

describe('ScriptSandbox.invoke: the script contract', () => {
  it('passes deep copies of msg and ctx and returns payload and values', async () => {
    const outcome = await run(`
      function transform(msg, ctx) {
        return {
          payload: { bytes: msg.payload.length, input: msg.input.source },
          values: { doubled: msg.payload[0] * ctx.parameters.factor + ctx.configuration.offset, seen: msg.values.seen, site: ctx.device.metadata.site, node: ctx.nodeId, mode: ctx.mode },
        };
      }`);
    expect(outcome).toEqual({
      ok: true,
      result: { payload: { bytes: 4, input: 'http' }, values: { doubled: 3, seen: true, site: 'north', node: 'node-1', mode: 'live' } },
      logs: [],
      logsTruncated: false,
    });
  });

  it('does not let a script change the caller\'s objects', async () => {
    const message = msg([9]);
    await run('function transform(msg, ctx) { msg.payload.push(1); ctx.parameters.factor = 99; return null; }', message);
    expect(message.payload).toEqual([9]);
    expect(ctx.parameters.factor).toBe(2);
  });

  it.each([
    ['null', 'return null;'],
    ['undefined', 'return undefined;'],
    ['nothing', ''],
    ['a promise of null', 'return Promise.resolve(null);'],
  ])('treats %s as filtered', async (_case, body) => {
    expect(await run(`function transform() { ${body} }`)).toEqual({ ok: true, result: null, logs: [], logsTruncated: false });
  });

  it('accepts only payload, only values, or an empty object', async () => {
    expect(await run('function transform() { return { payload: "x" }; }')).toMatchObject({ ok: true, result: { payload: 'x' } });
    expect(await run('function transform() { return { values: { a: 1 } }; }')).toMatchObject({ ok: true, result: { values: { a: 1 } } });
    expect(await run('function transform() { return {}; }')).toMatchObject({ ok: true, result: {} });
  });

  it('awaits an async transform and its promise jobs', async () => {
    const outcome = await run(`
      async function transform(msg) {
        await null;
        const value = await new Promise((resolve) => Promise.resolve().then(() => resolve(msg.payload[1])));
        console.log('async', value);
        return { values: { value } };
      }`);
    expect(outcome).toEqual({ ok: true, result: { values: { value: 2 } }, logs: ['async 2'], logsTruncated: false });
  });

  it('accepts any thenable', async () => {
    expect(await run('function transform() { return { then(resolve) { resolve({ values: { t: 1 } }); } }; }')).toMatchObject({
      ok: true,
      result: { values: { t: 1 } },
    });
  });

  it.each([
    ['an unknown key', 'return { payload: 1, extra: 2 };', /unknown result properties: extra/],
    ['a number', 'return 42;', /got number/],
    ['a string', 'return "x";', /got string/],
    ['an array', 'return [1];', /got an array/],
    ['values not an object', 'return { values: [1] };', /values must be an object/],
    ['values null', 'return { values: null };', /values must be an object/],
    ['a function', 'return function () {};', /returned a function/],
    ['a symbol', 'return Symbol("s");', /returned a symbol/],
    ['a bigint', 'return 1n;', /returned a bigint/],
    ['a bigint inside', 'return { values: { a: 1n } };', /not JSON/],
    ['a cycle', 'const o = {}; o.payload = o; return o;', /not JSON/],
    ['toJSON returning undefined', 'return { toJSON() { return undefined; } };', /no JSON form/],
    ['a promise of a number', 'return Promise.resolve(5);', /got number/],
  ])('fails with invalid_output for %s', async (_case, body, message) => {
    const outcome = await run(`function transform() { ${body} }`);
    expect(errorCode(outcome)).toBe('invalid_output');
    expect(outcome.ok ? '' : outcome.error.message).toMatch(message);
  });

  it('fails with script_error when transform throws, with the message', async () => {
    const outcome = await run('function transform(msg) {\n  throw new TypeError("bad payload " + msg.payload.length);\n}');
    expect(outcome).toEqual({ ok: false, error: { code: 'script_error', message: 'TypeError: bad payload 4' }, logs: [], logsTruncated: false });
  });

  it.each([
    ['a thrown string', 'throw "nope";', 'Uncaught nope'],
    ['a rejected promise', 'return Promise.reject(new RangeError("late"));', 'RangeError: late'],
    ['an async throw', 'return (async () => { await null; throw new Error("after await"); })();', 'Error: after await'],
    ['a reference error', 'return missing.value;', 'ReferenceError: missing is not defined'],
  ])('fails with script_error for %s', async (_case, body, message) => {
    expect(await run(`function transform() { ${body} }`)).toMatchObject({ ok: false, error: { code: 'script_error', message } });
  });

  it('fails with script_error for a promise that never settles', async () => {
    const outcome = await run('function transform() { console.log("waiting"); return new Promise(() => {}); }');
    expect(outcome).toEqual({ ok: false, error: { code: 'script_error', message: expect.stringMatching(/never settles/) }, logs: ['waiting'], logsTruncated: false });
  });

  it('fails with script_error when the top-level code throws, and keeps its logs', async () => {
    const outcome = await run('console.log("loading");\nthrow new Error("broken at load");\nfunction transform() {}');
    expect(outcome).toEqual({ ok: false, error: { code: 'script_error', message: 'Error: broken at load' }, logs: ['loading'], logsTruncated: false });
  });

  it('a sandbox that is gone throws SandboxUnavailableError (503, dependency sandbox), never a script outcome', async () => {
    const artifact = await artifactOf('function transform() { return null; }');
    const gone = new ScriptSandbox(LIMITS);
    gone.onModuleDestroy();
    const failure = await gone.invoke(TENANT, 'v', artifact, msg(), ctx).then(
      () => null,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(SandboxUnavailableError);
    expect(failure).toMatchObject({ code: 'DEPENDENCY_FAILURE', message: 'The script sandbox is unavailable. Retry later.', details: { dependency: 'sandbox', reason: 'unavailable' } });
  });

  it('fails with block_unavailable for something that is not an artifact', async () => {
    const outcome = await sandbox.invoke(TENANT, 'v', { format: 'other' } as unknown as ScriptArtifact, msg(), ctx);
    expect(errorCode(outcome)).toBe('block_unavailable');
  });

  it('captures console.log lines, formatting non-strings as JSON', async () => {
    const outcome = await run('function transform(msg) { console.log("bytes", msg.payload, { a: 1 }, undefined, null); return null; }');
    expect(outcome).toMatchObject({ ok: true, logs: ['bytes [1,2,3,4] {"a":1} undefined null'] });
  });

  it('starts every call with empty logs', async () => {
    const artifact = await artifactOf('function transform(msg) { console.log("call", msg.payload); return null; }');
    const first = await sandbox.invoke(TENANT, 'logs', artifact, msg(1), ctx);
    const second = await sandbox.invoke(TENANT, 'logs', artifact, msg(2), ctx);
    expect([first.logs, second.logs]).toEqual([['call 1'], ['call 2']]);
  });

  it('offers ECMAScript built-ins only', async () => {
    const outcome = await run(`
      function transform() {
        const names = ['require', 'process', 'module', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch',
          'XMLHttpRequest', 'WebSocket', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'ivm', '_ivm', 'global'];
        return { values: Object.fromEntries(names.map((name) => [name, typeof globalThis[name]])) };
      }`);
    expect(outcome.ok && outcome.result?.values).toEqual(
      Object.fromEntries(
        ['require', 'process', 'module', 'Buffer', 'setTimeout', 'setInterval', 'setImmediate', 'queueMicrotask', 'fetch', 'XMLHttpRequest', 'WebSocket', 'WebAssembly', 'SharedArrayBuffer', 'Atomics', 'ivm', '_ivm', 'global'].map(
          (name) => [name, 'undefined'],
        ),
      ),
    );
  });

  it('sends a source to the host once, and again when the host does not have it under that checksum', async () => {
    const artifact = await artifactOf('var calls = 0;\nfunction transform() { calls += 1; return { values: { calls } }; }');
    expect(await sandbox.invoke(TENANT, 'by-ref', artifact, msg(), ctx)).toMatchObject({ ok: true, result: { values: { calls: 1 } } });
    expect(await sandbox.invoke(TENANT, 'by-ref', artifact, msg(), ctx)).toMatchObject({ ok: true, result: { values: { calls: 2 } } });
    // a checksum that is not the source's: the host never finds it by reference and is sent the source each time
    const mislabelled = { ...artifact, sha256: 'f'.repeat(64) };
    for (const calls of [1, 2]) {
      expect(await sandbox.invoke(TENANT, 'mislabelled', mislabelled, msg(), ctx)).toMatchObject({ ok: true, result: { values: { calls } } });
    }
  });

  it('rebuilds the context when the same version id comes with another artifact', async () => {
    const first = await artifactOf('function transform() { return { values: { v: 1 } }; }');
    const second = await artifactOf('function transform() { return { values: { v: 2 } }; }');
    expect(await sandbox.invoke(TENANT, 'same', first, msg(), ctx)).toMatchObject({ result: { values: { v: 1 } } });
    expect(await sandbox.invoke(TENANT, 'same', second, msg(), ctx)).toMatchObject({ result: { values: { v: 2 } } });
  });
});

describe('ScriptSandbox.invoke: isolation', () => {
  const counter = 'var count = 0;\nfunction transform() { count += 1; globalThis.shared = (globalThis.shared || 0) + 1; return { values: { count, shared: globalThis.shared } }; }';

  it('gives each block version its own context', async () => {
    const artifact = await artifactOf(counter);
    await sandbox.invoke(TENANT, 'a', artifact, msg(), ctx);
    expect(await sandbox.invoke(TENANT, 'a', artifact, msg(), ctx)).toMatchObject({ result: { values: { count: 2, shared: 2 } } });
    expect(await sandbox.invoke(TENANT, 'b', artifact, msg(), ctx)).toMatchObject({ result: { values: { count: 1, shared: 1 } } });
  });

  it('gives each tenant its own isolate', async () => {
    const artifact = await artifactOf(counter);
    await sandbox.invoke(TENANT, 'a', artifact, msg(), ctx);
    expect(await sandbox.invoke(OTHER_TENANT, 'a', artifact, msg(), ctx)).toMatchObject({ result: { values: { count: 1 } } });
  });

  it('cannot reach built-ins patched by another block version', async () => {
    await run('Array.prototype.map = function () { return "patched"; }; JSON.parse = () => 1; function transform() { return null; }');
    expect(await run('function transform(msg) { return { values: { mapped: msg.payload.map((b) => b * 2) } }; }')).toMatchObject({
      result: { values: { mapped: [2, 4, 6, 8] } },
    });
  });

  it('disposes the least recently used idle isolate beyond SANDBOX_MAX_ISOLATES and rebuilds it on demand', async () => {
    const artifact = await artifactOf(counter);
    for (let tenant = 0; tenant < 6; tenant += 1) await sandbox.invoke(`tenant-${tenant}`, 'a', artifact, msg(), ctx);
    // tenant-0 was evicted: its global state starts again
    expect(await sandbox.invoke('tenant-0', 'a', artifact, msg(), ctx)).toMatchObject({ result: { values: { count: 1 } } });
    expect(await sandbox.invoke('tenant-5', 'a', artifact, msg(), ctx)).toMatchObject({ result: { values: { count: 2 } } });
  });
});

describe('ScriptSandbox.invoke: limits', () => {
  it('fails with timeout for a synchronous loop, and the next call works', async () => {
    const artifact = await artifactOf('function transform(msg) { if (msg.payload === "spin") for (;;) {} return { values: { ok: true } }; }');
    const started = Date.now();
    expect(errorCode(await sandbox.invoke(TENANT, 'loop', artifact, msg('spin'), ctx))).toBe('timeout');
    expect(Date.now() - started).toBeLessThan(1000);
    expect(await sandbox.invoke(TENANT, 'loop', artifact, msg(), ctx)).toMatchObject({ ok: true, result: { values: { ok: true } } });
  });

  it('counts promise jobs against the timeout', async () => {
    expect(errorCode(await run('function transform() { const spin = () => Promise.resolve().then(spin); spin(); return null; }'))).toBe('timeout');
    expect(errorCode(await run('async function transform() { for (;;) { await null; } }'))).toBe('timeout');
  });

  it('fails with timeout when top-level code spins', async () => {
    expect(errorCode(await run('for (;;) {}\nfunction transform() { return null; }'))).toBe('timeout');
  });

  it('fails with memory_limit and replaces the isolate; the tenant\'s next call works', async () => {
    // a timeout long enough that the memory limit, not the clock of a loaded machine, stops the bomb
    const patient = new ScriptSandbox({ ...LIMITS, timeoutMs: 5000 });
    try {
      const good = await patient.compile('function transform() { return { values: { alive: true } }; }');
      const bomb = await patient.compile('function transform() { const keep = []; for (;;) keep.push(new Array(1000000).fill(keep.length)); }');
      if (!good.ok || !bomb.ok) throw new Error('does not compile');
      await patient.invoke(TENANT, 'good', good.artifact, msg(), ctx);
      const outcome = await patient.invoke(TENANT, 'bomb', bomb.artifact, msg(), ctx);
      expect(outcome).toMatchObject({ ok: false, error: { code: 'memory_limit', message: expect.stringMatching(/16 MiB/) } });
      expect(await patient.invoke(TENANT, 'good', good.artifact, msg(), ctx)).toMatchObject({ ok: true, result: { values: { alive: true } } });
    } finally {
      patient.onModuleDestroy();
    }
  }, 20000);

  it('fails with output_too_large above 64 KiB and accepts a result just below it', async () => {
    const big = await run('function transform() { return { payload: "x".repeat(65536) }; }');
    expect(big).toMatchObject({ ok: false, error: { code: 'output_too_large' } });
    const fits = await run('function transform() { return { payload: "x".repeat(65536 - 14) }; }');
    expect(fits.ok).toBe(true);
  });

  it('counts the result in UTF-8 bytes', async () => {
    // 30,000 three-byte characters: 30,000 UTF-16 units but 90,000 bytes
    expect(errorCode(await run('function transform() { return { payload: "\\u20ac".repeat(30000) }; }'))).toBe('output_too_large');
  });

  it('keeps at most 100 log lines and 8 KiB of logs, flagging the rest as dropped', async () => {
    const lines = await run('function transform() { for (let i = 0; i < 500; i++) console.log("line", i); return null; }');
    expect(lines).toMatchObject({ ok: true, logsTruncated: true });
    expect(lines.logs).toHaveLength(100);
    expect(lines.logs[99]).toBe('line 99');
    const bytes = await run('function transform() { for (let i = 0; i < 50; i++) console.log("\\u20ac".repeat(1000)); return null; }');
    expect(bytes).toMatchObject({ ok: true, logsTruncated: true });
    expect(Buffer.byteLength(bytes.logs.join(''), 'utf8')).toBeLessThanOrEqual(8192);
    expect(bytes.logs.length).toBeLessThanOrEqual(3);
  });
});

describe('ScriptSandbox.gate (compile, then sandbox gate)', () => {
  const sample = { payload: [0, 10, 0, 20], values: {} };

  it('passes a valid block with the sample result, logs and artifact', async () => {
    const report = await sandbox.gate(TENANT, 'function transform(msg, ctx) { console.log(ctx.mode); return { values: { a: msg.payload[1] * ctx.configuration.scale } }; }', sample, {
      type: 'object',
      properties: { scale: { type: 'number', default: 3 } },
    });
    expect(report).toEqual({
      passed: true,
      gate: null,
      issues: [],
      sample: { result: { values: { a: 30 } }, logs: ['preview'], logsTruncated: false },
      artifact: expect.objectContaining({ format: 'uplink-script.v1', scriptContract: 'transform' }),
      scriptContract: 'transform',
    });
  });

  it('prefers the sample configuration over schema defaults', async () => {
    const report = await sandbox.gate(TENANT, 'function transform(msg, ctx) { return { values: ctx.configuration }; }', { ...sample, configuration: { scale: 5 } }, {
      properties: { scale: { default: 3 } },
    });
    expect(report.sample?.result).toEqual({ values: { scale: 5 } });
  });

  it('stops at the compile gate', async () => {
    const report = await sandbox.gate(TENANT, 'function transform(msg) {', sample);
    expect(report).toMatchObject({ passed: false, gate: 'compile', issues: [{ code: 'syntax_error', line: 1 }], sample: null, artifact: null });
    expect((await sandbox.gate(TENANT, 'function other() {}', sample)).issues).toEqual([expect.objectContaining({ code: 'missing_transform' })]);
  });

  it.each([
    ['runtime_error', 'function transform(msg) {\n  return msg.payload.nope.deeper;\n}'],
    ['timeout', 'function transform() { for (;;) {} }'],
    ['invalid_output', 'function transform() { return { other: 1 }; }'],
    ['output_too_large', 'function transform() { return { payload: "x".repeat(70000) }; }'],
  ])('fails the sandbox gate with %s', async (code, source) => {
    const report = await sandbox.gate(TENANT, source, sample);
    expect(report).toMatchObject({ passed: false, gate: 'sandbox', issues: [{ severity: 'error', code, path: 'sourceCode' }] });
  }, 20000);

  it('fails the sandbox gate with memory_limit', async () => {
    // a timeout long enough that the memory limit, not the clock of a loaded machine, stops the bomb
    const patient = new ScriptSandbox({ ...LIMITS, timeoutMs: 5000 });
    try {
      const report = await patient.gate(TENANT, 'function transform() { const keep = []; for (;;) keep.push(new Array(1000000).fill(1)); }', sample);
      expect(report).toMatchObject({ passed: false, gate: 'sandbox', issues: [{ severity: 'error', code: 'memory_limit', path: 'sourceCode' }] });
    } finally {
      patient.onModuleDestroy();
    }
  }, 20000);

  it('reports where a runtime error happened', async () => {
    const report = await sandbox.gate(TENANT, 'function transform(msg) {\n  return msg.payload.nope.deeper;\n}', sample);
    expect(report.issues[0]).toMatchObject({ code: 'runtime_error', message: expect.stringMatching(/^TypeError: Cannot read properties of undefined/), line: 2, column: 27 });
  });
});

describe('ScriptSandbox metrics', () => {
  it('counts calls by outcome, times them and tracks the isolates', async () => {
    const registry = new Registry();
    const metrics = {
      invocations: new Counter({ name: 'sandbox_invocations_total', help: 'h', labelNames: ['outcome'], registers: [registry] }),
      duration: new Histogram({ name: 'sandbox_invocation_duration_seconds', help: 'h', labelNames: ['outcome'], registers: [registry] }),
      isolates: new Gauge({ name: 'sandbox_isolates', help: 'h', registers: [registry] }),
      heapUsed: new Gauge({ name: 'sandbox_isolate_heap_used_bytes', help: 'h', registers: [registry] }),
    };
    const measured = new ScriptSandbox(LIMITS, metrics);
    let compiledArtifact: ScriptArtifact | undefined;
    try {
      // gates use throw-away isolates: none is pooled
      await measured.gate(TENANT, 'function transform() { return null; }', { payload: null, values: {} });
      expect(await registry.metrics()).toMatch(/sandbox_isolates 0/);
      const compiled = await measured.compile('function transform(msg) { if (msg.payload === 1) throw new Error("x"); return msg.payload === 2 ? null : { values: {} }; }');
      if (!compiled.ok) throw new Error('does not compile');
      compiledArtifact = compiled.artifact;
      for (const payload of [0, 1, 2]) await measured.invoke(TENANT, 'm', compiled.artifact, msg(payload), ctx);
      await new Promise((resolve) => setTimeout(resolve, 20)); // the heap sample is asynchronous
      await measured.invoke(TENANT, 'm', compiled.artifact, msg(2), ctx); // its reply carries the sample
    } finally {
      measured.onModuleDestroy();
    }
    // a sandbox that is gone throws, and the call counts as a block_unavailable outcome
    await expect(measured.invoke(TENANT, 'm', compiledArtifact!, msg(), ctx)).rejects.toBeInstanceOf(SandboxUnavailableError);
    const text = await registry.metrics();
    expect(text).toMatch(/sandbox_invocations_total\{outcome="block_unavailable"\} 1/);
    expect(text).toMatch(/sandbox_invocations_total\{outcome="ok"\} 1/);
    expect(text).toMatch(/sandbox_invocations_total\{outcome="script_error"\} 1/);
    expect(text).toMatch(/sandbox_invocations_total\{outcome="filtered"\} 2/);
    expect(text).toMatch(/sandbox_invocation_duration_seconds_count\{outcome="ok"\} 1/);
    expect(text).toMatch(/sandbox_isolates 1/);
    expect(text).toMatch(/sandbox_isolate_heap_used_bytes [1-9]\d+/);
  });
});

describe('ScriptSandbox.invoke: calls of one block version that arrive together', () => {
  // Calls made in the same tick reach the host in one message; the host runs a block version's calls as a batch.
  const together = (artifact: ScriptArtifact, version: string, messages: ScriptMessage[], tenantId = TENANT) =>
    Promise.all(messages.map((message) => sandbox.invoke(tenantId, version, artifact, message, { ...ctx, tenantId })));
  const numbered = (count: number, payload: (i: number) => ScriptMessage['payload'] = (i) => i) => Array.from({ length: count }, (_, i) => msg(payload(i)));

  it('runs each call once, in order, with its own result and logs', async () => {
    const artifact = await artifactOf('var n = 0; function transform(msg) { n += 1; console.log("call", msg.payload); return { values: { n: n, payload: msg.payload } }; }');
    const outcomes = await together(artifact, 'batch-order', numbered(40));
    outcomes.forEach((outcome, i) => expect(outcome).toEqual({ ok: true, result: { values: { n: i + 1, payload: i } }, logs: [`call ${i}`], logsTruncated: false }));
  });

  it('fails only the call that throws', async () => {
    const artifact = await artifactOf('function transform(msg) { if (msg.payload === 3) throw new Error("bad " + msg.payload); return { values: { ok: msg.payload } }; }');
    const outcomes = await together(artifact, 'batch-throw', numbered(8));
    expect(outcomes[3]).toMatchObject({ ok: false, error: { code: 'script_error', message: 'Error: bad 3' } });
    outcomes.forEach((outcome, i) => i !== 3 && expect(outcome).toMatchObject({ ok: true, result: { values: { ok: i } } }));
  });

  it('times out only the call that spins; the calls before and after it succeed', async () => {
    const artifact = await artifactOf('var n = 0; function transform(msg) { n += 1; if (msg.payload === 2) for (;;) {} return { values: { n: n } }; }');
    const outcomes = await together(artifact, 'batch-spin', numbered(6));
    expect(outcomes.map(errorCode)).toEqual(['ok', 'ok', 'timeout', 'ok', 'ok', 'ok']);
    // the calls before the spinning one ran once each, in order
    expect(outcomes.slice(0, 2).map((outcome) => outcome.ok && outcome.result?.values?.n)).toEqual([1, 2]);
  });

  it('times out only the call whose promise jobs spin after it returned', async () => {
    const artifact = await artifactOf(
      'function transform(msg) { if (msg.payload === 2) { const spin = () => Promise.resolve().then(spin); spin(); } return { values: { ok: msg.payload } }; }',
    );
    const outcomes = await together(artifact, 'batch-jobs', numbered(5));
    expect(outcomes.map(errorCode)).toEqual(['ok', 'ok', 'timeout', 'ok', 'ok']);
  });

  it('gives every call its own time: slow calls that fit alone all succeed in a batch they do not fit together', async () => {
    const artifact = await artifactOf('function transform(msg) { const end = Date.now() + 20; while (Date.now() < end); return { values: { ok: msg.payload } }; }');
    const outcomes = await together(artifact, 'batch-slow', numbered(6));
    outcomes.forEach((outcome, i) => expect(outcome).toMatchObject({ ok: true, result: { values: { ok: i } } }));
  });

  it('awaits an async call before running the next one', async () => {
    const artifact = await artifactOf('var n = 0; async function transform(msg) { const mine = ++n; await null; return { values: { mine: mine, seenAfter: n } }; }');
    const outcomes = await together(artifact, 'batch-async', numbered(5));
    // each call's promise jobs ran before the next call started: nobody saw a later call's increment
    outcomes.forEach((outcome, i) => expect(outcome).toMatchObject({ ok: true, result: { values: { mine: i + 1, seenAfter: i + 1 } } }));
  });

  it('fails only the call that leaves a rejection unhandled', async () => {
    const artifact = await artifactOf('function transform(msg) { if (msg.payload === 1) Promise.reject(new Error("left")); return { values: { ok: msg.payload } }; }');
    const outcomes = await together(artifact, 'batch-rejection', numbered(4));
    expect(outcomes.map(errorCode)).toEqual(['ok', 'script_error', 'ok', 'ok']);
  });

  it('after a call that hits the memory limit, the next calls run in a fresh isolate', async () => {
    const artifact = await artifactOf(
      'var n = 0; function transform(msg) { n += 1; if (msg.payload === 1) "x".repeat(1 << 30); return { values: { n: n } }; }',
    );
    const outcomes = await together(artifact, 'batch-memory', numbered(4), OTHER_TENANT);
    expect(outcomes.map(errorCode)).toEqual(['ok', 'memory_limit', 'ok', 'ok']);
    // the isolate the memory limit was hit in is gone: its global state with it
    expect(outcomes.slice(2).map((outcome) => outcome.ok && outcome.result?.values?.n)).toEqual([1, 2]);
  });

  it('runs a codec\'s calls as a batch too', async () => {
    const artifact = await artifactOf('function decodeUplink(input) { return { data: { first: input.bytes[0], port: input.fPort } }; }');
    const messages = numbered(10, (i) => [i, 0]).map((message) => ({ ...message, input: { connectionData: { fPort: 7 }, observedAt: ctx.observedAt } }));
    const outcomes = await together(artifact, 'batch-codec', messages);
    outcomes.forEach((outcome, i) => expect(outcome).toEqual({ ok: true, result: { payload: { first: i, port: 7 } }, logs: [], logsTruncated: false }));
  });
});
