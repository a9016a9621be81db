import { Global, Module } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { FinishedJobsPrune } from './finished-jobs-prune';
import { JOB_METRIC_PROVIDERS } from './job-metrics';
import { JobQueue } from './job-queue';
import { JobRegistry } from './job-registry';
import { JobWorker } from './job-worker';

/**
 * Durable background jobs on PostgreSQL. Feature modules register handlers with `@JobHandler` providers and
 * enqueue through `scope.enqueue` (inside a command) or `JobQueue.enqueue` (outside one). With JOBS_ENABLED=false
 * the replica still enqueues but runs nothing.
 */
@Global()
@Module({
  imports: [DiscoveryModule],
  providers: [JobRegistry, JobQueue, JobWorker, FinishedJobsPrune, ...JOB_METRIC_PROVIDERS],
  exports: [JobQueue, JobRegistry, JobWorker],
})
export class JobsModule {}
