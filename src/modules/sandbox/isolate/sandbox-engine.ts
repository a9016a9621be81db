import { createHash } from 'node:crypto';
import type ivm from 'isolated-vm';
import type {
  CompileResult,
  GateIssue,
  GateReport,
  InvocationOutcome,
  JsonObject,
  SampleInput,
  SandboxIssueCode,
  ScriptArtifact,
  ScriptContextData,
  ScriptMessage,
} from '../domain/sandbox-contract';
import { ARTIFACT_FORMAT, isUsableArtifact, SCRIPT_CONTRACTS } from '../domain/sandbox-contract';
import { codecBytes } from '../domain/codec-input';
import { Envelope, failed } from '../domain/script-output';
import type { SandboxLimits } from '../sandbox-limits';
import { IsolatePool, PoolObserver } from './isolate-pool';
import { CallInput, SCRIPT_FILENAME, ScriptContext } from './script-context';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';
/** Blame key of compile runs: they parse and probe, never run the script's statements. */
const COMPILE_BLAME_KEY = '(compile)';

/** Thrown for failures of the engine itself (never for anything a script does). */
export class SandboxEngineError extends Error {}

/**
 * The engine proper, run inside the sandbox host process (see ../host): compiles custom block sources, runs the
 * release gates and invokes released artifacts, each tenant in its own isolated-vm isolate and each block
 * version in its own context.
 */
export class SandboxEngine {
  private readonly pool: IsolatePool;

  constructor(
    private readonly limits: SandboxLimits,
    observer: PoolObserver,
  ) {
    this.pool = new IsolatePool(limits, observer);
  }

  /**
   * Compile gate: the source parses as a classic script and declares a top-level `function transform`, or is a
   * payload codec declaring `function decodeUplink` or `function Decode` (see ScriptContract for precedence).
   */
  async compile(source: string, blameKey = COMPILE_BLAME_KEY): Promise<CompileResult> {
    const isolate = this.pool.createIsolate(blameKey);
    try {
      try {
        (await isolate.compileScript(source, { filename: SCRIPT_FILENAME })).release();
      } catch (error) {
        return { ok: false, issues: [syntaxIssue(error)] };
      }
      // Function declarations are hoisted: this reads their types before any statement of the source runs.
      const context = await isolate.createContext();
      const probe = `(function () { return [${SCRIPT_CONTRACTS.map((name) => `typeof ${name}`).join(', ')}].join();\n${source}\n})()`;
      const declared = await context.eval(probe, { timeout: this.limits.timeoutMs }).catch(() => undefined);
      context.release();
      const types = typeof declared === 'string' ? declared.split(',') : [];
      const scriptContract = SCRIPT_CONTRACTS.find((_name, index) => types[index] === 'function');
      if (!scriptContract) {
        return {
          ok: false,
          issues: [
            {
              severity: 'error',
              code: 'missing_transform',
              path: 'sourceCode',
              message:
                'The script must declare a top-level function transform(msg, ctx), or be a payload codec declaring function decodeUplink(input) or function Decode(fPort, bytes, variables).',
            },
          ],
        };
      }
      const artifact: ScriptArtifact = { format: ARTIFACT_FORMAT, source, sha256: createHash('sha256').update(source).digest('hex'), scriptContract };
      return { ok: true, artifact, scriptContract };
    } finally {
      isolate.dispose();
    }
  }

  /**
   * The release gates: compile, then the script on the sample in a throw-away isolate within the limits,
   * returning a valid shape. `configurationSchema` supplies `ctx.configuration` defaults the sample leaves out;
   * `sampleInput.input` is merged over the preview envelope (`observedAt` defaults to now). `blameKey` (one per
   * tenant) answers for a failure that takes the host down.
   */
  async gate(blameKey: string, source: string, sampleInput: SampleInput, configurationSchema?: JsonObject): Promise<GateReport> {
    const compiled = await this.compile(source, blameKey);
    if (!compiled.ok) return { passed: false, gate: 'compile', issues: compiled.issues, sample: null, artifact: null, scriptContract: null };
    const { artifact, scriptContract } = compiled;
    const given = isJsonObject(sampleInput.input) ? sampleInput.input : {};
    const observedAt = typeof given.observedAt === 'string' ? given.observedAt : new Date().toISOString();
    let payload = sampleInput.payload;
    if (scriptContract !== 'transform') {
      const bytes = codecBytes(payload);
      if (typeof bytes === 'string') {
        const issue: GateIssue = { severity: 'error', code: 'runtime_error', path: 'sampleInput.payload', message: `The codec needs payload bytes: ${bytes}.` };
        return { passed: false, gate: 'sandbox', issues: [issue], sample: null, artifact, scriptContract };
      }
      payload = bytes;
    }
    const msg: ScriptMessage = {
      payload,
      values: sampleInput.values ?? {},
      input: { mode: 'preview', tenantId: NIL_UUID, deviceId: NIL_UUID, connectionData: {}, ...given, observedAt },
    };
    const ctx: ScriptContextData = {
      parameters: sampleInput.parameters ?? {},
      configuration: sampleInput.configuration ?? defaultsOf(configurationSchema),
      device: { deviceId: NIL_UUID, deviceTypeId: NIL_UUID, metadata: {} },
      tenantId: NIL_UUID,
      observedAt,
      mode: 'preview',
      nodeId: 'gate',
    };
    const isolate = this.pool.createIsolate(blameKey);
    let run: Envelope;
    try {
      run = await this.execute(isolate, () => runOnce(isolate, artifact, JSON.stringify(msg), JSON.stringify(ctx), this.limits.timeoutMs));
    } finally {
      if (!isolate.isDisposed) isolate.dispose();
    }
    const outcome = outcomeOf(run);
    if (outcome.ok) {
      return {
        passed: true,
        gate: null,
        issues: [],
        sample: { result: outcome.result, logs: outcome.logs, logsTruncated: outcome.logsTruncated },
        artifact,
        scriptContract,
      };
    }
    const code: SandboxIssueCode = RUNTIME_ERRORS.has(outcome.error.code) ? 'runtime_error' : (outcome.error.code as SandboxIssueCode);
    const issue: GateIssue = { severity: 'error', code, path: 'sourceCode', message: outcome.error.message };
    if (run.kind === 'done' && run.line !== undefined) Object.assign(issue, { line: run.line, column: run.column });
    return {
      passed: false,
      gate: 'sandbox',
      issues: [issue],
      sample: { result: null, logs: outcome.logs, logsTruncated: outcome.logsTruncated },
      artifact,
      scriptContract,
    };
  }

  /**
   * Runs a released artifact (msg and ctx as JSON text; for a codec, msg.payload already a byte array) in the
   * tenant's isolate, in the context of this block version. After a memory_limit the tenant's isolate is
   * dropped, so its next call starts afresh. Throws SandboxEngineError only when the engine itself fails.
   */
  async invoke(tenantId: string, blockVersionId: string, artifact: ScriptArtifact, msgJson: string, ctxJson: string): Promise<InvocationOutcome> {
    if (!isUsableArtifact(artifact)) return failed('block_unavailable', 'The block version has no usable artifact.');
    const timeoutMs = this.limits.timeoutMs;
    return outcomeOf(
      await this.pool.run(tenantId, async (tenant) => {
        const envelope = await this.execute(tenant.isolate, () =>
          tenant.withContext(blockVersionId, artifact, timeoutMs, (context) => context.call(msgJson, ctxJson, timeoutMs)),
        );
        if (envelope.kind === 'done' && !envelope.outcome.ok && envelope.outcome.error.code === 'memory_limit') this.pool.discard(tenant);
        return envelope;
      }),
    );
  }

  /**
   * Runs several calls of one released artifact in the tenant's isolate, as `invoke` runs each of them, in
   * order: the outcomes in the order of `calls`. They run as batches, each one task of the isolate under one
   * timeout (a thread hand-off per batch instead of one per call); a call after which the task must end (a
   * thenable result, the memory limit) ends its batch and the next batch starts after it. A batch cut short by
   * the timeout keeps the calls it finished and runs the rest again, the call it was in at the head of the next
   * batch with the whole time to itself (that call's statements may then run twice: its context keeps whatever
   * the cut-off part changed). A batch that ends in any other failure of the isolate (a heap filled beyond the
   * limit, an unhandled rejection, the time running out in the promise jobs its calls left behind) tells nothing
   * of whose it was: its calls run again one at a time through `invoke`. Each call settles on its own: an
   * engine failure (SandboxEngineError) rejects only the call it happened in.
   */
  async invokeMany(tenantId: string, blockVersionId: string, artifact: ScriptArtifact, calls: readonly CallInput[]): Promise<PromiseSettledResult<InvocationOutcome>[]> {
    const alone = (call: CallInput) => this.invoke(tenantId, blockVersionId, artifact, call.msgJson, call.ctxJson);
    if (calls.length === 1 || !isUsableArtifact(artifact)) return Promise.allSettled(calls.map(alone));
    const timeoutMs = this.limits.timeoutMs;
    const outcomes: PromiseSettledResult<InvocationOutcome>[] = [];
    let rest = calls;
    while (rest.length > 0) {
      const batch = rest;
      const ran = await this.pool.run(tenantId, async (tenant) => {
        let envelopes: Envelope[] | Envelope;
        try {
          envelopes = await tenant.withContext(blockVersionId, artifact, timeoutMs, (context) => context.callMany(batch, timeoutMs));
        } catch (error) {
          if (tenant.isolate.isDisposed || !isTimeout(error)) return null;
          // The first call used up the batch's time by itself: its own timeout.
          envelopes = this.classify(tenant.isolate, error);
        }
        // A top-level failure of the source belongs to the first call; the next one builds the context again.
        const list = Array.isArray(envelopes) ? envelopes : [envelopes];
        const done = list.map(outcomeOf);
        if (done.some((outcome) => !outcome.ok && outcome.error.code === 'memory_limit')) this.pool.discard(tenant);
        return done;
      });
      if (ran === null) break;
      for (const value of ran) outcomes.push({ status: 'fulfilled', value });
      rest = rest.slice(ran.length);
    }
    for (const call of rest) outcomes.push(...(await Promise.allSettled([alone(call)])));
    return outcomes;
  }

  dispose(): void {
    this.pool.dispose();
  }

  /** Maps what isolated-vm throws to the limit that was hit; anything else is an engine failure. */
  private async execute(isolate: ivm.Isolate, work: () => Promise<Envelope>): Promise<Envelope> {
    try {
      return await work();
    } catch (error) {
      return this.classify(isolate, error);
    }
  }

  /** The outcome of what isolated-vm threw: the limit that was hit, or the call's own failure; throws for an engine fault. */
  private classify(isolate: ivm.Isolate, error: unknown): Envelope {
    if (isolate.isDisposed) {
      return { kind: 'done', outcome: failed('memory_limit', `The script exceeded the memory limit of ${this.limits.memoryMb} MiB.`) };
    }
    // isolated-vm's errors come from the main realm: not `instanceof` a test runner's Error.
    const message = String((error as { message?: unknown })?.message ?? error);
    if (isTimeout(error)) {
      return { kind: 'done', outcome: failed('timeout', `The script exceeded the time limit of ${this.limits.timeoutMs} ms.`) };
    }
    // Our bootstrap catches every throw of the script; what still escapes is a promise rejection the script left
    // unhandled (isolated-vm fails the call with it) or an engine fault. Both belong to this call alone.
    if (/^(Isolate is disposed|Reference has been released)/.test(message)) throw new SandboxEngineError(message);
    return { kind: 'done', outcome: failed('script_error', `Unhandled promise rejection: ${message.slice(0, 1000)}`) };
  }
}

function isTimeout(error: unknown): boolean {
  return /timed out/i.test(String((error as { message?: unknown })?.message ?? error));
}

/** Node error codes that the sandbox gate reports as `runtime_error`. */
const RUNTIME_ERRORS: ReadonlySet<string> = new Set(['script_error', 'block_unavailable', 'decode_error']);

function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function runOnce(isolate: ivm.Isolate, artifact: ScriptArtifact, msgJson: string, ctxJson: string, timeoutMs: number): Promise<Envelope> {
  const context = await ScriptContext.create(isolate, artifact, timeoutMs);
  if (!(context instanceof ScriptContext)) return context;
  try {
    return await context.call(msgJson, ctxJson, timeoutMs);
  } finally {
    context.release();
  }
}

function outcomeOf(envelope: Envelope): InvocationOutcome {
  if (envelope.kind === 'done') return envelope.outcome;
  if (envelope.kind === 'never_settled') {
    return failed('script_error', 'The script returned a promise that never settles.', envelope.logs, envelope.logsTruncated);
  }
  return failed('invalid_output', 'The sandbox returned an unfinished call.');
}

function syntaxIssue(error: unknown): GateIssue {
  const raw = String((error as { message?: unknown })?.message ?? error);
  // isolated-vm appends " [block.js:line:column]" (1-based) to the V8 message.
  const position = /\s*\[[^\]]*:(\d+):(\d+)\]$/.exec(raw);
  const message = position ? raw.slice(0, position.index) : raw;
  return {
    severity: 'error',
    code: 'syntax_error',
    path: 'sourceCode',
    message: `SyntaxError: ${message}`,
    ...(position ? { line: Number(position[1]), column: Number(position[2]) } : {}),
  };
}

/** Top-level `default`s of a configuration JSON Schema. */
function defaultsOf(schema: JsonObject | undefined): JsonObject {
  const properties = schema?.properties;
  if (typeof properties !== 'object' || properties === null || Array.isArray(properties)) return {};
  // fromEntries defines own properties: a "__proto__" property name stays data.
  return Object.fromEntries(
    Object.entries(properties).flatMap(([key, property]) =>
      typeof property === 'object' && property !== null && !Array.isArray(property) && 'default' in property ? [[key, property.default]] : [],
    ),
  ) as JsonObject;
}
