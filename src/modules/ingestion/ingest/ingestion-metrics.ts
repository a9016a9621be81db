import { makeCounterProvider, makeGaugeProvider } from '@willsoto/nestjs-prometheus';

export const INGESTION_MESSAGES_TOTAL = 'ingestion_messages_total';
export const INGESTION_MQTT_CONNECTED = 'ingestion_mqtt_connected';

/**
 * `status`: `accepted` (stored, pending), `duplicate` (a repeat within 24 h), `rejected` (stored as malformed),
 * `ignored` (a non-uplink event, not stored), `failed` (not stored: the database refused the batch),
 * `too_large` (MQTT only: a message over 256 KiB, acknowledged and not stored).
 */
export const ingestionMetricProviders = [
  makeCounterProvider({
    name: INGESTION_MESSAGES_TOTAL,
    help: 'Ingestion requests by source and outcome',
    labelNames: ['source', 'status'],
  }),
  makeGaugeProvider({
    name: INGESTION_MQTT_CONNECTED,
    help: '1 while the MQTT ingestion source is connected to its broker, else 0 (also when MQTT is off)',
  }),
];
