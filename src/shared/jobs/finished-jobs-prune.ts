import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { JobHandler, JobHandlerInstance } from './job';

/** Completed jobs are kept for a day and dead ones for two weeks (for inspection), then deleted. */
export const COMPLETED_RETENTION_HOURS = 24;
export const DEAD_RETENTION_DAYS = 14;

@Injectable()
@JobHandler({ name: 'jobs.prune-finished', everyMs: 3_600_000 })
export class FinishedJobsPrune implements JobHandlerInstance {
  constructor(private readonly dataSource: DataSource) {}

  async handle(): Promise<void> {
    await this.dataSource.query(
      `DELETE FROM jobs
        WHERE (state = 'completed' AND finished_at < clock_timestamp() - make_interval(hours => $1))
           OR (state = 'dead' AND finished_at < clock_timestamp() - make_interval(days => $2))`,
      [COMPLETED_RETENTION_HOURS, DEAD_RETENTION_DAYS],
    );
  }
}
