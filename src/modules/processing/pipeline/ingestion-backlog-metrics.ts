import { Injectable, OnModuleInit } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import type { Gauge } from 'prom-client';
import { DataSource } from 'typeorm';
import { INGESTION_BACKLOG, INGESTION_LAG } from '../run/processing-metrics';

/** Samples the backlog (pending raw messages) and the age of the oldest one when /metrics is scraped. */
@Injectable()
export class IngestionBacklogMetrics implements OnModuleInit {
  constructor(
    private readonly dataSource: DataSource,
    @InjectMetric(INGESTION_BACKLOG) private readonly backlog: Gauge,
    @InjectMetric(INGESTION_LAG) private readonly lag: Gauge,
  ) {}

  onModuleInit(): void {
    // One query answers both gauges (the queue holds only the backlog; its oldest entry is the first in receipt
    // order); prom-client awaits `collect`.
    let sampling: Promise<void> | null = null;
    const sample = () =>
      (sampling ??= this.sample().finally(() => {
        sampling = null;
      }));
    Object.assign(this.backlog, { collect: sample });
    Object.assign(this.lag, { collect: sample });
  }

  private async sample(): Promise<void> {
    try {
      const [row] = await this.dataSource.query<{ pending: number; lag: number | null }[]>(
        `SELECT count(*)::int AS pending,
                extract(epoch FROM clock_timestamp() - (SELECT r.received_at FROM raw_message_queue q
                   JOIN raw_ingestion_messages r ON r.raw_ingestion_message_id = q.raw_ingestion_message_id
                  ORDER BY q.receipt_seq LIMIT 1))::float8 AS lag
           FROM raw_message_queue`,
      );
      this.backlog.set(row?.pending ?? 0);
      this.lag.set(Math.max(row?.lag ?? 0, 0));
    } catch {
      // The database is unreachable: readiness says so; the gauges keep their last values.
    }
  }
}
