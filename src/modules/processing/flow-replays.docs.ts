import { defineDocs, EXISTENCE_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_REPLAYS_DOCS = defineDocs({
  flowReplays_create: {
    summary: 'Replay a flow version over stored uplinks',
    description: lines(
      'Runs `flowVersionId` (a released version of this flow; default the active one) again over the stored uplinks of the flow’s tenant routed to devices of its device type (only `deviceIds` when given: 1..100 unique ids of such devices) with `observedAt` in `[from, to)` (at most 31 days). Messages run in (`observedAt`, `rawReceivedAt`) order in the background; the replay’s counters grow as batches commit, and a replay interrupted by a restart resumes after its last committed batch. A replay records `replay` executions and stores the values (a replayed point replaces the stored one for the same device, field and `observedAt`; the current value only if not older) and never sends e-mail.',
      '**Dry run** (`dryRun: true`): records no executions and stores nothing, only the counters. A dry run of a version other than the active one also runs the active version on each message and reports `diff`: `messagesCompared` = `identical` (same status and outputs, or both failed) + `changed` (neither failed, outputs differ) + `newlyFailing` + `newlySucceeding`; per field key the messages whose value changed and the largest absolute numeric change; and the first 20 differing messages with both outputs. It shows exactly what activating the candidate would change.',
      'Answers 202 with the `queued` replay and `Location: /v1/flows/{flowId}/replays/{replayId}`; audited as `flow_replay.created` (the start as `flow_replay.started`, by the system).',
      EXISTENCE_404 +
        ' **400** window rules at `body.to` (`range`, `max_span`); `reference_not_found` at `body.flowVersionId` (not a version of this flow) or `body.deviceIds[n]`. **409** `replay_in_progress`: the flow already has a queued or running replay (one at a time per flow); `version_not_released` (+`currentStatus`); `no_active_version` (no `flowVersionId` and no active version).',
    ),
    errors: { 409: 'replay_in_progress' },
  },
  flowReplays_list: {
    summary: 'List replays of a flow',
    description: lines(
      '**Paging** (newest-first family): newest first by (`createdAt`, id); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total; continuations repeat the `limit` (else 400 `cursor_mismatch`).',
      EXISTENCE_404,
    ),
  },
  flowReplays_get: {
    summary: 'Get a replay and its progress',
    description: lines(
      '`status` `queued` → `running` → `succeeded` or `failed` (with `error`), or `cancelled`. `totalMessages` is counted when the replay starts (final once it has finished); `processedMessages` = `succeeded` + `failed` + `filtered` grows with each committed batch, and so does a dry run’s `diff`. A replay of another flow is the replay’s 404.',
      EXISTENCE_404,
    ),
  },
  flowReplays_cancel: {
    summary: 'Cancel a replay',
    description: lines(
      '`queued` or `running` → `cancelled`: no batch commits after it; what the batches committed before stays. Audited as `flow_replay.cancelled`.',
      EXISTENCE_404 + ' **409** `invalid_state` (+`currentStatus`): the replay has finished (`succeeded`, `failed` or `cancelled`).',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'succeeded', message: 'A succeeded flow replay cannot be cancelled.' } },
  },
});
