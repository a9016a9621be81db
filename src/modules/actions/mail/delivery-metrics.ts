import { makeCounterProvider, makeGaugeProvider } from '@willsoto/nestjs-prometheus';

export const EMAIL_DELIVERIES_TOTAL = 'email_deliveries_total';
export const DEAD_LETTERS_OPEN = 'dead_letters_open';
export const EMAIL_DELIVERY_LAG = 'email_delivery_lag_seconds';

/**
 * `outcome`: `sent` (accepted by the SMTP server), `retried` (a transient failure, another attempt scheduled),
 * `dead_lettered`, `suppressed` (never sent: paused, cooldown, ceiling, scope, no active version), `held` (queued
 * while the tenant's e-mail is paused).
 */
export const deliveryMetricProviders = [
  makeCounterProvider({
    name: EMAIL_DELIVERIES_TOTAL,
    help: 'E-mail deliveries by outcome (sent, retried, dead_lettered, suppressed, held)',
    labelNames: ['outcome'],
  }),
  makeGaugeProvider({
    name: DEAD_LETTERS_OPEN,
    help: 'Dead letters not redriven yet (open or redrive_pending), as last sampled by this replica',
  }),
  makeGaugeProvider({
    name: EMAIL_DELIVERY_LAG,
    help: 'Seconds the oldest due e-mail delivery (queued or waiting for its retry) has waited, as last sampled by this replica',
  }),
];
