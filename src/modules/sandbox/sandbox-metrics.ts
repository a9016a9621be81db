import { makeCounterProvider, makeGaugeProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';
import type { Counter, Gauge, Histogram } from 'prom-client';

export const SANDBOX_INVOCATIONS_TOTAL = 'sandbox_invocations_total';
export const SANDBOX_INVOCATION_DURATION = 'sandbox_invocation_duration_seconds';
export const SANDBOX_ISOLATES = 'sandbox_isolates';
export const SANDBOX_HEAP_USED = 'sandbox_isolate_heap_used_bytes';

/** The engine's metrics; absent when it runs outside Nest (benchmarks). */
export interface SandboxMetrics {
  invocations: Counter<string>;
  duration: Histogram<string>;
  isolates: Gauge<string>;
  heapUsed: Gauge<string>;
}

export const sandboxMetricProviders = [
  makeCounterProvider({
    name: SANDBOX_INVOCATIONS_TOTAL,
    help: 'Script sandbox calls by outcome (ok, filtered, or the node error code)',
    labelNames: ['outcome'],
  }),
  makeHistogramProvider({
    name: SANDBOX_INVOCATION_DURATION,
    help: 'Script sandbox call duration in seconds (queueing in the isolate included) by outcome',
    labelNames: ['outcome'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 1],
  }),
  makeGaugeProvider({ name: SANDBOX_ISOLATES, help: 'Live tenant isolates of the script sandbox' }),
  makeGaugeProvider({
    name: SANDBOX_HEAP_USED,
    help: 'Heap used by the pooled tenant isolates (last sample, at most 1 s old per isolate), bytes',
  }),
];
