import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

export const PROBE_TIMEOUT_MS = 1000;

@Injectable()
export class DatabaseHealthIndicator {
  constructor(
    private readonly dataSource: DataSource,
    private readonly indicators: HealthIndicatorService,
  ) {}

  /** `SELECT 1` within one second. */
  async ping(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('database');
    const started = Date.now();
    try {
      await withTimeout(this.dataSource.query('SELECT 1'), PROBE_TIMEOUT_MS);
      return indicator.up({ latencyMs: Date.now() - started });
    } catch (error) {
      return indicator.down({ latencyMs: Date.now() - started, message: safeMessage(error) });
    }
  }

  /** Every migration this build knows is applied. */
  async migrations(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('migrations');
    const started = Date.now();
    try {
      const pending = await withTimeout(this.dataSource.showMigrations(), PROBE_TIMEOUT_MS);
      return pending
        ? indicator.down({ latencyMs: Date.now() - started, message: 'migrations pending' })
        : indicator.up({ latencyMs: Date.now() - started });
    } catch (error) {
      return indicator.down({ latencyMs: Date.now() - started, message: safeMessage(error) });
    }
  }
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new ProbeTimeout()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class ProbeTimeout extends Error {}

/** Probes are public: never echo driver text (it can carry host names or SQL). */
function safeMessage(error: unknown): string {
  return error instanceof ProbeTimeout ? `no answer within ${PROBE_TIMEOUT_MS} ms` : 'unreachable';
}
