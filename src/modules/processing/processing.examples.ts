/**
 * Examples of the execution record and replay schemas of a flow and their path parameters, attached to the flow
 * executions controller with @ApiDocs.
 */

import { CURSOR, DEVICE_ID, DEVICE_TYPE_ID, FLOW_ID, FLOW_VERSION_ID, RAW_INGESTION_MESSAGE_ID, TENANT_ID, USER_ID } from '../../shared/http/example-values';

const ACTIVE_VERSION_ID = '1ff1de77-4005-48da-a2b1-c3d4e5f6a7b8';
const EXECUTION_ID = 'f457c545-a9de-48f2-9b8c-7d6e5f4a3b21';
const REPLAY_ID = 'c0c7c76d-30bd-4c3a-9f1e-2d3c4b5a6978';

const execution = {
  flowExecutionId: EXECUTION_ID,
  flowId: FLOW_ID,
  tenantId: TENANT_ID,
  flowVersionId: FLOW_VERSION_ID,
  versionNumber: 4,
  deviceId: DEVICE_ID,
  mode: 'live',
  replayId: null,
  rawIngestionMessageId: RAW_INGESTION_MESSAGE_ID,
  rawReceivedAt: '2026-03-14T09:34:16.002Z',
  observedAt: '2026-03-14T09:34:15.775Z',
  correlationId: '3f1c9a52-8d4e-4f7b-9a61-0c2e5b7d9e14',
  status: 'succeeded',
  startedAt: '2026-03-14T09:34:16.031Z',
  durationMs: 0.412,
  error: null,
};

const failedExecution = {
  ...execution,
  flowExecutionId: '2a38a4a9-316c-49e5-a833-517c45d31070',
  rawIngestionMessageId: '8e296a06-7a5c-4b3d-9e8f-1a2b3c4d5e6f',
  rawReceivedAt: '2026-03-14T09:19:16.114Z',
  observedAt: '2026-03-14T09:19:15.902Z',
  startedAt: '2026-03-14T09:19:16.140Z',
  status: 'failed',
  durationMs: 0.198,
  error: { nodeId: 'decode', code: 'decode_error', message: 'Reading uint16be at offset 4 needs 6 bytes; the payload has 4.' },
};

const replay = {
  replayId: REPLAY_ID,
  flowId: FLOW_ID,
  tenantId: TENANT_ID,
  flowVersionId: FLOW_VERSION_ID,
  from: '2026-03-01T00:00:00.000Z',
  to: '2026-03-15T00:00:00.000Z',
  deviceIds: null,
  dryRun: true,
  status: 'succeeded',
  totalMessages: 1344,
  processedMessages: 1344,
  succeeded: 1340,
  failed: 4,
  filtered: 0,
  error: null,
  requestedBy: USER_ID,
  createdAt: '2026-03-15T08:02:11.514Z',
  startedAt: '2026-03-15T08:02:11.690Z',
  finishedAt: '2026-03-15T08:02:19.307Z',
  diff: {
    comparedWith: ACTIVE_VERSION_ID,
    messagesCompared: 1344,
    identical: 0,
    changed: 1340,
    newlyFailing: 0,
    newlySucceeding: 0,
    fields: { 'volume.total': { changed: 1340, maxAbsDelta: 111.11 } },
    examples: [
      {
        rawIngestionMessageId: RAW_INGESTION_MESSAGE_ID,
        deviceId: DEVICE_ID,
        observedAt: '2026-03-01T00:04:12.331Z',
        active: { status: 'succeeded', current: { 'volume.total': 12.345, 'battery.mv': 3700 }, timeseries: { 'volume.total': 12.345 } },
        candidate: { status: 'succeeded', current: { 'volume.total': 123.45, 'battery.mv': 3700 }, timeseries: { 'volume.total': 123.45 } },
      },
    ],
  },
};

export const PROCESSING_SCHEMA_EXAMPLES: Record<string, unknown> = {
  ExecutionPage: { items: [execution, failedExecution], nextCursor: CURSOR },
  ExecutionDetailResponse: {
    ...execution,
    input: {
      mode: 'live',
      rawPayload: { encoding: 'base64', data: 'AAHiQA50' },
      observedAt: execution.observedAt,
      rawReceivedAt: execution.rawReceivedAt,
      tenantId: TENANT_ID,
      deviceId: DEVICE_ID,
      deviceTypeId: DEVICE_TYPE_ID,
      correlationId: execution.correlationId,
      connectionData: { networkServer: 'chirpstack', deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d', devAddr: '00189440', fPort: 1, fCnt: 1287 },
      parameters: { volumeFactor: 0.001 },
    },
    current: { 'volume.total': 123.456, 'battery.mv': 3700 },
    timeseries: { 'volume.total': 123.456 },
    actions: [],
    trace: [
      { nodeId: 'decode', kind: 'block', block: { type: 'builtin', key: 'decode-binary', version: 1 }, status: 'succeeded', port: 'out', startedAtOffsetMs: 0.021, durationMs: 0.095, output: null, outputTruncated: false, logs: [], error: null },
      { nodeId: 'to-m3', kind: 'block', block: { type: 'builtin', key: 'scale', version: 1 }, status: 'succeeded', port: 'out', startedAtOffsetMs: 0.131, durationMs: 0.032, output: null, outputTruncated: false, logs: [], error: null },
      { nodeId: 'current', kind: 'current-output', block: null, status: 'succeeded', port: null, startedAtOffsetMs: 0.178, durationMs: 0.041, output: null, outputTruncated: false, logs: [], error: null },
      { nodeId: 'history', kind: 'timeseries-output', block: null, status: 'succeeded', port: null, startedAtOffsetMs: 0.236, durationMs: 0.019, output: null, outputTruncated: false, logs: [], error: null },
    ],
    emailDeliveries: [],
  },
  CreateReplayRequest: { from: '2026-03-01T00:00:00Z', to: '2026-03-15T00:00:00Z', flowVersionId: FLOW_VERSION_ID, dryRun: true },
  ReplayResponse: replay,
  ReplayPage: {
    items: [
      replay,
      {
        ...replay,
        replayId: '6512bd43-d9ca-4a6e-9b5f-0e1d2c3b4a59',
        flowVersionId: ACTIVE_VERSION_ID,
        deviceIds: [DEVICE_ID],
        dryRun: false,
        status: 'cancelled',
        totalMessages: 96,
        processedMessages: 40,
        succeeded: 40,
        failed: 0,
        createdAt: '2026-03-12T14:20:03.118Z',
        startedAt: '2026-03-12T14:20:03.301Z',
        finishedAt: '2026-03-12T14:20:04.950Z',
        diff: null,
      },
    ],
    nextCursor: CURSOR,
  },
};

export const PROCESSING_PARAMETER_EXAMPLES: Record<string, unknown> = {
  flowExecutionId: EXECUTION_ID,
  replayId: REPLAY_ID,
};
