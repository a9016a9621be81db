import { defineDocs, EXISTENCE_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_BLOCK_VERSIONS_DOCS = defineDocs({
  flowBlockVersions_list: {
    summary: 'List the versions of a custom block',
    description: lines(
      'A global block needs no permission: any signed-in user reads it and its versions.',
      'Newest first by `versionNumber`; filter `status` (`draft`, `released`, `deprecated`); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total. Items carry no `sourceCode`.',
      EXISTENCE_404 + ' (`flow_block`)',
    ),
  },
  flowBlockVersions_create: {
    summary: 'Create a draft version of a custom block',
    description: lines(
      'A global block is changed by platform administrators only (403 `platform_admin_required`).',
      'Body: `sourceCode` (1..102400 characters) declaring `function transform(msg, ctx)`, or a payload codec’s `function decodeUplink(input)` (The Things Network v3, ChirpStack v4) or `function Decode(fPort, bytes, variables)` (ChirpStack v3); `configurationSchema` optional: a JSON Schema (draft 2020-12) of the node configuration, at most 32 KiB, referencing only its own parts (`#...`): an invalid schema is 400 `body.configurationSchema` with the validator’s message, a remote `$ref` or `$id` is refused; `sampleInput` required: {`payload`, `values`?, `configuration`?, `parameters`?, `input`? (a partial input envelope such as `{"connectionData": {"fPort": 1}}`)}, the message the release gate runs; `notes` optional (≤ 2000).',
      'Versions are immutable: to change one, create a new draft. Answers 201 with the version (`status` `draft`, `scriptContract` detected, or null while the source does not compile) and `Location`.',
      EXISTENCE_404 + ' (`flow_block`)',
    ),
    errors: { 403: 'platform_admin_required' },
  },
  flowBlockVersions_get: {
    summary: 'Get a custom block version with its source',
    description: lines(
      'A global block needs no permission: any signed-in user reads it and its versions.',
      'With `sourceCode`, and once released the `artifact` (`engine`, `engineVersion`, `sha256`, `sizeBytes`, `compiledAt`) and `gateReport`.',
      EXISTENCE_404 + ' (`flow_block`, or `flow_block_version` for a version missing or of another block)',
    ),
  },
  flowBlockVersions_compile: {
    summary: 'Run the compile gate on a version',
    description: lines(
      'A global block is changed by platform administrators only (403 `platform_admin_required`).',
      'No body. Parses the source and checks its entry function without running it. Always 200 `{passed, gateReport}`; a failure lists its issues (`syntax_error` with 1-based `line` and `column`, `missing_transform`). Nothing is stored.',
      EXISTENCE_404 + ' (`flow_block` / `flow_block_version`)',
    ),
    errors: { 403: 'platform_admin_required' },
  },
  flowBlockVersions_run: {
    summary: 'Run a version on one message without releasing it',
    description: lines(
      'A global block is changed by platform administrators only (403 `platform_admin_required`).',
      'A dry run of a version in any status (`draft`, `released`, `deprecated`), for trying a script or a payload codec on real bytes before release. It is read-like: **nothing is stored and nothing is audited**, whatever the outcome, and the version does not change.',
      'Body: exactly one of `input` (the shape of `sampleInput`: `payload` (a codec takes a byte array or a base64 string; bytes typed as hex go as an array), `values`, `configuration`, `parameters`, `input` such as `{"connectionData": {"fPort": 2}, "observedAt": "..."}`) and `rawIngestionMessageId` (a stored raw message of the block’s tenant, any tenant for a global block: its `rawPayload` decoded as a flow decodes it (`base64`/`hex` to a byte array, `utf8` text, `json` parsed) is the payload, its `connectionData`, `observedAt` (else its receipt time), receipt time and correlation id the input). Neither is 400 `body.input` `required`, both `body.rawIngestionMessageId` `mismatch`. `configuration` and `parameters` apply to either (once: not also inside `input`); without a configuration, the defaults of `configurationSchema` apply.',
      'Runs exactly what the release gate runs on `sampleInput`: the compile gate, then the script in a throw-away isolate within the sandbox limits. 200 `{ok: true, result, logs, logsTruncated, durationMs}` (`result` `{payload?, values?}`, a codec’s `data` as `payload`; null when the script filtered the message) or `{ok: false, error: {code, message, line?, column?}, logs, logsTruncated, durationMs}` with the sandbox gate’s codes (`runtime_error` for a throw, a codec’s `errors` or a payload that is not bytes; `timeout`, `memory_limit`, `invalid_output`, `output_too_large`) and the 1-based position where the sandbox reports one.',
      EXISTENCE_404 + ' (`flow_block` / `flow_block_version`; `raw_ingestion_message` for a message missing or of another tenant) **400** request rules, or a raw message without a decodable payload (`body.rawIngestionMessageId` `format`). **422** FLOW_FAILURE `gate` `compile` with `issues` (`syntax_error` with `line`/`column`, `missing_transform`): the source does not compile. **503** DEPENDENCY_FAILURE `sandbox`.',
    ),
    errors: { 403: 'platform_admin_required' },
  },
  flowBlockVersions_release: {
    summary: 'Release a draft version through its gates',
    description: lines(
      'A global block is changed by platform administrators only (403 `platform_admin_required`).',
      'No body. Runs the compile gate, then the sandbox gate: the script on `sampleInput` within the sandbox limits, with configuration defaults taken from `configurationSchema`. On success the version is `released` with its `artifact`, `scriptContract` and `gateReport`. On failure nothing changes: **422** `FLOW_FAILURE` with `gate` (`compile`/`sandbox`) and `issues` (`syntax_error`, `missing_transform`, `runtime_error`, `timeout`, `memory_limit`, `invalid_output`, `output_too_large`; 1-based `line`/`column` where known), recorded as a `failure` audit event.',
      EXISTENCE_404 + ' (`flow_block` / `flow_block_version`) **409** `invalid_state` with `currentStatus`: only a draft is released.',
    ),
    errors: { 403: 'platform_admin_required', 409: { reason: 'invalid_state', currentStatus: 'released', message: 'The flow block version is already released.' }, 422: 'sandbox' },
  },
  flowBlockVersions_deprecate: {
    summary: 'Deprecate a released version',
    description: lines(
      'A global block is changed by platform administrators only (403 `platform_admin_required`).',
      'No body. `released` → `deprecated` (terminal): no new flow release may use it; flows already released with it keep running it.',
      EXISTENCE_404 + ' (`flow_block` / `flow_block_version`) **409** `invalid_state` with `currentStatus`: drafts and deprecated versions cannot be deprecated.',
    ),
    errors: { 403: 'platform_admin_required', 409: { reason: 'invalid_state', currentStatus: 'draft', message: 'A draft flow block version cannot be deprecated.' } },
  },
});
