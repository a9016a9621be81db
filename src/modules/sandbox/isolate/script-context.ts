import ivm from 'isolated-vm';
import { decodeEnvelope, Envelope } from '../domain/script-output';
import type { ScriptArtifact } from '../domain/sandbox-contract';
import { SANDBOX_OUTPUT_LIMITS } from '../sandbox-limits';
import { CONTEXT_BOOTSTRAP } from './context-bootstrap';

/** The file name scripts see in stack traces; gate issues take their line and column from it. */
export const SCRIPT_FILENAME = 'block.js';

type Entry = (kind: 'call' | 'collect', first: string, second?: string) => string;

/**
 * One block version's context inside its tenant's isolate: the bootstrap's entry function over the evaluated
 * source. Isolated-vm errors (timeout, disposed isolate) propagate; the caller classifies them.
 */
export class ScriptContext {
  private constructor(
    private readonly context: ivm.Context,
    private readonly entry: ivm.Reference<Entry>,
    readonly sha256: string,
  ) {}

  /** A ready context, or the failure of the script's top-level code (the decoded envelope). */
  static async create(isolate: ivm.Isolate, artifact: ScriptArtifact, timeoutMs: number): Promise<ScriptContext | Envelope> {
    const context = await isolate.createContext();
    try {
      const bootstrap = (await context.eval(CONTEXT_BOOTSTRAP, { reference: true, timeout: timeoutMs })) as ivm.Reference<
        (...args: unknown[]) => unknown
      >;
      const { maxResultBytes, maxLogLines, maxLogBytes, maxMessageChars } = SANDBOX_OUTPUT_LIMITS;
      const entry = await bootstrap.apply(
        undefined,
        [artifact.source, SCRIPT_FILENAME, artifact.scriptContract, maxResultBytes, maxLogLines, maxLogBytes, maxMessageChars],
        { timeout: timeoutMs, result: { reference: true } },
      );
      bootstrap.release();
      if (entry.typeof === 'function') return new ScriptContext(context, entry as ivm.Reference<Entry>, artifact.sha256);
      // Anything but the entry function is a failure envelope (a string: copying it runs no script code).
      const envelope = entry.typeof === 'string' ? await entry.copy() : undefined;
      entry.release();
      context.release();
      return decodeEnvelope(envelope);
    } catch (error) {
      releaseQuietly(context);
      throw error;
    }
  }

  /**
   * One call of the script (transform or codec): only strings cross. A thenable result costs a second, trivial call that reads the
   * outcome its promise jobs (already run, under the first call's timeout) left behind.
   */
  async call(msgJson: string, ctxJson: string, timeoutMs: number): Promise<Envelope> {
    const first = decodeEnvelope(await this.entry.apply(undefined, ['call', msgJson, ctxJson], { timeout: timeoutMs }));
    if (first.kind !== 'pending') return first;
    return decodeEnvelope(await this.entry.apply(undefined, ['collect', first.id], { timeout: timeoutMs }));
  }

  release(): void {
    releaseQuietly(this.entry);
    releaseQuietly(this.context);
  }
}

export function releaseQuietly(handle: { release(): void }): void {
  try {
    handle.release();
  } catch {
    // already released, or its isolate is gone: nothing left to free
  }
}
