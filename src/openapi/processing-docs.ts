/**
 * OpenAPI documentation of the execution records and replays of a flow: summaries, descriptions and examples,
 * merged into OPERATION_DOCS / SCHEMA_EXAMPLES / PARAMETER_EXAMPLES.
 */

const lines = (...parts: string[]): string => parts.join('\n\n');
const TENANT_ID = '5b0c7e2a-3f41-4d8e-9a6b-1c2d3e4f5a6b';
const USER_ID = '8f14e45f-ceea-4e7a-8b2d-6c1f0a9d3b57';
const DEVICE_TYPE_ID = '3c59dc04-8e1a-4b2f-9d6c-7e8f9a0b1c2d';
const DEVICE_ID = '9bf31c7f-f062-4f36-a9d1-2e8c4b7a5d60';
const FLOW_ID = 'b6d767d2-f8ed-4d21-8a4f-5b3c2d1e0f9a';
const FLOW_VERSION_ID = '37693cfc-7480-4f9e-9c1b-2a3d4e5f6a7b';
const ACTIVE_VERSION_ID = '1ff1de77-4005-48da-a2b1-c3d4e5f6a7b8';
const EXECUTION_ID = 'f457c545-a9de-48f2-9b8c-7d6e5f4a3b21';
const REPLAY_ID = 'c0c7c76d-30bd-4c3a-9f1e-2d3c4b5a6978';
const RAW_ID = '7d1f3a9c-5e2b-4c8d-9f6a-0b1c2d3e4f50';
const CURSOR = 'eyJ2IjoxLCJrIjpbIjIwMjYtMDMtMTRUMDk6MjY6NTMuNTg5WiIsIjliZjMxYzdmIl19.Qm9fS2lYc1VhN3JwZ0pXbFh0N2c';

const EXISTENCE_404 =
  '**404** `RESOURCE_NOT_FOUND`: the target is missing, in another tenant, or outside the caller’s scope; all three get the same answer, never a 403.';
const perm = (permission: string): string =>
  `**Access**: \`${permission}\` through a tenant-level grant (a grant on a unit is not enough); platform administrators hold every permission. A visible target without the permission is 403 \`missing_permission\`.`;
const NEWEST_FIRST = (by: string) =>
  `**Paging** (newest-first family): newest first by (\`${by}\`, id); \`limit\` 1..100 (default 25); \`items\` and \`nextCursor\` (omitted on the last page), no total. The first page fixes the upper time anchor min(\`to\`, now); continuations repeat every filter and the \`limit\` (else 400 \`query.cursor\` \`cursor_mismatch\`; an altered cursor is \`cursor_invalid\`).`;

export const PROCESSING_OPERATION_DOCS: Record<string, { summary: string; description: string }> = {
  ListFlowExecutionsController_list: {
    summary: 'List executions of a flow',
    description: lines(
      perm('flows:read'),
      'One execution is recorded per raw message run live or by a replay. Items carry no input, outputs or trace (read one execution for those). Filters, all exact: `deviceId` (a device of the flow’s device type), `status` (`succeeded`, `failed`, `filtered`), `flowVersionId` (a version of this flow), `mode` (`live`, `replay`), `replayId` (a replay of this flow), `correlationId` (the ingest request’s). An id naming nothing of this flow is 400 `reference_not_found` at its query path.',
      '**Time window** on `startedAt`: `from` and `to` (RFC 3339) are a pair, both or neither: one alone is 400 `required`, `from >= to` is `range`, a span over 31 days is `max_span`; neither means the last 24 hours; half-open `[from, to)`.',
      NEWEST_FIRST('startedAt'),
      EXISTENCE_404,
    ),
  },
  GetFlowExecutionController_get: {
    summary: 'Get an execution with its input and trace',
    description: lines(
      perm('flows:read'),
      'The execution with `input` (the envelope the flow ran on: rebuilt from the stored raw message and the parameter values the execution resolved; `rawPayload` and `connectionData` are null once the raw message is past retention), the `current` values and `timeseries` points it wrote, its e-mail `actions` and the per-node `trace`. Node outputs are kept for failed executions, and for every live execution recorded while a debug capture of the flow was active (`POST /v1/flows/{flowId}/debug-capture`); an output over 4 KiB is its first 4 KiB of JSON text with `outputTruncated: true`. An execution of another flow is the execution’s 404.',
      EXISTENCE_404,
    ),
  },
  CreateReplayController_create: {
    summary: 'Replay a flow version over stored uplinks',
    description: lines(
      perm('flows:release'),
      'Runs `flowVersionId` (a released version of this flow; default the active one) again over the stored uplinks of the flow’s tenant routed to devices of its device type (only `deviceIds` when given: 1..100 unique ids of such devices) with `observedAt` in `[from, to)` (at most 31 days). Messages run in (`observedAt`, `rawReceivedAt`) order in the background; the replay’s counters grow as batches commit, and a replay interrupted by a restart resumes after its last committed batch. A replay records `replay` executions and stores the values (a replayed point replaces the stored one for the same device, field and `observedAt`; the current value only if not older) and never sends e-mail.',
      '**Dry run** (`dryRun: true`): records no executions and stores nothing, only the counters. A dry run of a version other than the active one also runs the active version on each message and reports `diff`: `messagesCompared` = `identical` (same status and outputs, or both failed) + `changed` (neither failed, outputs differ) + `newlyFailing` + `newlySucceeding`; per field key the messages whose value changed and the largest absolute numeric change; and the first 20 differing messages with both outputs. It shows exactly what activating the candidate would change.',
      'Answers 202 with the `queued` replay and `Location: /v1/flows/{flowId}/replays/{replayId}`; audited as `flow_replay.created` (the start as `flow_replay.started`, by the system).',
      EXISTENCE_404 +
        ' **400** window rules at `body.to` (`range`, `max_span`); `reference_not_found` at `body.flowVersionId` (not a version of this flow) or `body.deviceIds[n]`. **409** `replay_in_progress`: the flow already has a queued or running replay (one at a time per flow); `version_not_released` (+`currentStatus`); `no_active_version` (no `flowVersionId` and no active version).',
    ),
  },
  ListReplaysController_list: {
    summary: 'List replays of a flow',
    description: lines(
      perm('flows:read'),
      '**Paging** (newest-first family): newest first by (`createdAt`, id); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total; continuations repeat the `limit` (else 400 `cursor_mismatch`).',
      EXISTENCE_404,
    ),
  },
  GetReplayController_get: {
    summary: 'Get a replay and its progress',
    description: lines(
      perm('flows:read'),
      '`status` `queued` → `running` → `succeeded` or `failed` (with `error`), or `cancelled`. `totalMessages` is counted when the replay starts (final once it has finished); `processedMessages` = `succeeded` + `failed` + `filtered` grows with each committed batch, and so does a dry run’s `diff`. A replay of another flow is the replay’s 404.',
      EXISTENCE_404,
    ),
  },
  CancelReplayController_cancel: {
    summary: 'Cancel a replay',
    description: lines(
      perm('flows:release'),
      '`queued` or `running` → `cancelled`: no batch commits after it; what the batches committed before stays. Audited as `flow_replay.cancelled`.',
      EXISTENCE_404 + ' **409** `invalid_state` (+`currentStatus`): the replay has finished (`succeeded`, `failed` or `cancelled`).',
    ),
  },
};

const execution = {
  flowExecutionId: EXECUTION_ID,
  flowId: FLOW_ID,
  tenantId: TENANT_ID,
  flowVersionId: FLOW_VERSION_ID,
  versionNumber: 4,
  deviceId: DEVICE_ID,
  mode: 'live',
  replayId: null,
  rawIngestionMessageId: RAW_ID,
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
        rawIngestionMessageId: RAW_ID,
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
