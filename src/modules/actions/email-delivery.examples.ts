/** Examples of the delivery log, dead letter, kill-switch and test-send schemas and their path parameters. */
import { CURSOR, TENANT_ID } from '../../shared/http/example-values';

const DELIVERY_ID = '0f9c3a52-8d1e-4b7a-9c1d-2e6f4a8b0c13';
const DEAD_LETTER_ID = '5d2b8e71-3c4f-4a9e-8b6d-1f0a2c3e4d57';
const TEMPLATE_ID = '7a1c9e3b-2d4f-4b8a-9e6c-0d1f2a3b4c5d';
const VERSION_ID = '9b2d0f4c-3e5a-4c9b-8f7d-1e2a3b4c5d6e';
const EXECUTION_ID = '3c4d5e6f-7a8b-4c9d-8e1f-2a3b4c5d6e7f';
const DEVICE_ID = '6e7f8a9b-0c1d-4e2f-9a3b-4c5d6e7f8a9b';
const FLOW_ID = '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d';

const delivery = {
  emailDeliveryId: DELIVERY_ID,
  tenantId: TENANT_ID,
  status: 'sent',
  suppressionReason: null,
  recipientEmail: 'facility@example.com',
  recipientUserId: null,
  recipientBindingId: '2c3d4e5f-6a7b-4c8d-9e0f-1a2b3c4d5e6f',
  emailTemplateId: TEMPLATE_ID,
  emailTemplateVersionId: VERSION_ID,
  flowId: FLOW_ID,
  flowExecutionId: EXECUTION_ID,
  nodeId: 'notify-leak',
  deviceId: DEVICE_ID,
  messageId: `<${DELIVERY_ID}@uplink.example.com>`,
  subject: 'Leak detected at Basement pump',
  attemptCount: 2,
  nextAttemptAt: null,
  deadLetterId: null,
  createdAt: '2026-03-14T09:34:16.120Z',
  sentAt: '2026-03-14T09:35:16.480Z',
};

const deadLetter = {
  deadLetterId: DEAD_LETTER_ID,
  tenantId: TENANT_ID,
  emailDeliveryId: DELIVERY_ID,
  emailTemplateId: TEMPLATE_ID,
  emailTemplateVersionId: VERSION_ID,
  flowId: FLOW_ID,
  flowExecutionId: EXECUTION_ID,
  deviceId: DEVICE_ID,
  recipientEmail: 'facility@example.com',
  subject: 'Leak detected at Basement pump',
  attempts: 1,
  lastError: { code: 'smtp_550', message: '550 5.1.1 <facility@example.com>: mailbox unavailable' },
  status: 'open',
  firstAttemptAt: '2026-03-14T09:34:16.200Z',
  lastAttemptAt: '2026-03-14T09:34:16.200Z',
  createdAt: '2026-03-14T09:34:16.260Z',
  redrivenAt: null,
};

export const DELIVERY_SCHEMA_EXAMPLES = {
  EmailDeliveryResponse: delivery,
  EmailDeliveryDetailResponse: {
    ...delivery,
    attempts: [
      { at: '2026-03-14T09:34:16.200Z', error: { code: 'connection_refused', message: 'connect ECONNREFUSED 10.0.0.25:587' } },
      { at: '2026-03-14T09:35:16.400Z', smtpCode: 250, smtpReply: '250 2.0.0 Ok: queued as 4Fq2' },
    ],
    bodyText: 'Basement pump reports water (moisture 97 %).',
    bodyHtml: '<p>Basement pump reports water (moisture 97 %).</p>',
  },
  EmailDeliveryPage: { items: [delivery], nextCursor: CURSOR },
  DeadLetterResponse: deadLetter,
  DeadLetterDetailResponse: {
    ...deadLetter,
    bodyText: 'Basement pump reports water (moisture 97 %).',
    bodyHtml: '<p>Basement pump reports water (moisture 97 %).</p>',
    messageId: `<${DELIVERY_ID}@uplink.example.com>`,
  },
  DeadLetterPage: { items: [deadLetter] },
  KillSwitchResponse: {
    tenantId: TENANT_ID,
    state: 'paused',
    reason: 'Flow sends alarms in a loop; fixing the filter',
    changedAt: '2026-03-14T10:02:00.000Z',
    changedByUserId: '8f9a0b1c-2d3e-4f5a-8b6c-7d8e9f0a1b2c',
  },
  PauseActionsRequest: { reason: 'Flow sends alarms in a loop; fixing the filter' },
  TestSendRequest: { to: 'me@example.com', context: { device: { name: 'Basement pump' }, values: { moisture: 97 } } },
  TestSendResponse: { messageId: '<test-4b5c6d7e-8f9a-4b0c-9d1e-2f3a4b5c6d7e@uplink.example.com>', smtpCode: 250, smtpReply: '250 2.0.0 Ok: queued as 7Hx1' },
};

export const DELIVERY_PARAMETER_EXAMPLES = {
  emailDeliveryId: DELIVERY_ID,
  deadLetterId: DEAD_LETTER_ID,
};
