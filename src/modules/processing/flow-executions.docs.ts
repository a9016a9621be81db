import { defineDocs, EXISTENCE_404, lines } from '../../shared/http/route-docs';

const NEWEST_FIRST = (by: string) =>
  `**Paging** (newest-first family): newest first by (\`${by}\`, id); \`limit\` 1..100 (default 25); \`items\` and \`nextCursor\` (omitted on the last page), no total. The first page fixes the upper time anchor min(\`to\`, now); continuations repeat every filter and the \`limit\` (else 400 \`query.cursor\` \`cursor_mismatch\`; an altered cursor is \`cursor_invalid\`).`;

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_EXECUTIONS_DOCS = defineDocs({
  flowExecutions_list: {
    summary: 'List executions of a flow',
    description: lines(
      'One execution is recorded per raw message run live or by a replay. Items carry no input, outputs or trace (read one execution for those). Filters, all exact: `deviceId` (a device of the flow’s device type), `status` (`succeeded`, `failed`, `filtered`), `flowVersionId` (a version of this flow), `mode` (`live`, `replay`), `replayId` (a replay of this flow), `correlationId` (the ingest request’s). An id naming nothing of this flow is 400 `reference_not_found` at its query path.',
      '**Time window** on `startedAt`: `from` and `to` (RFC 3339) are a pair, both or neither: one alone is 400 `required`, `from >= to` is `range`, a span over 31 days is `max_span`; neither means the last 24 hours; half-open `[from, to)`.',
      NEWEST_FIRST('startedAt'),
      EXISTENCE_404,
    ),
  },
  flowExecutions_get: {
    summary: 'Get an execution with its input and trace',
    description: lines(
      'The execution with `input` (the envelope the flow ran on: rebuilt from the stored raw message and the parameter values the execution resolved; `rawPayload` and `connectionData` are null once the raw message is past retention), the `current` values and `timeseries` points it wrote, its e-mail `actions` and the per-node `trace`. Node outputs are kept for failed executions, and for every live execution recorded while a debug capture of the flow was active (`POST /v1/flows/{flowId}/debug-capture`); an output over 4 KiB is its first 4 KiB of JSON text with `outputTruncated: true`. An execution of another flow is the execution’s 404.',
      EXISTENCE_404,
    ),
  },
});
