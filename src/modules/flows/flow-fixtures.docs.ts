import { defineDocs, ASCENDING, EXISTENCE_404, IF_MATCH, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_FIXTURES_DOCS = defineDocs({
  flowFixtures_list: {
    summary: 'List fixtures of a flow',
    description: lines(
      ASCENDING,
      EXISTENCE_404,
    ),
  },
  flowFixtures_create: {
    summary: 'Create a fixture',
    description: lines(
      'Shape 1: `input` (complete: `mode` `fixture`, `rawPayload` {`encoding` `base64`/`hex`/`utf8`/`json`, `data` ≤ 65536 characters that decodes}, `observedAt`, `rawReceivedAt`, `tenantId` and `deviceTypeId` = the flow’s (else `mismatch`), `deviceId` (need not exist), `correlationId` 1..128, `connectionData` ≤ 16 KiB, `parameters`), `name` and `assertions` optional. Shape 2: `raw` {`rawIngestionMessageId`, `receivedAt`} with `confirmRawRetentionExtension: true` (else `must_be_true`, or `required`): a stored raw message received at exactly that instant and routed to a device of the flow’s device type in its tenant, else 400 `body.raw` `reference_not_found`; without `input` the input is derived from the message (`rawPayload`, `observedAt` (else its receipt time), `rawReceivedAt`, `deviceId`, `correlationId`, `connectionData`, `parameters` {}). The message is then pinned (kept by retention) while any fixture references it. Assertions ≤ 50 × {`path` 1..500, `expected`}. Answers 201 with `ETag: "1"` and `Location`.',
      EXISTENCE_404 + ' **409** `max_fixtures` (100 per flow).',
    ),
    errors: { 409: 'max_fixtures' },
  },
  flowFixtures_get: {
    summary: 'Get a fixture',
    description: lines(
      'With `ETag`; another flow’s fixture is the fixture’s 404.',
      EXISTENCE_404,
    ),
  },
  flowFixtures_replace: {
    summary: 'Replace a fixture',
    description: lines(
      'The whole fixture, shape 1 or 2 as on create (fixture updated: the record and a new `ETag`).',
      IF_MATCH,
      EXISTENCE_404,
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
  flowFixtures_delete: {
    summary: 'Delete a fixture',
    description: lines(
      '204.',
      IF_MATCH.replace(' Success increments `lockVersion` by 1 and returns the new `ETag`.', ''),
      EXISTENCE_404,
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
});
