import type { InvocationOutcome, ScriptContextData, ScriptMessage } from './domain/sandbox-contract';
import { ScriptSandbox } from './script-sandbox';

/*
 * A number that is not finite (NaN, Infinity, -Infinity) has no JSON form: it leaves the sandbox as null and is
 * never stored, and the outcome's logs say so first, naming where it was and what it was.
 */

const TENANT = '55555555-5555-4555-8555-555555555555';
const message: ScriptMessage = { payload: [1, 2], values: {}, input: { observedAt: '2026-03-01T12:00:00.000Z', connectionData: { fPort: 1 } } };
const ctx: ScriptContextData = {
  parameters: {},
  configuration: {},
  device: { deviceId: 'd-1', deviceTypeId: 't-1', metadata: {} },
  tenantId: TENANT,
  observedAt: '2026-03-01T12:00:00.000Z',
  mode: 'live',
  nodeId: 'decoder',
};

let sandbox: ScriptSandbox;
let versions = 0;

beforeAll(() => {
  sandbox = new ScriptSandbox({ timeoutMs: 1000, memoryMb: 64, maxIsolates: 10 });
});

afterAll(() => sandbox.onModuleDestroy());

async function run(source: string): Promise<InvocationOutcome> {
  const compiled = await sandbox.compile(source);
  if (!compiled.ok) throw new Error(`does not compile: ${JSON.stringify(compiled.issues)}`);
  return sandbox.invoke(TENANT, `non-finite-${++versions}`, compiled.artifact, message, ctx);
}

describe('values that are not finite numbers', () => {
  it('a transform: dropped to null, one warning per value naming its path and value, before the script\'s own logs', async () => {
    const outcome = await run(`function transform(msg) {
      console.log('decoded');
      return { values: { temperature: NaN, humidity: Infinity, battery: 3.6, label: 'null' } };
    }`);
    expect(outcome).toEqual({
      ok: true,
      result: { values: { temperature: null, humidity: null, battery: 3.6, label: 'null' } },
      logs: [
        'warning: values.temperature is NaN, not a finite number; it is not stored',
        'warning: values.humidity is Infinity, not a finite number; it is not stored',
        'decoded',
      ],
      logsTruncated: false,
    });
  });

  it('a decodeUplink codec: paths under payload, nested objects and arrays included', async () => {
    const outcome = await run(`function decodeUplink(input) {
      return { data: { level: -Infinity, probes: [{ t: 1 }, { t: 0 / 0 }] }, warnings: ['low battery'] };
    }`);
    expect(outcome).toMatchObject({ ok: true, result: { payload: { level: null, probes: [{ t: 1 }, { t: null }] } } });
    expect(outcome.logs).toEqual([
      'warning: payload.level is -Infinity, not a finite number; it is not stored',
      'warning: payload.probes[1].t is NaN, not a finite number; it is not stored',
      'warning: low battery',
    ]);
  });

  it('no warning for null itself or finite numbers', async () => {
    const outcome = await run(`function transform(msg) { return { payload: null, values: { a: null, b: 0, c: -1e308 } }; }`);
    expect(outcome).toMatchObject({ ok: true, logs: [] });
  });

  it('names the first five, then counts the rest', async () => {
    const outcome = await run(`function transform(msg) {
      var values = {};
      for (var i = 0; i < 8; i++) values['f' + i] = NaN;
      return { values: values };
    }`);
    expect(outcome.logs).toEqual([
      ...[0, 1, 2, 3, 4].map((i) => `warning: values.f${i} is NaN, not a finite number; it is not stored`),
      'warning: 3 more values are not finite numbers; they are not stored',
    ]);
  });

  it('keeps the warnings when the script filled the log: its last lines give way, marked truncated', async () => {
    const outcome = await run(`function transform(msg) {
      for (var i = 0; i < 100; i++) console.log('line ' + i);
      return { values: { x: Infinity } };
    }`);
    expect(outcome.ok).toBe(true);
    expect(outcome.logs).toHaveLength(100);
    expect(outcome.logs[0]).toBe('warning: values.x is Infinity, not a finite number; it is not stored');
    expect(outcome.logs[1]).toBe('line 0');
    expect(outcome.logsTruncated).toBe(true);
  });

  it('a value that changes when read again gets no warning but the result of the first reading', async () => {
    const outcome = await run(`function transform(msg) {
      var reads = 0;
      return { values: { get x() { if (reads++ > 0) throw new Error('read twice'); return NaN; } } };
    }`);
    expect(outcome).toEqual({ ok: true, result: { values: { x: null } }, logs: [], logsTruncated: false });
  });
});
