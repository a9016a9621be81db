import { randomUUID } from 'node:crypto';
import { Injectable, Module } from '@nestjs/common';
import { JobContext, JobHandler, JobHandlerInstance } from '../../src/shared/jobs/job';

/** One run of a probe job, as its handler saw it. */
export interface ProbeRun {
  /** The handler instance, one per application: tells two replicas apart. */
  instance: string;
  jobId: string;
  name: string;
  attempt: number;
  payload: Record<string, unknown>;
  startedAt: number;
  finishedAt: number | null;
  aborted: boolean;
}

/** Every probe run in this test process, oldest first. */
export const probeRuns: ProbeRun[] = [];

function begin(instance: string, name: string, payload: Record<string, unknown>, context: JobContext): ProbeRun {
  const run: ProbeRun = {
    instance,
    jobId: context.jobId,
    name,
    attempt: context.attempt,
    payload,
    startedAt: Date.now(),
    finishedAt: null,
    aborted: false,
  };
  probeRuns.push(run);
  return run;
}

/** Records the run; `sleepMs` makes it take that long (cut short when the worker aborts it). */
@Injectable()
@JobHandler({ name: 'probe.record' })
export class RecordProbe implements JobHandlerInstance<{ sleepMs?: number }> {
  readonly instance = randomUUID();

  async handle(payload: { sleepMs?: number }, context: JobContext): Promise<void> {
    const run = begin(this.instance, 'probe.record', payload, context);
    if (payload.sleepMs) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, payload.sleepMs);
        context.signal.addEventListener('abort', () => {
          run.aborted = true;
          clearTimeout(timer);
          resolve();
        });
      });
    }
    run.finishedAt = Date.now();
  }
}

/** Fails its first `failures` attempts (all of them when absent). */
@Injectable()
@JobHandler({ name: 'probe.fail', maxAttempts: 3, backoffBaseMs: 200 })
export class FailProbe implements JobHandlerInstance<{ failures?: number }> {
  readonly instance = randomUUID();

  async handle(payload: { failures?: number }, context: JobContext): Promise<void> {
    const run = begin(this.instance, 'probe.fail', payload, context);
    run.finishedAt = Date.now();
    if (payload.failures === undefined || context.attempt <= payload.failures) {
      throw new Error(`probe failure on attempt ${context.attempt}`);
    }
  }
}

@Module({ providers: [RecordProbe, FailProbe] })
export class JobProbeModule {}
