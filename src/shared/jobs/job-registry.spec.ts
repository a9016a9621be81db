import { Injectable } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { AppConfig } from '../../config/app-config';
import { JobHandler, JobHandlerInstance } from './job';
import { JobRegistry } from './job-registry';

@Injectable()
@JobHandler({ name: 'test.defaults' })
class DefaultsJob implements JobHandlerInstance {
  async handle(): Promise<void> {}
}

@Injectable()
@JobHandler({ name: 'test.tuned', queue: 'mail', maxAttempts: 9, backoffBaseMs: 50, everyMs: 60_000 })
class TunedJob implements JobHandlerInstance {
  async handle(): Promise<void> {}
}

@Injectable()
@JobHandler({ name: 'test.no-handle' })
class NoHandleJob {}

const config = AppConfig.fromEnv({ JOBS_MAX_ATTEMPTS: '7', JOBS_BACKOFF_BASE_MS: '300' });

async function registryWith(...providers: (new (...args: never[]) => object)[]): Promise<JobRegistry> {
  const moduleRef = await Test.createTestingModule({
    imports: [DiscoveryModule],
    providers: [JobRegistry, { provide: AppConfig, useValue: config }, ...providers],
  }).compile();
  await moduleRef.init();
  return moduleRef.get(JobRegistry);
}

describe('JobRegistry', () => {
  it('finds every @JobHandler provider and fills in the configured defaults', async () => {
    const registry = await registryWith(DefaultsJob, TunedJob);
    expect(registry.get('test.defaults')).toMatchObject({
      queue: 'default',
      maxAttempts: 7,
      backoffBaseMs: 300,
      everyMs: null,
    });
    expect(registry.get('test.defaults').handler).toBeInstanceOf(DefaultsJob);
    expect(registry.get('test.tuned')).toMatchObject({ queue: 'mail', maxAttempts: 9, backoffBaseMs: 50, everyMs: 60_000 });
    expect(registry.all().map((job) => job.name).sort()).toEqual(['test.defaults', 'test.tuned']);
  });

  it('refuses a handler without a handle method', async () => {
    await expect(registryWith(NoHandleJob)).rejects.toThrow('@JobHandler test.no-handle: NoHandleJob has no handle(payload, context) method');
  });

  it('refuses a second handler for one name and names that break the pattern', async () => {
    const registry = await registryWith(DefaultsJob);
    expect(() => registry.register('test.defaults', new DefaultsJob())).toThrow('Job test.defaults has two handlers');
    expect(() => registry.register('Test Job', new DefaultsJob())).toThrow('Job name "Test Job" must match');
  });

  it('refuses an unknown name', async () => {
    const registry = await registryWith();
    expect(() => registry.get('test.missing')).toThrow('No @JobHandler is registered for job "test.missing"');
  });
});
