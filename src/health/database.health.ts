import { Injectable } from '@nestjs/common';
import { HealthIndicatorResult, HealthIndicatorService } from '@nestjs/terminus';
import { DataSource } from 'typeorm';

export const PROBE_TIMEOUT_MS = 1000;

@Injectable()
export class DatabaseHealthIndicator {
  private migrationsComplete = false;

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

  /**
   * Every migration this build knows is applied. Once true it stays true for the life of the process (a running
   * build never un-applies its migrations), so steady-state probes cost one query, the ping.
   */
  async migrations(): Promise<HealthIndicatorResult> {
    const indicator = this.indicators.check('migrations');
    if (this.migrationsComplete) return indicator.up({ latencyMs: 0 });
    const started = Date.now();
    try {
      const pending = await withTimeout(this.pendingMigrations(), PROBE_TIMEOUT_MS);
      if (pending > 0) return indicator.down({ latencyMs: Date.now() - started, message: 'migrations pending', pending });
      this.migrationsComplete = true;
      return indicator.up({ latencyMs: Date.now() - started });
    } catch (error) {
      return indicator.down({ latencyMs: Date.now() - started, message: safeMessage(error) });
    }
  }

  private async pendingMigrations(): Promise<number> {
    const table = this.dataSource.options.migrationsTableName ?? 'migrations';
    const [{ present }] = await this.dataSource.query<{ present: boolean }[]>(
      'SELECT to_regclass($1) IS NOT NULL AS present',
      [table],
    );
    const known = this.dataSource.migrations.map((migration) => migration.name ?? migration.constructor.name);
    if (!present) return known.length;
    const rows = await this.dataSource.query<{ name: string }[]>(`SELECT name FROM "${table}"`);
    const applied = new Set(rows.map((row) => row.name));
    return known.filter((name) => !applied.has(name)).length;
  }
}

/**
 * The promise's outcome, or ProbeTimeout after `ms`. When the timer fires, answers that already arrived are read
 * first (one turn of the event loop's I/O phase): a loop kept busy by large request bodies delays the timer and
 * the database's answer alike, and the probe must not report the database down because the timer ran first.
 */
function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => setImmediate(() => reject(new ProbeTimeout())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

class ProbeTimeout extends Error {}

/** Probes are public: never echo driver text (it can carry host names or SQL). */
function safeMessage(error: unknown): string {
  return error instanceof ProbeTimeout ? `no answer within ${PROBE_TIMEOUT_MS} ms` : 'unreachable';
}
