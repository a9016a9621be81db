import { makeCounterProvider } from '@willsoto/nestjs-prometheus';

export const INGESTION_MESSAGES_TOTAL = 'ingestion_messages_total';

/**
 * `status`: `accepted` (stored, pending), `duplicate` (a repeat within 24 h), `rejected` (stored as malformed),
 * `ignored` (a non-uplink event, not stored), `failed` (not stored: the database refused the batch).
 */
export const ingestionMetricProviders = [
  makeCounterProvider({
    name: INGESTION_MESSAGES_TOTAL,
    help: 'Ingestion requests by source and outcome',
    labelNames: ['source', 'status'],
  }),
];
