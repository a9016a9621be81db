import { Logger } from '@nestjs/common';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { InvocationOutcome, ScriptContextData, ScriptMessage } from '../src/modules/sandbox/domain/sandbox-contract';
import { ScriptSandbox } from '../src/modules/sandbox/script-sandbox';

/*
 * Attacks on the script sandbox, named by class. Each ends in the expected outcome with the host intact (no
 * polluted prototypes, no host callbacks reached, the engine still serving) while a second tenant's calls,
 * made during the attack, keep succeeding.
 */

const ATTACKER = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const VICTIM = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const TIMEOUT_MS = 100;
const LIMITS = { timeoutMs: TIMEOUT_MS, memoryMb: 16, maxIsolates: 8 };

const DECODER = `
function transform(msg, ctx) {
  const b = msg.payload;
  return { values: { temperature: ((b[0] << 8) | b[1]) / 10, humidity: b[2] / 2, battery: b[3] / 100, scaled: b[4] * ctx.configuration.scale } };
}`;
const VICTIM_OUTPUT = { values: { temperature: 21.5, humidity: 40, battery: 2.55, scaled: 14 } };

const msg = (payload: ScriptMessage['payload'] = [0, 215, 80, 255, 7]): ScriptMessage => ({ payload, values: {}, input: {} });
const ctx: ScriptContextData = {
  parameters: {},
  configuration: { scale: 2 },
  device: { deviceId: 'd', deviceTypeId: 't', metadata: {} },
  tenantId: ATTACKER,
  observedAt: '2026-01-02T03:04:05.678Z',
  mode: 'live',
  nodeId: 'n',
};

let sandbox: ScriptSandbox;
/**
 * For the cases that test another limit than the clock (output size, memory, log bounds): a CPU budget so long
 * that it cannot be the first limit reached, however slow or busy the machine.
 */
let unhurried: ScriptSandbox;
let attacks = 0;
const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown) => unhandled.push(reason);

beforeAll(() => {
  sandbox = new ScriptSandbox(LIMITS);
  unhurried = new ScriptSandbox({ ...LIMITS, timeoutMs: 10000 });
  process.on('unhandledRejection', onUnhandled);
});

afterAll(() => {
  process.off('unhandledRejection', onUnhandled);
  sandbox.onModuleDestroy();
  unhurried.onModuleDestroy();
});

/** Runs `source` as the attacker while the victim tenant keeps calling its decoder; checks both and the host. */
async function attack(source: string, engine = sandbox): Promise<InvocationOutcome> {
  const compiled = await engine.compile(source);
  if (!compiled.ok) throw new Error(`attack does not compile: ${JSON.stringify(compiled.issues)}`);
  const victimArtifact = await engine.compile(DECODER);
  if (!victimArtifact.ok) throw new Error('decoder does not compile');
  attacks += 1;
  let finished = false;
  const attackDone = engine.invoke(ATTACKER, `attack-${attacks}`, compiled.artifact, msg(), ctx).finally(() => (finished = true));
  const victimOutcomes: InvocationOutcome[] = [];
  do {
    victimOutcomes.push(await engine.invoke(VICTIM, 'decoder', victimArtifact.artifact, msg(), { ...ctx, tenantId: VICTIM }));
  } while (!finished);
  const outcome = await attackDone;
  for (const victim of victimOutcomes) expect(victim).toEqual({ ok: true, result: VICTIM_OUTPUT, logs: [], logsTruncated: false });
  expectHostIntact();
  return outcome;
}

function expectHostIntact(): void {
  expect(Object.getOwnPropertyNames(Object.prototype).sort()).toEqual(Object.getOwnPropertyNames(Object.getPrototypeOf({})).sort());
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).x).toBeUndefined();
  expect(unhandled).toEqual([]);
}

function codeOf(outcome: InvocationOutcome): string {
  return outcome.ok ? 'ok' : outcome.error.code;
}

async function expectCode(source: string, code: string, engine = sandbox): Promise<InvocationOutcome> {
  const outcome = await attack(source, engine);
  // the message rides along so that a failure shows what happened instead
  expect({ code: codeOf(outcome), message: outcome.ok ? undefined : outcome.error.message }).toMatchObject({ code });
  return outcome;
}

/** A script that reports what it could reach as `values`; `found` must be all "undefined" (nothing reached). */
function probe(body: string): string {
  return `function transform(msg, ctx) {
    const found = {};
    const tryReach = (name, get) => { try { const v = get(); found[name] = typeof v; } catch (e) { found[name] = 'undefined'; } };
    ${body}
    return { values: found };
  }`;
}

async function expectNothingReached(body: string): Promise<void> {
  const outcome = await attack(probe(body));
  expect(outcome.ok).toBe(true);
  const found = outcome.ok ? (outcome.result?.values ?? {}) : {};
  expect(Object.keys(found).length).toBeGreaterThan(0);
  for (const [name, type] of Object.entries(found)) expect({ name, type }).toEqual({ name, type: 'undefined' });
}

describe('constructor-chain access to the host', () => {
  it('this.constructor.constructor reaches only the isolate\'s Function', async () => {
    await expectNothingReached(`
      tryReach('this-process', () => this.constructor.constructor('return process')());
      tryReach('this-require', () => this.constructor.constructor('return require')());
      tryReach('msg-process', () => msg.constructor.constructor('return process')());
      tryReach('console-process', () => console.log.constructor('return process')());
      tryReach('global-require', () => this.constructor.constructor('return globalThis')().require);
      tryReach('module', () => Function('return module')());
    `);
  });

  it('arguments.callee.caller stops at the strict bootstrap (null)', async () => {
    await expectNothingReached(`
      tryReach('caller', () => { const c = arguments.callee.caller; return c === null ? undefined : c; });
      tryReach('caller-process', () => arguments.callee.caller.constructor('return process')());
      tryReach('transform-caller', () => (transform.caller === null ? undefined : transform.caller));
    `);
  });

  it('a thrown constructor chain is a script_error', async () => {
    const outcome = await expectCode("function transform() { return this.constructor.constructor('return process')().exit(1); }", 'script_error');
    expect(outcome.ok ? '' : outcome.error.message).toBe('ReferenceError: process is not defined');
  });
});

describe('stack-trace hooks (Error.prepareStackTrace, CVE-2022-36067 class)', () => {
  it('call sites expose only isolate frames', async () => {
    await expectNothingReached(`
      Error.prepareStackTrace = (error, sites) => sites;
      let sites = [];
      try { null.f(); } catch (e) { sites = e.stack; }
      sites.forEach((site, i) => {
        tryReach('this-' + i, () => site.getThis() && site.getThis().process);
        tryReach('fn-' + i, () => site.getFunction() && site.getFunction().constructor('return process')());
      });
      tryReach('captured', () => { const o = {}; Error.captureStackTrace(o); return o.stack.find((s) => s.getThis() && s.getThis().require); });
    `);
  });

  it('a hostile prepareStackTrace on the thrown error cannot break error reporting', async () => {
    const outcome = await expectCode(
      'function transform() { Error.prepareStackTrace = () => { throw new Error("hook"); }; throw new Error("real"); }',
      'script_error',
    );
    expect(outcome.ok ? '' : outcome.error.message).toBe('Error: real');
  });

  it('a looping prepareStackTrace is stopped by the timeout', async () => {
    await expectCode('function transform() { Error.prepareStackTrace = () => { for (;;) {} }; throw new Error("x"); }', 'timeout');
  });
});

describe('Proxy and Symbol tricks on values the host reads (CVE-2023-30547 / CVE-2023-32314 classes)', () => {
  it('a Proxy result is serialised inside the isolate: the host gets plain data', async () => {
    const outcome = await expectCode(
      `function transform() {
        let reads = 0;
        return new Proxy({}, {
          ownKeys: () => ['payload'],
          getOwnPropertyDescriptor: () => ({ value: 1, enumerable: true, configurable: true }),
          get: (_t, key) => (key === 'payload' ? ++reads : undefined),
        });
      }`,
      'ok',
    );
    expect(outcome).toMatchObject({ ok: true, result: { payload: 1 } });
    // plain data: an ordinary object, its own keys only
    const result = outcome.ok ? outcome.result : null;
    expect(Object.getPrototypeOf(Object.getPrototypeOf(result))).toBeNull();
    expect(Object.keys(result ?? {})).toEqual(['payload']);
  });

  it('a Proxy whose traps spin is stopped by the timeout', async () => {
    await expectCode('function transform() { return new Proxy({}, { ownKeys() { for (;;) {} } }); }', 'timeout');
  });

  it('a thrown Proxy whose traps throw is reported as script_error', async () => {
    const outcome = await expectCode('function transform() { throw new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } }); }', 'script_error');
    expect(outcome.ok ? '' : outcome.error.message).toBe('Uncaught value that cannot be described');
  });

  it('a thrown object with Symbol.toPrimitive that spins is stopped by the timeout', async () => {
    await expectCode('function transform() { throw { [Symbol.toPrimitive]() { for (;;) {} } }; }', 'timeout');
  });

  it('a rejection with a Proxy is a script_error', async () => {
    await expectCode('function transform() { return Promise.reject(new Proxy(new Error("p"), {})); }', 'script_error');
  });

  it('Symbol keys and Symbol.toStringTag on results are dropped or ignored', async () => {
    const outcome = await expectCode('function transform() { return { payload: 1, [Symbol("hidden")]: 2, [Symbol.toStringTag]: "Evil" }; }', 'ok');
    expect(outcome).toMatchObject({ ok: true, result: { payload: 1 } });
  });

  it('a console.log argument with hostile traps is stopped by the timeout', async () => {
    await expectCode('function transform() { console.log(new Proxy({}, { get() { for (;;) {} } })); return null; }', 'timeout');
  });
});

describe('Promise and async-function escapes (CVE-2023-29017 / CVE-2023-29199 classes)', () => {
  it('an unhandled rejection fails the call as script_error and never reaches the host\'s handlers', async () => {
    const outcome = await expectCode('function transform() { Promise.reject(new Error("unhandled")); return null; }', 'script_error');
    expect(outcome.ok ? '' : outcome.error.message).toBe('Unhandled promise rejection: unhandled');
    await expectCode('function transform() { (async () => { throw null; })(); return null; }', 'script_error');
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);
  });

  it('an unhandled rejection whose message getter spins wedges only the host process, which is replaced', async () => {
    await expectCode(
      'function transform() { const e = new Error("x"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); Promise.reject(e); return null; }',
      'timeout',
    );
  }, 20000);

  it('top-level code that throws a hostile value: reported as script_error, or a spinning getter wedges only the host process', async () => {
    const thrownProxy = await expectCode('throw new Proxy({}, { get() { throw new Error("trap"); }, getPrototypeOf() { throw new Error("trap"); } });\nfunction transform() { return null; }', 'script_error');
    expect(thrownProxy.ok ? '' : thrownProxy.error.message).toMatch(/^Error: /);
    await expectCode('"use strict";\nconst e = new Error("x"); Object.defineProperty(e, "message", { get() { for (;;) {} } }); throw e;\nfunction transform() { return null; }', 'timeout');
    await expectCode('Error.prepareStackTrace = () => { for (;;) {} };\nthrow new Error("x");\nfunction transform() { return null; }', 'timeout');
  }, 30000);

  it('patching Promise.prototype.then cannot hijack the result', async () => {
    const outcome = await expectCode(
      'function transform() { Promise.prototype.then = function (ok) { return ok({ payload: "hijacked" }); }; return Promise.resolve({ payload: "real" }); }',
      'ok',
    );
    expect(outcome).toMatchObject({ result: { payload: 'real' } });
  });

  it('a Promise subclass with a hostile species resolves as a plain thenable', async () => {
    const outcome = await expectCode(
      `class Evil extends Promise { static get [Symbol.species]() { return Promise; } }
       function transform() { return Evil.resolve({ payload: "species" }); }`,
      'ok',
    );
    expect(outcome).toMatchObject({ result: { payload: 'species' } });
  });

  it('a thenable that resolves to itself forever is stopped by the timeout', async () => {
    await expectCode('function transform() { const t = { then(resolve) { resolve(t); } }; return t; }', 'timeout');
  });

  it('catching and rethrowing through async frames reaches nothing', async () => {
    await expectNothingReached(`
      tryReach('catch-destructure', () => { try { null.x; } catch ({ constructor }) { return constructor.constructor('return process')(); } });
      tryReach('promise-ctor', () => Promise.resolve().constructor.constructor('return process')());
    `);
  });

  it('work left running after the return still counts against the timeout', async () => {
    await expectCode('function transform() { (async () => { await null; for (;;) {} })(); return { payload: 1 }; }', 'timeout');
  });
});

describe('getters and toJSON on returned objects', () => {
  it('a spinning getter is stopped by the timeout', async () => {
    await expectCode('function transform() { return { get payload() { for (;;) {} } }; }', 'timeout');
  });

  it('a throwing getter is invalid_output', async () => {
    await expectCode('function transform() { return { get payload() { throw new Error("getter"); } }; }', 'invalid_output');
  });

  it('toJSON runs inside the isolate and its result is what counts', async () => {
    const outcome = await expectCode('function transform() { return { toJSON() { return { values: { via: "toJSON" } }; } }; }', 'ok');
    expect(outcome).toMatchObject({ result: { values: { via: 'toJSON' } } });
  });

  it('a toJSON producing a huge string is output_too_large', async () => {
    await expectCode('function transform() { return { payload: { toJSON() { return "x".repeat(200000); } } }; }', 'output_too_large');
  });

  it('a patched Object.prototype.toJSON changes only the script\'s own output', async () => {
    const outcome = await expectCode('Object.prototype.toJSON = function () { return "patched"; };\nfunction transform() { console.log("still", "logged"); return { payload: 1 }; }', 'invalid_output');
    expect(outcome.logs).toEqual(['still logged']);
  });
});

describe('__proto__ and constructor keys in returned JSON', () => {
  it.each([
    ['values.__proto__', 'return JSON.parse(\'{"values":{"__proto__":{"polluted":true}}}\');'],
    ['a nested __proto__ in payload', 'return { payload: { a: [JSON.parse(\'{"__proto__":{"polluted":true}}\')] } };'],
    ['an escaped __proto__ key', 'return JSON.parse(\'{"values":{"\\\\u005f_proto__":{"polluted":true}}}\');'],
    ['values.constructor.prototype', 'return { values: { constructor: { prototype: { polluted: true } } } };'],
    ['values.prototype', 'return { values: { prototype: { polluted: true } } };'],
  ])('%s is invalid_output and pollutes nothing', async (_case, body) => {
    await expectCode(`function transform() { ${body} }`, 'invalid_output');
  });

  it('constructor keys inside payload are plain data', async () => {
    const outcome = await expectCode('function transform() { return { payload: { constructor: { prototype: { x: 1 } } } }; }', 'ok');
    expect(outcome).toMatchObject({ result: { payload: { constructor: { prototype: { x: 1 } } } } });
    // Copied key by key, as a later block would: `constructor` becomes an own data property, no prototype changes.
    const payload = (outcome.ok ? outcome.result?.payload : null) as Record<string, unknown>;
    const copy: Record<string, unknown> = Object.assign({}, payload);
    expect(Object.keys(copy)).toEqual(['constructor']);
    expect(Object.getOwnPropertyDescriptor(copy, 'constructor')).toMatchObject({ value: { prototype: { x: 1 } }, writable: true, enumerable: true });
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect(({} as Record<string, unknown>).constructor).toBe(Object);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
});

describe('infinite loops', () => {
  it.each([
    ['for (;;)', 'for (;;) {}'],
    ['while (true) with try/finally', 'while (true) { try { throw 1; } catch (e) {} finally { continue; } }'],
    ['recursion that catches its own stack overflow', 'const f = () => { try { f(); } catch (e) { f(); } }; f();'],
    ['a microtask loop', 'const spin = () => Promise.resolve().then(spin); spin(); return null;'],
    ['a queueMicrotask-free job loop through thenables', 'const spin = () => ({ then: (r) => r(spin()) }); return spin();'],
    ['an async loop after await', 'return (async () => { await null; for (;;) {} })();'],
    ['an await loop', 'return (async () => { for (;;) await null; })();'],
  ])('%s ends in timeout', async (_case, body) => {
    await expectCode(`function transform() { ${body} }`, 'timeout');
  });
});

describe('memory bombs', () => {
  // A timeout long enough that the memory limit, not the clock, stops every bomb.
  let patient: ScriptSandbox;
  beforeAll(() => {
    patient = new ScriptSandbox({ ...LIMITS, timeoutMs: 5000 });
  });
  afterAll(() => patient.onModuleDestroy());

  it.each([
    ['arrays', 'const keep = []; for (;;) keep.push(new Array(10000).fill(keep.length));'],
    ['a doubling string', 'let s = "x"; for (;;) s += s;'],
    ['flat strings', 'const keep = []; for (let i = 0; ; i++) keep.push(JSON.stringify(new Array(100000).fill(i)));'],
    ['one huge typed array', 'return { payload: new Uint8Array(2 ** 31).length };'],
    ['many typed arrays', 'const keep = []; for (;;) keep.push(new Float64Array(1 << 20));'],
    ['one huge string', 'return { payload: "x".repeat(2 ** 29).length };'],
    // A hash table grows by one large allocation V8 cannot fit: a hard out-of-memory that wedges the isolate's
    // thread for good. The host process is killed and replaced; the other tenant's calls are retried there.
    ['a growing dictionary object', 'const keep = {}; for (let i = 0; ; i++) keep["k" + i] = { i, s: "v" + i };'],
    ['a growing Map', 'const keep = new Map(); for (let i = 0; ; i++) keep.set(i, { i });'],
    ['a growing Set', 'const keep = new Set(); for (let i = 0; ; i++) keep.add("s" + i);'],
  ])('%s end in memory_limit', async (_case, body) => {
    await expectCode(`function transform() { ${body} }`, 'memory_limit', patient);
  }, 30000);

  it('the attacker\'s next call gets a working isolate', async () => {
    await expectCode('function transform() { return { values: { back: true } }; }', 'ok', patient);
  });
});

describe('other resource attacks', () => {
  it('deep recursion is a script_error (stack overflow)', async () => {
    // The stack limit, not the clock, must stop it however busy the machine.
    const outcome = await expectCode('function transform() { const f = (n) => f(n + 1) + 1; return f(0); }', 'script_error', unhurried);
    expect(outcome.ok ? '' : outcome.error.message).toBe('RangeError: Maximum call stack size exceeded');
  });

  it('a catastrophic regular expression is stopped by the timeout', async () => {
    await expectCode('function transform() { return { payload: /^(a+)+$/.test("a".repeat(40) + "!") }; }', 'timeout');
  });

  it('Atomics.wait is unavailable (no Atomics, no SharedArrayBuffer)', async () => {
    const outcome = await expectCode('function transform() { Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0); }', 'script_error');
    expect(outcome.ok ? '' : outcome.error.message).toBe('ReferenceError: Atomics is not defined');
  });

  it('a huge output is output_too_large', async () => {
    await expectCode('function transform() { return { values: Object.fromEntries(Array.from({ length: 20000 }, (_, i) => ["field" + i, i])) }; }', 'output_too_large', unhurried);
  }, 30000);

  it('huge logs are cut to 100 lines and 8 KiB; the call itself succeeds', async () => {
    const outcome = await expectCode('function transform() { console.log("x".repeat(1024 * 1024)); for (;;) { console.log("more"); if (Date.now() < 0) break; } }', 'timeout');
    expect(outcome.logs).toEqual([]);
    const bounded = await expectCode('function transform() { console.log("x".repeat(1024 * 1024)); for (let i = 0; i < 100000; i++) console.log("line " + i); return null; }', 'ok', unhurried);
    expect(bounded.logs).toHaveLength(1);
    expect(bounded.logs[0]).toHaveLength(8192);
    expect(bounded.logsTruncated).toBe(true);
  });
});

describe('the host event loop during an attack', () => {
  it('stays responsive while another tenant\'s script burns its full timeout', async () => {
    const artifact = await sandbox.compile('function transform() { for (;;) {} }');
    if (!artifact.ok) throw new Error('does not compile');
    const histogram = monitorEventLoopDelay({ resolution: 1 });
    histogram.enable();
    const started = Date.now();
    const outcomes = await Promise.all([1, 2, 3].map((n) => sandbox.invoke(ATTACKER, `burn-${n}`, artifact.artifact, msg(), ctx)));
    histogram.disable();
    expect(outcomes.map(codeOf)).toEqual(['timeout', 'timeout', 'timeout']);
    // the three calls ran one after the other in the attacker's isolate: about 3 × the timeout of wall time
    expect(Date.now() - started).toBeGreaterThanOrEqual(3 * TIMEOUT_MS - 10);
    // A loop blocked by a script would stall for a whole timeout per call; what stays below half of one is the
    // scheduler sharing a busy machine's cores with the sandbox process, not the script.
    expect(histogram.max / 1e6).toBeLessThan(TIMEOUT_MS / 2);
  });
});

describe('a script that makes V8 abort the host process with no message', () => {
  // V8 aborts the whole process (no exception, no catastrophic-error callback) when a string split would need
  // more elements than an array can hold; with a heap limit that lets the string itself be built.
  const ABORT = 'function transform() { var s = "x".repeat(1 << 27); s.split(""); return null; }';
  let roomy: ScriptSandbox;
  let logged: string[];
  beforeAll(() => {
    roomy = new ScriptSandbox({ ...LIMITS, timeoutMs: 2000, memoryMb: 256 });
  });
  beforeEach(() => {
    logged = [];
    jest.spyOn(Logger.prototype, 'error').mockImplementation((message: unknown) => void logged.push(String(message)));
  });
  afterEach(() => jest.restoreAllMocks());
  afterAll(() => roomy.onModuleDestroy());

  const hostDeaths = () => logged.filter((line) => line.startsWith('Sandbox host replaced')).length;

  it('alone: its call ends in memory_limit after one crash, and is not run again', async () => {
    const compiled = await roomy.compile(ABORT);
    if (!compiled.ok) throw new Error('does not compile');
    const outcome = await roomy.invoke(ATTACKER, 'abort-alone', compiled.artifact, msg(), ctx);
    expect(outcome).toMatchObject({ ok: false, error: { code: 'memory_limit' } });
    expect(hostDeaths()).toBe(1);
    expect(logged.join('\n')).toMatch(new RegExp(`only call running; blamed: ${ATTACKER}`));
  }, 30000);

  it('beside other tenants\' calls: the culprit is found and fails, the others are retried and succeed', async () => {
    const outcome = await expectCode(ABORT, 'memory_limit', roomy);
    expect(outcome.ok).toBe(false);
    // the first crash, then at most one more while the suspects run alone
    expect(hostDeaths()).toBeGreaterThanOrEqual(1);
    expect(hostDeaths()).toBeLessThanOrEqual(2);
    expect(logged.join('\n')).toMatch(new RegExp(`blamed: ${ATTACKER}`));
    expect(logged.join('\n')).not.toMatch(new RegExp(`blamed: ${VICTIM}`));
  }, 60000);

  it('with several calls of several tenants in flight: only the culprit fails', async () => {
    const attackArtifact = await roomy.compile(ABORT);
    const decoder = await roomy.compile(DECODER);
    if (!attackArtifact.ok || !decoder.ok) throw new Error('does not compile');
    const tenants = ['cccccccc-cccc-4ccc-8ccc-cccccccccccc', 'dddddddd-dddd-4ddd-8ddd-dddddddddddd', VICTIM];
    const victims = tenants.flatMap((tenant) => [1, 2].map(() => roomy.invoke(tenant, 'decoder', decoder.artifact, msg(), { ...ctx, tenantId: tenant })));
    const attacked = roomy.invoke(ATTACKER, 'abort-crowd', attackArtifact.artifact, msg(), ctx);
    const more = tenants.map((tenant) => roomy.invoke(tenant, 'decoder', decoder.artifact, msg(), { ...ctx, tenantId: tenant }));
    expect(codeOf(await attacked)).toBe('memory_limit');
    for (const outcome of await Promise.all([...victims, ...more])) expect(outcome).toEqual({ ok: true, result: VICTIM_OUTPUT, logs: [], logsTruncated: false });
    expect(await roomy.invoke(ATTACKER, 'after', decoder.artifact, msg(), ctx)).toMatchObject({ ok: true });
  }, 60000);

  it('in a release gate: only that tenant\'s gate fails; another tenant\'s concurrent gate passes', async () => {
    const slowButFine = 'function transform() { const end = Date.now() + 300; while (Date.now() < end); return { values: { fine: true } }; }';
    const [attacked, other] = await Promise.all([
      roomy.gate(ATTACKER, ABORT, { payload: null }),
      roomy.gate(VICTIM, slowButFine, { payload: null }),
    ]);
    expect(attacked).toMatchObject({ passed: false, gate: 'sandbox', issues: [{ code: 'memory_limit' }], scriptContract: 'transform' });
    expect(other).toMatchObject({ passed: true, sample: { result: { values: { fine: true } } } });
  }, 60000);
});

describe('release gates are attributed to their own tenant', () => {
  it('a gate that wedges its isolate on memory fails only its tenant\'s gate, not a concurrent one of another tenant', async () => {
    const patient = new ScriptSandbox({ ...LIMITS, timeoutMs: 5000 });
    try {
      const slowButFine = 'function transform() { const end = Date.now() + 500; while (Date.now() < end); return { values: { fine: true } }; }';
      const [attacked, other] = await Promise.all([
        patient.gate(ATTACKER, 'function transform() { const keep = new Map(); for (let i = 0; ; i++) keep.set(i, { i }); }', { payload: null }),
        patient.gate(VICTIM, slowButFine, { payload: null }),
      ]);
      expect(attacked).toMatchObject({ passed: false, gate: 'sandbox', issues: [{ code: 'memory_limit' }] });
      expect(other).toMatchObject({ passed: true, sample: { result: { values: { fine: true } } } });
    } finally {
      patient.onModuleDestroy();
    }
  }, 60000);
});

describe('after a memory_limit', () => {
  // A timeout long enough that the memory limit, not the clock, stops the hoarder.
  let patient: ScriptSandbox;
  beforeAll(() => {
    patient = new ScriptSandbox({ ...LIMITS, timeoutMs: 5000 });
  });
  afterAll(() => patient.onModuleDestroy());

  it('the tenant\'s next call gets a fresh isolate, not the one its last call filled', async () => {
    const sandbox = patient;
    const hoarder = 'var keep = [];\nfunction transform(msg) { if (msg.payload === "fill") for (;;) keep.push(new ArrayBuffer(1 << 20)); return { values: { held: keep.length } }; }';
    const compiled = await sandbox.compile(hoarder);
    const other = await sandbox.compile('function transform() { return { values: { bytes: new ArrayBuffer(8 << 20).byteLength } }; }');
    if (!compiled.ok || !other.ok) throw new Error('does not compile');
    expect(await sandbox.invoke(ATTACKER, 'hoarder', compiled.artifact, msg('fill'), ctx)).toMatchObject({ ok: false, error: { code: 'memory_limit' } });
    // the filled context is gone: the version's globals start again, and other versions can allocate
    expect(await sandbox.invoke(ATTACKER, 'hoarder', compiled.artifact, msg(), ctx)).toMatchObject({ ok: true, result: { values: { held: 0 } } });
    expect(await sandbox.invoke(ATTACKER, 'other', other.artifact, msg(), ctx)).toMatchObject({ ok: true, result: { values: { bytes: 8 << 20 } } });
  });
});

describe('single built-in calls that cannot be interrupted', () => {
  // The timeout is checked between JavaScript operations: one built-in call runs to its end (or to the memory
  // limit) first. Its damage is bounded by the memory limit: it ends as timeout or memory_limit, the host
  // stays, other tenants keep being served, and the tenant's next call works.
  it.each([
    ['Array.prototype.fill over 3e7 elements', 'new Array(3e7).fill(0); return null;'],
    ['a huge JSON.stringify', 'const a = new Array(1e6).fill("abcdefghij"); for (let i = 0; i < 5; i++) JSON.stringify(a); return null;'],
    ['a huge Array.prototype.join', 'return { payload: new Array(2e7).join("x").length };'],
    ['a huge sort', 'const a = Array.from({ length: 1e6 }, (_, i) => (i * 7919) % 1000003); a.sort((x, y) => x - y); a.sort(); return null;'],
  ])('%s ends in timeout or memory_limit', async (_case, body) => {
    const outcome = await attack(`function transform() { ${body} }`);
    expect(['timeout', 'memory_limit']).toContain(codeOf(outcome));
    await expectCode('function transform() { return { values: { back: true } }; }', 'ok');
  }, 30000);
});

describe('codec blocks are held to the same limits', () => {
  it.each([
    ['a looping codec', 'timeout', 'function decodeUplink(input) { for (;;) {} }'],
    ['a looping ChirpStack v3 codec', 'timeout', 'function Decode(fPort, bytes) { while (bytes.length) {} }'],
    ['an allocating codec', 'memory_limit', 'function decodeUplink(input) { const keep = []; for (;;) keep.push(new Array(1000000).fill(input.fPort)); }'],
    ['a codec whose warnings spin', 'timeout', 'function decodeUplink() { return { data: 1, warnings: [{ toJSON() { for (;;) {} } }] }; }'],
    ['a codec whose errors getter spins', 'timeout', 'function decodeUplink() { return { get errors() { for (;;) {} } }; }'],
    ['a codec reaching for the host', 'ok', 'function decodeUplink() { return { data: this.constructor.constructor("return typeof process")() }; }'],
  ])('%s ends in %s', async (_case, code, source) => {
    const outcome = await expectCode(source, code, code === 'memory_limit' ? unhurried : sandbox);
    if (code === 'ok') expect(outcome).toMatchObject({ result: { payload: 'undefined' } });
  }, 30000);
});
