import { defineDocs, lines } from '../../shared/http/route-docs';
import { FLOW_ID } from '../../shared/http/example-values';


const EXISTENCE_404 =
  '**404** `RESOURCE_NOT_FOUND` (`flow`): the flow is missing, in another tenant, or outside the caller’s scope; all three get the same answer, never a 403.';
const STATE =
  'The answer is the capture’s state: `active`, `startedAt`, `endsAt`, `maxExecutions`, `remainingExecutions` (0 once not active) and `capturedExecutions`; a flow that never had a capture answers `active: false` with nulls and zeros.';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_DEBUG_CAPTURE_DOCS = defineDocs({
  flowDebugCaptures_start: {
    summary: 'Start a debug capture of a flow’s live executions',
    description: lines(
      'Body `minutes` (integer 1..60) and `maxExecutions` (integer 1..1000). Until `minutes` have passed or `maxExecutions` live executions of the flow have been recorded, whichever comes first, each live execution’s trace keeps every node’s `output` (the message after the node, as in a preview) as failed executions always do; outside a capture a succeeded or filtered execution keeps none, to keep one row per uplink small. An output over 4 KiB of JSON is kept as the first 4 KiB of its JSON text (a string) with `outputTruncated: true`. The count is exact across workers and replicas (each batch counts its executions in its own transaction); replicas notice a new capture within about a second. Replays and previews are not affected.',
      'Starting a capture while one is active replaces it: the new limits apply from now and the counts start at 0. The capture survives restarts. Audited as `flow.debug_capture_started`.',
      STATE,
      EXISTENCE_404 + ' **400** at `body.minutes` / `body.maxExecutions`: `required`, `type` (not an integer), `minimum`, `maximum`.',
    ),
  },
  flowDebugCaptures_get: {
    summary: 'Get the state of a flow’s debug capture',
    description: lines(STATE, EXISTENCE_404),
  },
  flowDebugCaptures_end: {
    summary: 'End a flow’s debug capture',
    description: lines(
      'Ends the active capture now (`endsAt` becomes this moment); executions already captured keep their outputs. Audited as `flow.debug_capture_ended`. Without an active capture nothing changes, nothing is audited, and the answer is the same 200 with the state.',
      STATE,
      EXISTENCE_404,
    ),
  },
});

export const DEBUG_CAPTURE_SCHEMA_EXAMPLES: Record<string, unknown> = {
  StartDebugCaptureRequest: { minutes: 15, maxExecutions: 200 },
  FlowDebugCaptureResponse: {
    flowId: FLOW_ID,
    active: true,
    startedAt: '2026-03-14T10:02:11.318Z',
    endsAt: '2026-03-14T10:17:11.318Z',
    maxExecutions: 200,
    remainingExecutions: 163,
    capturedExecutions: 37,
  },
};
