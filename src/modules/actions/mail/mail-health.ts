import { Injectable, OnApplicationBootstrap, OnApplicationShutdown } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { ReportedCheck, ReportedChecks } from '../../../health/reported-checks';
import { DEAD_LETTERS_OPEN, EMAIL_DELIVERY_LAG } from './delivery-metrics';
import { MailTransport } from './mail-transport';

const VERIFY_INTERVAL_MS = 60_000;
const SAMPLE_INTERVAL_MS = 15_000;

/**
 * The `mail` readiness check and the e-mail gauges. The SMTP connection is verified (connect, TLS, login) at start
 * and once a minute; probes read the cached result, so readiness never waits on the mail server, and `mail` is
 * reported but never makes the service unready. The gauges (open dead letters, the oldest due delivery's wait) are
 * sampled every 15 s.
 */
@Injectable()
export class MailHealth implements OnApplicationBootstrap, OnApplicationShutdown {
  private state: ReportedCheck = { status: 'down', latencyMs: 0, message: 'SMTP connection not verified yet' };
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    private readonly transport: MailTransport,
    private readonly checks: ReportedChecks,
    private readonly dataSource: DataSource,
    @InjectMetric(DEAD_LETTERS_OPEN) private readonly openGauge: Gauge<string>,
    @InjectMetric(EMAIL_DELIVERY_LAG) private readonly lagGauge: Gauge<string>,
  ) {}

  onApplicationBootstrap(): void {
    this.checks.register('mail', () => this.state);
    void this.verify();
    void this.sample();
    this.every(VERIFY_INTERVAL_MS, () => void this.verify());
    this.every(SAMPLE_INTERVAL_MS, () => void this.sample());
  }

  onApplicationShutdown(): void {
    for (const timer of this.timers.splice(0)) clearInterval(timer);
  }

  /** Verifies the SMTP connection now and caches the result. */
  async verify(): Promise<ReportedCheck> {
    const started = Date.now();
    if (!this.transport.configured) {
      this.state = { status: 'down', latencyMs: 0, message: 'SMTP_URL is not set' };
      return this.state;
    }
    try {
      await this.transport.verify();
      this.state = { status: 'up', latencyMs: Date.now() - started, message: 'SMTP server reachable' };
    } catch {
      this.state = { status: 'down', latencyMs: Date.now() - started, message: 'SMTP server unreachable or refused the login' };
    }
    return this.state;
  }

  /** Reads the gauges' values now. */
  async sample(): Promise<void> {
    try {
      const [row] = await this.dataSource.query<{ open: number; lag: number | null }[]>(
        `SELECT (SELECT count(*)::int FROM dead_letters WHERE status <> 'redriven') AS open,
                (SELECT extract(epoch FROM clock_timestamp() - min(next_attempt_at))::float8
                   FROM email_deliveries WHERE status IN ('queued', 'failed') AND next_attempt_at <= clock_timestamp()) AS lag`,
      );
      this.openGauge.set(row!.open);
      this.lagGauge.set(Math.max(0, row!.lag ?? 0));
    } catch {
      // A database outage is readiness's to report; the gauges keep their last values.
    }
  }

  private every(ms: number, run: () => void): void {
    const timer = setInterval(run, ms);
    timer.unref();
    this.timers.push(timer);
  }
}
