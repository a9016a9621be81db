import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DatabaseHealthIndicator } from '../../../health/database.health';
import { ReportedChecks } from '../../../health/reported-checks';
import { ScriptSandbox } from '../../sandbox';
import { GetReadinessQuery } from './get-readiness.query';
import { ComponentCheck, ReadinessResponse } from '../dto/readiness.response.dto';

/** The first check may start the sandbox host process, which takes longer than a query. */
export const SANDBOX_CHECK_TIMEOUT_MS = 5000;
const PROBE_SCRIPT = 'function transform(msg) { return msg; }';

/**
 * Every dependency with its state and latency. The service is `ready` when the critical ones (database,
 * migrations) are up, the same rule as `/readyz`; the sandbox and the registered ReportedChecks (the MQTT broker
 * connection when enabled) are reported but never make it unready.
 * Messages are fixed texts, never driver or host output.
 */
@QueryHandler(GetReadinessQuery)
export class GetReadinessHandler implements IQueryHandler<GetReadinessQuery, ReadinessResponse> {
  constructor(
    private readonly database: DatabaseHealthIndicator,
    private readonly sandbox: ScriptSandbox,
    private readonly reported: ReportedChecks,
  ) {}

  async execute(): Promise<ReadinessResponse> {
    const [ping, migrations, sandbox] = await Promise.all([this.database.ping(), this.database.migrations(), this.sandboxCheck()]);
    const checks = { database: ping.database as ComponentCheck, migrations: migrations.migrations as ComponentCheck, sandbox, ...this.reported.snapshot() };
    const ready = checks.database.status === 'up' && checks.migrations.status === 'up';
    return { status: ready ? 'ready' : 'not_ready', checks };
  }

  private async sandboxCheck(): Promise<ComponentCheck> {
    const started = Date.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), SANDBOX_CHECK_TIMEOUT_MS);
    });
    try {
      const outcome = await Promise.race([this.sandbox.compile(PROBE_SCRIPT), timeout]);
      const latencyMs = Date.now() - started;
      if (outcome === 'timeout') return { status: 'down', latencyMs, message: `no answer within ${SANDBOX_CHECK_TIMEOUT_MS} ms` };
      return outcome.ok ? { status: 'up', latencyMs } : { status: 'down', latencyMs, message: 'the probe script did not compile' };
    } catch {
      return { status: 'down', latencyMs: Date.now() - started, message: 'unavailable' };
    } finally {
      clearTimeout(timer);
    }
  }
}
