import ivm from 'isolated-vm';
import { decodeEnvelope, Envelope } from '../domain/script-output';
import type { ScriptArtifact } from '../domain/sandbox-contract';
import { SANDBOX_OUTPUT_LIMITS } from '../sandbox-limits';
import { CONTEXT_BOOTSTRAP } from './context-bootstrap';

/** The file name scripts see in stack traces; gate issues take their line and column from it. */
export const SCRIPT_FILENAME = 'block.js';

type Entry = (kind: 'call' | 'many' | 'progress' | 'collect' | 'ready' | 'thrown', first?: string, second?: string, third?: string) => string;

/** A batch's time ran out in the promise jobs its calls left behind: any of them may be to blame. */
export class UnattributedBatchTimeout extends Error {
  constructor() {
    super('the batch ran out of time after its calls');
  }
}

/** One call's input: msg and ctx as JSON text. */
export interface CallInput {
  msgJson: string;
  ctxJson: string;
}

/** RangeError messages of allocations that failed: the memory limit, not a bug of the script. */
const MEMORY_MESSAGES = ['Array buffer allocation failed', 'Invalid string length', 'Invalid typed array length', 'Invalid array buffer length'];
const LOCATION = new RegExp(`${SCRIPT_FILENAME.replace(/[.]/g, '\\.')}:(\\d+):(\\d+)`);

/**
 * One block version's context inside its tenant's isolate: the bootstrap's entry function over the evaluated
 * source. Isolated-vm errors (timeout, disposed isolate) propagate; the caller classifies them.
 */
export class ScriptContext {
  private constructor(
    private readonly isolate: ivm.Isolate,
    private readonly context: ivm.Context,
    private readonly entry: ivm.Reference<Entry>,
    readonly sha256: string,
  ) {}

  /**
   * A ready context, or the failure of the script's top-level code (the decoded envelope). The source runs as a
   * classic script after the bootstrap, so that a strict source defines its top-level functions as globals too.
   */
  static async create(isolate: ivm.Isolate, artifact: ScriptArtifact, timeoutMs: number): Promise<ScriptContext | Envelope> {
    const context = await isolate.createContext();
    let entry: ivm.Reference<Entry> | undefined;
    try {
      const bootstrap = (await context.eval(CONTEXT_BOOTSTRAP, { reference: true, timeout: timeoutMs })) as ivm.Reference<
        (...args: unknown[]) => unknown
      >;
      const { maxResultBytes, maxLogLines, maxLogBytes, maxMessageChars } = SANDBOX_OUTPUT_LIMITS;
      const made = await bootstrap.apply(
        undefined,
        [SCRIPT_FILENAME, artifact.scriptContract, maxResultBytes, maxLogLines, maxLogBytes, maxMessageChars],
        { timeout: timeoutMs, result: { reference: true } },
      );
      bootstrap.release();
      if (made.typeof !== 'function') {
        made.release();
        throw new Error('the context bootstrap returned no entry function');
      }
      entry = made as ivm.Reference<Entry>;
      const loaded = await runSource(isolate, context, entry, artifact.source, timeoutMs);
      // An empty answer: the entry function is there. Anything else is a failure envelope (a string: copying it runs no script code).
      if (loaded === '') return new ScriptContext(isolate, context, entry, artifact.sha256);
      entry.release();
      context.release();
      return decodeEnvelope(loaded);
    } catch (error) {
      if (entry) releaseQuietly(entry);
      releaseQuietly(context);
      throw error;
    }
  }

  /**
   * One call of the script (transform or codec): only strings cross. A thenable result costs a second, trivial call that reads the
   * outcome its promise jobs (already run, under the first call's timeout) left behind.
   */
  async call(msgJson: string, ctxJson: string, timeoutMs: number): Promise<Envelope> {
    return this.settled(decodeEnvelope(await this.entry.apply(undefined, ['call', msgJson, ctxJson], { timeout: timeoutMs })), timeoutMs);
  }

  /**
   * Several calls in one task of the isolate, the whole batch under one timeout: the envelopes of the calls it
   * ran, in order, at least one. It stops after a call that returned a thenable (collected here before the
   * batch returns, so its promise jobs ran before any later call) or hit the memory limit; the caller runs the
   * rest again. Cut short by the timeout in one of its calls, it returns the calls it finished, or throws the
   * timeout when it finished none (the first call itself used up the time); cut short after its calls, in the
   * promise jobs they left behind, it throws UnattributedBatchTimeout.
   */
  async callMany(calls: readonly CallInput[], timeoutMs: number): Promise<Envelope[]> {
    let joined = '';
    for (let i = 0; i < calls.length; i++) joined += (i === 0 ? '' : '\n') + calls[i].msgJson + '\n' + calls[i].ctxJson;
    let answer: string;
    try {
      answer = await this.entry.apply(undefined, ['many', joined], { timeout: timeoutMs });
    } catch (error) {
      if (this.isolate.isDisposed || !/timed out/i.test(messageOf(error))) throw error;
      const report = await this.entry.apply(undefined, ['progress'], { timeout: timeoutMs });
      // The time ran out in promise jobs after the calls: whose they were cannot be told.
      if (typeof report !== 'string' || report[0] !== '0') throw new UnattributedBatchTimeout();
      const finished = envelopesOf(report.slice(1), calls.length);
      if (finished.length === 0) throw error;
      return finished;
    }
    const envelopes = envelopesOf(answer, calls.length);
    if (envelopes.length === 0) return [decodeEnvelope(undefined)];
    const last = envelopes.length - 1;
    try {
      envelopes[last] = await this.settled(envelopes[last], timeoutMs);
    } catch (error) {
      // Its outcome could not be read: that call runs again (its statements a second time) at the head of the next
      // batch, where a failure is its own.
      if (last === 0) throw error;
      envelopes.pop();
    }
    return envelopes;
  }

  /** A pending envelope's outcome: a second, trivial call reads what its promise jobs left behind. */
  private async settled(envelope: Envelope, timeoutMs: number): Promise<Envelope> {
    if (envelope.kind !== 'pending') return envelope;
    return decodeEnvelope(await this.entry.apply(undefined, ['collect', envelope.id], { timeout: timeoutMs }));
  }

  release(): void {
    releaseQuietly(this.entry);
    releaseQuietly(this.context);
  }
}

/**
 * Runs the source's top-level code in `context` and asks the bootstrap for the entry function. A throw of the
 * top-level code reaches the host only as strings isolated-vm read from it (under the host process's watchdog):
 * classified here, it is reported by the bootstrap together with the logs written so far. A timeout or a disposed
 * isolate propagates to the caller, which maps it to its limit.
 */
async function runSource(isolate: ivm.Isolate, context: ivm.Context, entry: ivm.Reference<Entry>, source: string, timeoutMs: number): Promise<string> {
  let script: ivm.Script | undefined;
  try {
    script = await isolate.compileScript(source, { filename: SCRIPT_FILENAME });
    await script.run(context, { timeout: timeoutMs });
  } catch (error) {
    if (isolate.isDisposed || /timed out/i.test(messageOf(error))) throw error;
    const { code, message, where } = classifyThrown(error);
    return entry.apply(undefined, ['thrown', code, message, where], { timeout: timeoutMs });
  } finally {
    if (script) releaseQuietly(script);
  }
  return entry.apply(undefined, ['ready'], { timeout: timeoutMs });
}

/** The envelopes of a batch's answer (a JSON array of strings, at most `max`); none when it is not one. */
function envelopesOf(answer: unknown, max: number): Envelope[] {
  let list: unknown;
  try {
    list = typeof answer === 'string' ? JSON.parse(answer) : null;
  } catch {
    return [];
  }
  if (!Array.isArray(list)) return [];
  return list.slice(0, max).map((envelope) => decodeEnvelope(envelope));
}

function messageOf(error: unknown): string {
  return typeof error === 'object' && error !== null && typeof (error as { message?: unknown }).message === 'string' ? (error as { message: string }).message : '';
}

/** What the top-level code threw, as isolated-vm copied it out (an Error of this realm, or a primitive). */
function classifyThrown(error: unknown): { code: 'script_error' | 'memory_limit'; message: string; where: string } {
  if (typeof error !== 'object' || error === null) return { code: 'script_error', message: `Uncaught ${String(error)}`, where: '' };
  const { name, message, stack } = error as { name?: unknown; message?: unknown; stack?: unknown };
  const text = typeof message === 'string' ? message : '';
  const memory = name === 'RangeError' && MEMORY_MESSAGES.some((prefix) => text.startsWith(prefix));
  const location = typeof stack === 'string' ? LOCATION.exec(stack) : null;
  return {
    code: memory ? 'memory_limit' : 'script_error',
    message: typeof name === 'string' && name !== '' ? `${name}: ${text}` : text,
    where: location ? `${location[1]}:${location[2]}` : '',
  };
}

export function releaseQuietly(handle: { release(): void }): void {
  try {
    handle.release();
  } catch {
    // already released, or its isolate is gone: nothing left to free
  }
}
