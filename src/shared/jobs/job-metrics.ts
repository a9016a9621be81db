import { makeCounterProvider, makeGaugeProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';

export const JOBS_PROCESSED_TOTAL = 'jobs_processed_total';
export const JOB_DURATION = 'job_duration_seconds';
export const JOB_CLAIM_LATENCY = 'job_claim_latency_seconds';
export const JOBS_QUEUE_DEPTH = 'jobs_queue_depth';

export const JOB_METRIC_PROVIDERS = [
  makeCounterProvider({
    name: JOBS_PROCESSED_TOTAL,
    help: 'Job attempts finished, by queue, job name and outcome (completed, retried, dead, lease_expired)',
    labelNames: ['queue', 'name', 'outcome'],
  }),
  makeHistogramProvider({
    name: JOB_DURATION,
    help: 'Job handler run time in seconds, by queue, job name and outcome',
    labelNames: ['queue', 'name', 'outcome'],
    buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300],
  }),
  makeHistogramProvider({
    name: JOB_CLAIM_LATENCY,
    help: 'Seconds from a job being due (run_at) to a worker starting it, by queue',
    labelNames: ['queue'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
  }),
  makeGaugeProvider({
    name: JOBS_QUEUE_DEPTH,
    help: 'Jobs pending (due or scheduled) and running, by queue and state, as last sampled by this replica',
    labelNames: ['queue', 'state'],
  }),
];
