import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InvocationOutcome, JsonValue, ScriptArtifact, ScriptContextData, ScriptMessage } from './domain/sandbox-contract';
import { ScriptSandbox } from './script-sandbox';

/*
 * Payload codecs written for The Things Network v3 and ChirpStack v3/v4 (test/fixtures/codecs), run unchanged
 * through the engine within the default limits, their decoded output checked exactly.
 */

const TENANT = '33333333-3333-4333-8333-333333333333';
const OTHER_TENANT = '44444444-4444-4444-8444-444444444444';
/** The defaults of SANDBOX_TIMEOUT_MS and SANDBOX_MEMORY_MB. */
const DEFAULT_LIMITS = { timeoutMs: 50, memoryMb: 64, maxIsolates: 100 };
const OBSERVED_AT = '2026-03-01T12:00:00.000Z';

const codec = (name: string) => readFileSync(join(__dirname, '../../../test/fixtures/codecs', name), 'utf8');

const uplink = (payload: JsonValue, fPort: number | null, observedAt = OBSERVED_AT): ScriptMessage => ({
  payload,
  values: {},
  input: { observedAt, connectionData: fPort === null ? {} : { fPort, rssi: -97 } },
});
const ctxWith = (configuration: ScriptContextData['configuration'] = {}): ScriptContextData => ({
  parameters: {},
  configuration,
  device: { deviceId: 'd-1', deviceTypeId: 't-1', metadata: {} },
  tenantId: TENANT,
  observedAt: '2026-01-01T00:00:00.000Z',
  mode: 'live',
  nodeId: 'decoder',
});

let sandbox: ScriptSandbox;
let versions = 0;

beforeAll(() => {
  sandbox = new ScriptSandbox(DEFAULT_LIMITS);
});

afterAll(() => sandbox.onModuleDestroy());

async function artifactOf(source: string): Promise<ScriptArtifact> {
  const compiled = await sandbox.compile(source);
  if (!compiled.ok) throw new Error(`does not compile: ${JSON.stringify(compiled.issues)}`);
  return compiled.artifact;
}

/** A block version of `source`, to call several times in the same context. */
async function version(source: string, tenantId = TENANT) {
  const artifact = await artifactOf(source);
  const id = `codec-${++versions}`;
  return (message: ScriptMessage, ctx = ctxWith()): Promise<InvocationOutcome> => sandbox.invoke(tenantId, id, artifact, message, ctx);
}

const decoded = (payload: JsonValue, logs: string[] = []) => ({ ok: true, result: { payload }, logs, logsTruncated: false });
const scriptError = (message: string) => ({ ok: false, error: { code: 'script_error', message }, logs: [], logsTruncated: false });

describe('compile gate: script contracts', () => {
  it.each([
    ['a TTN v3 codec', 'ttn-environment.js', 'decodeUplink'],
    ['a TTN v2 Decoder wrapped by decodeUplink', 'ttn-legacy-wrapper.js', 'decodeUplink'],
    ['a ChirpStack v3 codec', 'chirpstack-v3-meter.js', 'Decode'],
    ['a ChirpStack v4 codec', 'chirpstack-v4-tracker.js', 'decodeUplink'],
    ['a codec over 30 KB', 'large-multisensor.js', 'decodeUplink'],
  ])('detects %s (%s) and its contract', async (_case, file, contract) => {
    const result = await sandbox.compile(codec(file));
    expect(result).toMatchObject({ ok: true, scriptContract: contract, artifact: { scriptContract: contract } });
  });

  it.each([
    ['transform beside a codec function', 'function decodeUplink(input) {}\nfunction transform(msg) { return msg; }', 'transform'],
    ['decodeUplink beside Decode (written for both ChirpStack versions)', 'function Decode(f, b) {}\nfunction decodeUplink(input) {}', 'decodeUplink'],
    ['Decode alone', 'function Decode(fPort, bytes, variables) { return {}; }', 'Decode'],
  ])('prefers the contract of %s', async (_case, source, contract) => {
    expect(await sandbox.compile(source)).toMatchObject({ ok: true, scriptContract: contract });
  });

  it.each([
    ['a bare TTN v2 Decoder', 'function Decoder(bytes, port) { return {}; }'],
    ['decodeUplink as a variable', 'var decodeUplink = function (input) { return { data: {} }; };'],
    ['decodeUplink only inside a block', '{ function decodeUplink(input) { return { data: {} }; } }'],
  ])('reports missing_transform for %s', async (_case, source) => {
    expect(await sandbox.compile(source)).toEqual({
      ok: false,
      issues: [expect.objectContaining({ code: 'missing_transform', message: expect.stringMatching(/decodeUplink\(input\).*Decode\(fPort, bytes, variables\)/) })],
    });
  });
});

describe('TTN v3 codec (fPort switch, bit fields, signed and float values, warnings, errors)', () => {
  let call: Awaited<ReturnType<typeof version>>;
  beforeAll(async () => {
    call = await version(codec('ttn-environment.js'));
  });

  it('decodes a measurement with signed, float and scaled values, warnings in the logs', async () => {
    const outcome = await call(uplink([0xfd, 0xf3, 0x5b, 0x00, 0x50, 0x7d, 0x44, 0x02, 0x64, 0x0b, 0x86], 1));
    expect(outcome).toEqual(decoded({ temperature: -5.25, humidity: 45.5, pressure: 1013.25, co2: 612, battery: 2.95 }, ['warning: battery low: 2.95 V']));
  });

  it('decodes the bit fields of a status frame, from a base64 payload', async () => {
    expect(await call(uplink('NQEEAgABLA==', 2))).toEqual(
      decoded({ door_open: true, tamper: false, button_pressed: true, mode: 'boost', firmware: '1.4.2', uptime_hours: 300 }),
    );
  });

  it('decodes the other ports', async () => {
    expect(await call(uplink([0x02, 0x58, 0x50, 0x81], 3))).toEqual(
      decoded({ interval_seconds: 600, co2_threshold: 800, led_enabled: true, buzzer_enabled: false, confirmed_uplinks: true }),
    );
    expect(await call(uplink([0x00, 0x0f, 0x08, 0x34, 0x00, 0x1e, 0xff, 0x38, 0x01], 4))).toEqual(
      decoded({ history: [{ age_minutes: 15, temperature: 21 }, { age_minutes: 30, temperature: -2 }] }, ['warning: history frame has 1 trailing bytes']),
    );
  });

  it('fails with script_error carrying the codec\'s errors', async () => {
    expect(await call(uplink([1, 2], 1))).toEqual(scriptError('decodeUplink returned errors: measurement frame too short: 2 bytes'));
    expect(await call(uplink([1, 2], 9))).toEqual(scriptError('decodeUplink returned errors: unknown fPort 9'));
    expect(await call(uplink([1, 2], null))).toEqual(scriptError('decodeUplink returned errors: unknown fPort undefined'));
  });

  it('fails with decode_error for a payload that is not bytes, before any script runs', async () => {
    for (const payload of [[1, 256], [1.5], 'not base64!', { bytes: [1] }, null] as JsonValue[]) {
      expect(await call(uplink(payload, 1))).toMatchObject({ ok: false, error: { code: 'decode_error', message: expect.stringMatching(/^The codec needs payload bytes/) } });
    }
  });
});

describe('TTN v2 Decoder(bytes, port) behind decodeUplink (undeclared globals, this, bind, plain arrays)', () => {
  it('runs in sloppy mode with `this` the global object, and keeps its globals between calls of a version', async () => {
    const call = await version(codec('ttn-legacy-wrapper.js'));
    expect(await call(uplink([1, 0, 0, 5], 10))).toEqual(decoded({ open: true, count: 5, delta: 5 }));
    expect(await call(uplink([0, 0, 0, 8], 10))).toEqual(decoded({ open: false, count: 8, delta: 3 }));
    expect(await call(uplink([0xab, 0x0c, 0xff], 11))).toEqual(decoded({ alarm: true, code: 'ab0c' }));
    // another version of the same source starts with its own globals
    const other = await version(codec('ttn-legacy-wrapper.js'));
    expect(await other(uplink([0, 0, 0, 8], 10))).toEqual(decoded({ open: false, count: 8, delta: 8 }));
  });
});

describe('ChirpStack v3 codec: Decode(fPort, bytes, variables)', () => {
  it('decodes with the configuration as variables; the return value is the payload', async () => {
    const call = await version(codec('chirpstack-v3-meter.js'));
    expect(await call(uplink([0x40, 0xe2, 0x01, 0x00, 0xfd, 0x03], 5), ctxWith({ litersPerPulse: 0.5 }))).toEqual(
      decoded({ volume_liters: 61728, temperature: -3, leak: true, reverse_flow: true }),
    );
    expect(await call(uplink([0x40, 0xe2, 0x01, 0x00, 0x15, 0x00], 5))).toEqual(decoded({ volume_liters: 123456, temperature: 21, leak: false, reverse_flow: false }));
    expect(await call(uplink([0xc1, 0x48, 0x00, 0x00], 6))).toEqual(decoded({ flow_rate: -12.5 }));
    expect(await call(uplink([0], 7))).toEqual(scriptError('Error: unknown fPort 7'));
  });
});

describe('ChirpStack v4 codec (ES2015+, input.variables, recvTime)', () => {
  it('decodes with variables and a real Date built from observedAt', async () => {
    const call = await version(codec('chirpstack-v4-tracker.js'));
    const frame = [3, 31, 55, 15, 141, 253, 21, 14, 129, 14, 31];
    expect(await call(uplink(frame, 136, '2026-03-01T12:34:56.789Z'), ctxWith({ site: 'depot-7', label: 'van 12' }))).toEqual(
      decoded(
        {
          event: 'sos',
          location: { latitude: 52.3702157, longitude: -4.8951679 },
          battery: 3.615,
          receivedAt: '2026-03-01T12:34:56.789Z',
          label: 'depot-7/van 12',
        },
        ['warning: SOS button pressed'],
      ),
    );
  });

  it('takes recvTime from ctx.observedAt when the envelope has none, and reports several errors', async () => {
    const call = await version(codec('chirpstack-v4-tracker.js'));
    const message: ScriptMessage = { payload: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], values: {}, input: { connectionData: { fPort: 136 } } };
    expect(await call(message)).toMatchObject({ ok: true, result: { payload: { event: 'heartbeat', receivedAt: '2026-01-01T00:00:00.000Z', label: 'unknown/?' } } });
    expect(await call(uplink([1, 2, 3], 136))).toEqual(scriptError('decodeUplink returned errors: frame too short; got 3 bytes, need 11'));
  });
});

describe('a codec over 30 KB', () => {
  it('compiles and decodes within the default limits', async () => {
    const source = codec('large-multisensor.js');
    expect(source.length).toBeGreaterThan(30 * 1024);
    const call = await version(source);
    const records = [1, 0x10, 0x00, 0x85, 0xff, 2, 0x10, 0x21, 0x57, 3, 0x10, 0x16, 0, 0, 0x48, 0x41, 4, 0x10, 0x2a, 0x24, 0xfa, 0xff, 0xff];
    expect(await call(uplink(records, 85))).toEqual(decoded({ temperature_1: -12.3, humidity_2: 43.5, flow_1: 12.5, power_2: -1500 }));
    expect(await call(uplink([...records, 5, 0x7f, 0x01, 0x05], 86))).toEqual(
      decoded({ temperature_1: -12.3, humidity_2: 43.5, flow_1: 12.5, power_2: -1500, alarm_mask: 5 }, ['warning: unknown register 0x7f01 on channel 5']),
    );
  });
});

describe('codec isolation: prototypes and globals stay in their block version', () => {
  it('keeps a version\'s prototype changes and globals away from other versions', async () => {
    const patcher = await version(codec('prototype-patcher.js'));
    const frame = uplink([0x00, 0xd7, 0xff, 0x9c, 0x01, 0x2c], 2);
    expect(await patcher(frame)).toEqual(decoded({ probes: [21.5, -10, 30], average: 13.83, decoder: '2.1.0', calls: 1 }));
    expect(await patcher(frame)).toMatchObject({ result: { payload: { calls: 2 } } });
    const probe = `function decodeUplink() {
      return { data: [typeof Array.prototype.sum, typeof Number.prototype.toFixedNumber, typeof DECODER_VERSION, typeof callCount, typeof lastCount] };
    }`;
    const clean = ['undefined', 'undefined', 'undefined', 'undefined', 'undefined'];
    expect(await (await version(probe))(frame)).toEqual(decoded(clean));
    expect(await (await version(probe, OTHER_TENANT))(frame)).toEqual(decoded(clean));
    // the patched version still has its own
    expect(await patcher(frame)).toMatchObject({ result: { payload: { calls: 3, average: 13.83 } } });
  });
});

describe('strict codecs (\'use strict\' first): top-level declarations define the entry point, as in a classic script', () => {
  it('releases and runs a TypeScript-compiled bundle ("use strict"; then function decodeUplink)', async () => {
    const source = codec('strict-typescript-bundle.js');
    const report = await sandbox.gate(TENANT, source, { payload: [0x43, 0x00, 0xd7, 0xff, 0x9c], input: { connectionData: { fPort: 1 } } });
    expect(report).toMatchObject({ passed: true, scriptContract: 'decodeUplink', sample: { result: { payload: { type: 'temperature', channel1: 21.5, channel2: -10 } } } });
    expect(await (await version(source))(uplink([0x43, 0x01, 0x00, 0x00, 0x0a], 1))).toEqual(decoded({ type: 'temperature', channel1: 25.6, channel2: 1 }));
  });

  it('releases and runs a hand-written strict codec, which stays strict', async () => {
    const source = codec('strict-hand-written.js');
    const report = await sandbox.gate(TENANT, source, { payload: [0x01, 0x2c] });
    expect(report).toMatchObject({ passed: true, sample: { result: { payload: { level: 3, strict: true } } } });
    expect(await (await version(source))(uplink([0x00, 0x64], 1))).toEqual(decoded({ level: 1, strict: true }));
  });

  it('keeps a strict version\'s Object.prototype change in its context; a sloppy version of the same tenant runs clean beside it', async () => {
    const strict = await version(codec('strict-prototype-patcher.js'));
    const sloppy = await version('function decodeUplink(input) { counter = (typeof counter === "number" ? counter : 0) + 1; return { data: { pick: typeof ({}).pick, counter: counter, self: this === globalThis } }; }');
    const frame = uplink([7, 8], 1);
    expect(await strict(frame)).toEqual(decoded({ first: 7, calls: 1 }));
    expect(await sloppy(frame)).toEqual(decoded({ pick: 'undefined', counter: 1, self: true }));
    expect(await strict(frame)).toEqual(decoded({ first: 7, calls: 2 }));
    expect(await sloppy(frame)).toEqual(decoded({ pick: 'undefined', counter: 2, self: true }));
  });

  it('reports a strict script\'s top-level error with its line, and its logs', async () => {
    const report = await sandbox.gate(TENANT, "'use strict';\nconsole.log('loading');\nundeclared = 1;\nfunction decodeUplink() { return { data: 1 }; }", { payload: [1] });
    expect(report).toMatchObject({
      passed: false,
      gate: 'sandbox',
      issues: [{ code: 'runtime_error', message: 'ReferenceError: undeclared is not defined', line: 3, column: 12 }],
      sample: { logs: ['loading'] },
    });
  });
});

describe('codec outcomes', () => {
  it.each([
    ['data missing', 'return {};', decoded(null)],
    ['empty errors', 'return { data: { a: 1 }, errors: [] };', decoded({ a: 1 })],
    ['a string error', 'return { errors: "bad frame" };', scriptError('decodeUplink returned errors: bad frame')],
    ['warnings as one string', 'return { data: 1, warnings: "odd" };', decoded(1, ['warning: odd'])],
    ['an async codec', 'return Promise.resolve({ data: { late: true } });', decoded({ late: true })],
  ])('maps %s', async (_case, body, expected) => {
    expect(await (await version(`function decodeUplink(input) { ${body} }`))(uplink([1], 1))).toEqual(expected);
  });

  it.each([
    ['null', 'return null;', /got null/],
    ['a number', 'return 7;', /got number/],
    ['data with a __proto__ key', 'return JSON.parse(\'{"data":{"__proto__":{"x":1}}}\');', /__proto__/],
  ])('fails with invalid_output for %s', async (_case, body, message) => {
    expect(await (await version(`function decodeUplink(input) { ${body} }`))(uplink([1], 1))).toMatchObject({
      ok: false,
      error: { code: 'invalid_output', message: expect.stringMatching(message) },
    });
  });

  it('calls a codec with its input alone, whatever the rest of the uplink envelope holds', async () => {
    const call = await version('function decodeUplink(input) { return { data: [Object.keys(input), input.fPort, input.recvTime.toISOString(), input.variables] }; }');
    const message = uplink('AQID', 7);
    message.input.connectionData = { fPort: 7, rxInfo: [{ gatewayId: '0016c001f153a14c', rssi: -46 }], devAddr: '0018953a' };
    expect(await call(message, ctxWith({ scale: 2 }))).toEqual(decoded([['bytes', 'fPort', 'recvTime', 'variables'], 7, OBSERVED_AT, { scale: 2 }]));
  });

  it('passes bytes as a plain Array and fPort as a number', async () => {
    const call = await version('function decodeUplink(input) { return { data: [Array.isArray(input.bytes), Object.getPrototypeOf(input.bytes) === Array.prototype, input.fPort, input.bytes] }; }');
    expect(await call(uplink('AQID', 42))).toEqual(decoded([true, true, 42, [1, 2, 3]]));
  });
});

describe('the sandbox gate for codecs', () => {
  it('releases the migration example of docs/flows.md on its sample and decodes what the page says', async () => {
    const source = codec('readme-lht65-style.js');
    const report = await sandbox.gate(TENANT, source, { payload: 'y6QJbQI2AX//f/8=', input: { connectionData: { fPort: 2 } } });
    expect(report).toMatchObject({ passed: true, scriptContract: 'decodeUplink', sample: { result: { payload: { BatV: 2.98, TempC_SHT: 24.13, Hum_SHT: 56.6 } }, logs: [] } });
    expect(await (await version(source))(uplink([0x0b, 0xa4, 0xff, 0x38, 0x02, 0x36], 2))).toEqual(
      decoded({ BatV: 2.98, TempC_SHT: -2, Hum_SHT: 56.6 }, ['warning: battery ultra low']),
    );
    expect(await (await version(source))(uplink([0], 5))).toEqual(scriptError('decodeUplink returned errors: unknown FPort 5'));
  });

  it('passes a codec on its sample (bytes, fPort and recvTime from sampleInput, variables from schema defaults)', async () => {
    const report = await sandbox.gate(TENANT, codec('chirpstack-v4-tracker.js'), {
      payload: 'Ax83D439FQ6BDh8=',
      input: { observedAt: '2026-02-02T02:02:02.000Z', connectionData: { fPort: 136 } },
    }, { type: 'object', properties: { site: { type: 'string', default: 'hq' } } });
    expect(report).toMatchObject({
      passed: true,
      scriptContract: 'decodeUplink',
      sample: { result: { payload: { event: 'sos', receivedAt: '2026-02-02T02:02:02.000Z', label: 'hq/?' } }, logs: ['warning: SOS button pressed'] },
      artifact: { scriptContract: 'decodeUplink' },
    });
  });

  it('reports the codec\'s errors and a payload that is not bytes as runtime_error', async () => {
    const source = codec('ttn-environment.js');
    expect(await sandbox.gate(TENANT, source, { payload: [1], input: { connectionData: { fPort: 77 } } })).toMatchObject({
      passed: false,
      gate: 'sandbox',
      issues: [{ code: 'runtime_error', path: 'sourceCode', message: 'decodeUplink returned errors: unknown fPort 77' }],
    });
    expect(await sandbox.gate(TENANT, source, { payload: { not: 'bytes' } })).toMatchObject({
      passed: false,
      gate: 'sandbox',
      issues: [{ code: 'runtime_error', path: 'sampleInput.payload' }],
    });
  });
});
