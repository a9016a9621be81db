import { makeCounterProvider, makeGaugeProvider, makeHistogramProvider } from '@willsoto/nestjs-prometheus';

export const FLOW_EXECUTIONS_TOTAL = 'flow_executions_total';
export const FLOW_EXECUTION_DURATION = 'flow_execution_duration_seconds';
export const INGESTION_PROCESSED_TOTAL = 'ingestion_processed_total';
export const INGESTION_BACKLOG = 'ingestion_backlog';
export const INGESTION_LAG = 'ingestion_lag_seconds';

/** Metrics of stored flow executions (live and replay) and of the processing pipeline. */
export const processingMetricProviders = [
  makeCounterProvider({
    name: FLOW_EXECUTIONS_TOTAL,
    help: 'Stored flow executions by mode (live, replay) and status (succeeded, failed, filtered)',
    labelNames: ['mode', 'status'],
  }),
  makeHistogramProvider({
    name: FLOW_EXECUTION_DURATION,
    help: 'Flow execution time in seconds (engine only, storage excluded), by mode and status',
    labelNames: ['mode', 'status'],
    buckets: [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1],
  }),
  makeCounterProvider({
    name: INGESTION_PROCESSED_TOTAL,
    help: 'Raw messages processed by outcome (processed, unrouted, rejected, skipped) and reason',
    labelNames: ['status', 'reason'],
  }),
  makeGaugeProvider({
    name: INGESTION_BACKLOG,
    help: 'Raw messages stored and not processed yet (pending), sampled by this replica at scrape time',
  }),
  makeGaugeProvider({
    name: INGESTION_LAG,
    help: 'Age in seconds of the oldest pending raw message (0 without a backlog), sampled at scrape time',
  }),
];
