import { Logger, OnModuleDestroy } from '@nestjs/common';
import type {
  CompileResult,
  GateReport,
  InvocationOutcome,
  JsonObject,
  SampleInput,
  ScriptArtifact,
  ScriptContextData,
  ScriptMessage,
} from './domain/sandbox-contract';
import { codecCall } from './domain/codec-input';
import { isUsableArtifact } from './domain/sandbox-contract';
import { SandboxUnavailableError } from './domain/sandbox.errors';
import { failed } from './domain/script-output';
import { HostCrashedError, SandboxHostProcess } from './host/sandbox-host-process';
import type { SandboxLimits } from './sandbox-limits';
import type { SandboxMetrics } from './sandbox-metrics';

/** Who answers for a compile run (it parses and probes, never runs the script's statements). */
const COMPILE_BLAME_KEY = '(compile)';

/** Who answers for a gate run that takes the host down: the tenant releasing (global blocks: one key of their own). */
function gateBlameKey(tenantId: string | null): string {
  return tenantId === null ? '(gate:global)' : `(gate:${tenantId})`;
}

/**
 * The script sandbox engine, the module's whole API: compile a custom block's source (detecting its
 * ScriptContract), run the release gates, invoke a released artifact. Scripts run in isolated-vm isolates (one
 * per tenant, one context per block version) inside a child process of the service, so no script failure can
 * take the service down.
 *
 * Whatever a script does, its outcome or the limit it hit is a value. Every call throws SandboxUnavailableError
 * (503, dependency `sandbox`) only when the sandbox itself fails.
 */
export class ScriptSandbox implements OnModuleDestroy {
  private static readonly logger = new Logger('Sandbox');
  private readonly host: SandboxHostProcess;

  constructor(
    private readonly limits: SandboxLimits,
    private readonly metrics?: SandboxMetrics,
  ) {
    this.host = new SandboxHostProcess(limits, {
      stats: (stats) => {
        metrics?.isolates.set(stats.isolates);
        metrics?.heapUsed.set(stats.heapUsedBytes);
      },
      crashed: (blamed, reason) => ScriptSandbox.logger.error(`Sandbox host replaced (${reason}${blamed ? `; blamed: ${blamed}` : ''})`),
    });
  }

  /**
   * Compile gate: the source parses as a classic script and declares a top-level `function transform(msg, ctx)`,
   * or is a payload codec declaring `function decodeUplink(input)` or `function Decode(fPort, bytes, variables)`.
   * The result names the detected `scriptContract` (also in the artifact). Runs none of the script's statements.
   */
  async compile(source: string): Promise<CompileResult> {
    return (await this.call(COMPILE_BLAME_KEY, { op: 'compile', source })) as CompileResult;
  }

  /**
   * The release gates for a version of a block of `tenantId` (null: a global block): compile, then the script on
   * the sample in a throw-away isolate within the limits, returning a valid shape. `configurationSchema`
   * supplies `ctx.configuration` (a codec's `variables`) defaults the sample leaves out. A gate run that takes
   * the host down fails only this tenant's gate runs, never another tenant's.
   */
  async gate(tenantId: string | null, source: string, sampleInput: SampleInput, configurationSchema?: JsonObject): Promise<GateReport> {
    try {
      return (await this.host.request(gateBlameKey(tenantId), { op: 'gate', blameKey: gateBlameKey(tenantId), source, sampleInput, configurationSchema })) as GateReport;
    } catch (error) {
      const code = this.limitHit(error);
      if (!code) throw this.unavailable(error);
      const compiled = await this.compile(source);
      return {
        passed: false,
        gate: 'sandbox',
        issues: [{ severity: 'error', code: code.code, path: 'sourceCode', message: code.message }],
        sample: null,
        artifact: compiled.ok ? compiled.artifact : null,
        scriptContract: compiled.ok ? compiled.scriptContract : null,
      };
    }
  }

  /**
   * Runs a released artifact in the tenant's isolate, in this block version's context: `transform(msg, ctx)`,
   * or for a codec (`artifact.scriptContract`) `decodeUplink({ bytes, fPort, recvTime, variables })` /
   * `Decode(fPort, bytes, variables)` with `bytes` from `msg.payload` (a byte array, or a base64 string),
   * `fPort` from `msg.input.connectionData.fPort`, `recvTime` a Date of `msg.input.observedAt` (else
   * `ctx.observedAt`) and `variables` = `ctx.configuration`; the codec's data comes back as `result.payload`.
   * Throws only SandboxUnavailableError (counted as a `block_unavailable` outcome).
   */
  async invoke(tenantId: string, blockVersionId: string, artifact: ScriptArtifact, msg: ScriptMessage, ctx: ScriptContextData): Promise<InvocationOutcome> {
    const started = process.hrtime.bigint();
    let outcome: InvocationOutcome;
    try {
      outcome = await this.run(tenantId, blockVersionId, artifact, msg, ctx);
    } catch (error) {
      this.count('block_unavailable', started);
      throw error;
    }
    this.count(outcome.ok ? (outcome.result === null ? 'filtered' : 'ok') : outcome.error.code, started);
    return outcome;
  }

  private count(outcome: string, started: bigint): void {
    if (!this.metrics) return;
    this.metrics.invocations.inc({ outcome });
    this.metrics.duration.observe({ outcome }, Number(process.hrtime.bigint() - started) / 1e9);
  }

  private async run(tenantId: string, blockVersionId: string, artifact: ScriptArtifact, msg: ScriptMessage, ctx: ScriptContextData): Promise<InvocationOutcome> {
    // the host could not tell a malformed artifact from a lost source: refused here, never an outage
    if (!isUsableArtifact(artifact)) return failed('block_unavailable', 'The block version has no usable artifact.');
    const call =
      artifact?.scriptContract === 'decodeUplink' || artifact?.scriptContract === 'Decode'
        ? codecCall(msg, ctx)
        : { msgJson: JSON.stringify(msg), ctxJson: JSON.stringify(ctx) };
    if (typeof call === 'string') return failed('decode_error', `The codec needs payload bytes: ${call}.`);
    try {
      const request = { op: 'invoke' as const, tenantId, blockVersionId, artifact, ...call };
      return (await this.host.request(tenantId, request)) as InvocationOutcome;
    } catch (error) {
      const hit = this.limitHit(error);
      if (hit) return failed(hit.code, hit.message);
      throw this.unavailable(error);
    }
  }

  onModuleDestroy(): void {
    this.host.dispose();
  }

  private async call(tenantId: string, operation: Parameters<SandboxHostProcess['request']>[1]): Promise<unknown> {
    try {
      return await this.host.request(tenantId, operation);
    } catch (error) {
      throw this.unavailable(error);
    }
  }

  /** The limit a call that took the host down hit; null when the sandbox itself failed. */
  private limitHit(error: unknown): { code: 'timeout' | 'memory_limit'; message: string } | null {
    if (error instanceof HostCrashedError && error.code === 'memory_limit') {
      return { code: 'memory_limit', message: `The script exceeded the memory limit of ${this.limits.memoryMb} MiB.` };
    }
    if (error instanceof HostCrashedError && error.code === 'timeout') {
      return { code: 'timeout', message: `The script exceeded the time limit of ${this.limits.timeoutMs} ms.` };
    }
    return null;
  }

  private unavailable(error: unknown): SandboxUnavailableError {
    ScriptSandbox.logger.error(`Sandbox failure: ${String((error as { message?: unknown })?.message ?? error)}`);
    return new SandboxUnavailableError();
  }
}
