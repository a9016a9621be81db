import { Logger, OnModuleDestroy } from '@nestjs/common';
import { DependencyFailureError } from '../../shared/errors/domain-error';
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
import { failed } from './domain/script-output';
import { HostCrashedError, SandboxHostProcess } from './host/sandbox-host-process';
import type { SandboxLimits } from './sandbox-limits';
import type { SandboxMetrics } from './sandbox-metrics';

/** The requester of compile and gate runs, which use throw-away isolates rather than a tenant's. */
const GATE_TENANT = '(gate)';

/**
 * The script sandbox engine (design §9.2), the module's whole API: compile a custom block's source, run the
 * release gates, invoke a released artifact. Scripts run in isolated-vm isolates (one per tenant, one context per
 * block version) inside a child process of the service, so no script failure can take the service down.
 * Outcomes of scripts are values, never exceptions; only a failure of the sandbox itself throws
 * DependencyFailureError('sandbox').
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
      crashed: (tenantId, reason) =>
        ScriptSandbox.logger.error(`Sandbox host replaced (${reason}${tenantId ? `; isolate of ${tenantId}` : ''})`),
    });
  }

  /** Compile gate: the source parses as a classic script and declares a top-level `function transform`. */
  async compile(source: string): Promise<CompileResult> {
    return (await this.call(GATE_TENANT, { op: 'compile', source })) as CompileResult;
  }

  /**
   * The release gates: compile, then `transform` on the sample in a throw-away isolate within the limits,
   * returning a valid shape. `configurationSchema` supplies `ctx.configuration` defaults the sample leaves out.
   */
  async gate(source: string, sampleInput: SampleInput, configurationSchema?: JsonObject): Promise<GateReport> {
    try {
      return (await this.host.request(GATE_TENANT, { op: 'gate', source, sampleInput, configurationSchema })) as GateReport;
    } catch (error) {
      const code = this.limitHit(error);
      const compiled = await this.compile(source);
      return {
        passed: false,
        gate: 'sandbox',
        issues: [{ severity: 'error', code: code.code, path: 'sourceCode', message: code.message }],
        sample: null,
        artifact: compiled.ok ? compiled.artifact : null,
      };
    }
  }

  /** Runs a released artifact's `transform(msg, ctx)` in the tenant's isolate, in this block version's context. */
  async invoke(tenantId: string, blockVersionId: string, artifact: ScriptArtifact, msg: ScriptMessage, ctx: ScriptContextData): Promise<InvocationOutcome> {
    const started = process.hrtime.bigint();
    let outcome: InvocationOutcome;
    try {
      const request = { op: 'invoke' as const, tenantId, blockVersionId, artifact, msgJson: JSON.stringify(msg), ctxJson: JSON.stringify(ctx) };
      outcome = (await this.host.request(tenantId, request)) as InvocationOutcome;
    } catch (error) {
      const hit = this.limitHit(error);
      outcome = failed(hit.code, hit.message);
    }
    if (this.metrics) {
      const label = { outcome: outcome.ok ? (outcome.result === null ? 'filtered' : 'ok') : outcome.error.code };
      this.metrics.invocations.inc(label);
      this.metrics.duration.observe(label, Number(process.hrtime.bigint() - started) / 1e9);
    }
    return outcome;
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

  /** The limit a call that took the host down hit; anything else is the sandbox failing. */
  private limitHit(error: unknown): { code: 'timeout' | 'memory_limit'; message: string } {
    if (error instanceof HostCrashedError && error.code === 'memory_limit') {
      return { code: 'memory_limit', message: `The script exceeded the memory limit of ${this.limits.memoryMb} MiB.` };
    }
    if (error instanceof HostCrashedError && error.code === 'timeout') {
      return { code: 'timeout', message: `The script exceeded the time limit of ${this.limits.timeoutMs} ms.` };
    }
    throw this.unavailable(error);
  }

  private unavailable(error: unknown): DependencyFailureError {
    ScriptSandbox.logger.error(`Sandbox failure: ${String((error as { message?: unknown })?.message ?? error)}`);
    return new DependencyFailureError('sandbox', 'unavailable', 'The script sandbox is unavailable. Retry later.');
  }
}
