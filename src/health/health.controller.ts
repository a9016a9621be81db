import { Controller, Res } from '@nestjs/common';
import { ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { Public } from '../shared/auth/public.decorator';
import { ShutdownState } from '../shared/lifecycle/shutdown-state';
import { DatabaseHealthIndicator } from './database.health';
import { ReportedChecks } from './reported-checks';
import { ApiDocs } from '../shared/http/route-docs';
import { HEALTH_DOCS } from './health.docs';
import { Route } from '../shared/http/routes';

type CheckResult = { status: 'up' | 'down' } & Record<string, unknown>;

export interface ReadinessBody {
  status: 'ready' | 'not_ready';
  checks: Record<string, CheckResult>;
}

/** Probes sit outside `/v1` and are public: kubelets cannot present user tokens. */
@ApiTags('probes')
@Public()
@ApiDocs(HEALTH_DOCS)
@Controller()
export class HealthController {
  constructor(
    private readonly database: DatabaseHealthIndicator,
    private readonly shutdown: ShutdownState,
    private readonly reported: ReportedChecks,
  ) {}

  /** Liveness touches no dependency: a database outage must not restart pods. */
  @Route('get', 'healthz', { operationId: 'health_liveness', description: 'The process is alive.' })
  healthz(): { status: 'ok' } {
    return { status: 'ok' };
  }

  @Route('get', 'readyz', {
    operationId: 'health_readiness',
    description: 'Ready to serve traffic.',
    extra: [ApiServiceUnavailableResponse({ description: 'Not ready; `checks` says why.' })],
  })
  async readyz(@Res({ passthrough: true }) res: Response): Promise<ReadinessBody> {
    const [database, migrations] = await Promise.all([this.database.ping(), this.database.migrations()]);
    const checks = { ...database, ...migrations } as Record<string, CheckResult>;
    if (this.shutdown.isShuttingDown) checks.shutdown = { status: 'down', message: 'shutting down' };
    const ready = Object.values(checks).every((check) => check.status === 'up');
    res.status(ready ? 200 : 503);
    // Reported only: an optional connection (the MQTT broker) being down is visible here but does not take the
    // replica out of the load balancer, which would stop the HTTP ingestion and the API as well.
    return { status: ready ? 'ready' : 'not_ready', checks: { ...checks, ...this.reported.snapshot() } };
  }
}
