import { Injectable, OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import { AppConfig } from '../../config/app-config';
import { DEFAULT_QUEUE, JOB_NAME_PATTERN, JobHandler, JobHandlerInstance, JobHandlerOptions } from './job';

export interface RegisteredJob {
  name: string;
  queue: string;
  maxAttempts: number;
  backoffBaseMs: number;
  everyMs: number | null;
  handler: JobHandlerInstance<object>;
}

/** Every `@JobHandler` provider of the application, by job name, with the defaults filled in. */
@Injectable()
export class JobRegistry implements OnModuleInit {
  private readonly jobs = new Map<string, RegisteredJob>();

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly config: AppConfig,
  ) {}

  onModuleInit(): void {
    for (const wrapper of this.discovery.getProviders({ metadataKey: JobHandler.KEY })) {
      const options = this.discovery.getMetadataByDecorator(JobHandler, wrapper);
      const instance = wrapper.instance as Partial<JobHandlerInstance<object>> | undefined;
      if (!options || !instance) continue;
      if (typeof instance.handle !== 'function') {
        throw new Error(`@JobHandler ${options.name}: ${wrapper.name} has no handle(payload, context) method`);
      }
      this.register(options.name, instance as JobHandlerInstance<object>, options);
    }
  }

  register(name: string, handler: JobHandlerInstance<object>, options: Omit<JobHandlerOptions, 'name'> = {}): void {
    if (!JOB_NAME_PATTERN.test(name)) throw new Error(`Job name ${JSON.stringify(name)} must match ${JOB_NAME_PATTERN.source}`);
    if (this.jobs.has(name)) throw new Error(`Job ${name} has two handlers`);
    this.jobs.set(name, {
      name,
      queue: options.queue ?? DEFAULT_QUEUE,
      maxAttempts: options.maxAttempts ?? this.config.jobsMaxAttempts,
      backoffBaseMs: options.backoffBaseMs ?? this.config.jobsBackoffBaseMs,
      everyMs: options.everyMs ?? null,
      handler,
    });
  }

  /** Throws for a name no handler is registered under: enqueueing it is a programming error. */
  get(name: string): RegisteredJob {
    const job = this.jobs.get(name);
    if (!job) throw new Error(`No @JobHandler is registered for job ${JSON.stringify(name)}`);
    return job;
  }

  all(): RegisteredJob[] {
    return [...this.jobs.values()];
  }
}
