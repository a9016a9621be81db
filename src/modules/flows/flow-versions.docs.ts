import { defineDocs, EXISTENCE_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_VERSIONS_DOCS = defineDocs({
  flowVersions_list: {
    summary: 'List versions of a flow',
    description: lines(
      'Filter `status` (`draft`, `released`, `deprecated`). **Paging** (newest-first family): by `versionNumber` descending; `limit` 1..100 (default 25); `cursor` ≤ 512 characters; `items` and `nextCursor`, no total; continuations repeat `status` and `limit` (else 400 `cursor_mismatch`).',
      EXISTENCE_404,
    ),
  },
  flowVersions_create: {
    summary: 'Save a new draft version',
    description: lines(
      'Body `graph` (`flow-graph.v2`) and `parameters` (default `[]`). Versions are immutable, drafts included: an edit is a new draft numbered max + 1 (parallel saves never collide). Save rules, 400 with paths under `body.graph` / `body.parameters`: the shape and limits (2..102 nodes, ≤ 500 edges, `nodeId` 1..120, `name` 1..200, `configuration` ≤ 32 KiB, finite `position`), `schemaVersion`, `deviceTypeId` = the flow’s (`mismatch`), exactly one node of each output kind (`system_node_count`), unique `nodeId` (`unique`), `block` null on outputs and required on blocks, edges between existing nodes (`reference_not_found`), no self-loop (`mismatch`) or duplicate (`unique`); ≤ 50 parameters with unique keys and typed defaults. Compile rules are the validate operation’s, not the save’s.',
      EXISTENCE_404,
    ),
  },
  flowVersions_get: {
    summary: 'Get a flow version',
    description: lines(
      'A version of another flow is the version’s 404.',
      EXISTENCE_404,
    ),
  },
  flowVersions_validate: {
    summary: 'Validate a flow version',
    description: lines(
      'A read: any status, against the device type’s current fields and the current blocks; stores nothing. Returns `valid` (no `error` issue), the `checksum` a release would record and every issue with `severity`, `code` and `path`. Errors: `cycle_detected`, `multiple_inputs`, `invalid_port`, `unknown_block`, `block_version_not_released`, `block_version_deprecated`, `invalid_configuration` (against the block’s configuration schema, `$param` values resolved), `unknown_field`, `field_target_mismatch`, `schema_ref_mismatch`, `undeclared_parameter`, `parameter_type_mismatch`, `unknown_email_template`. Warnings: `email_template_inactive`, `unreachable_output`, `dead_end_node`.',
      EXISTENCE_404,
    ),
  },
  flowVersions_release: {
    summary: 'Release a draft version',
    description: lines(
      '`draft` → `released` when it validates without errors; records `checksum` (lowercase hex SHA-256 of the RFC 8785 canonical JSON of {graph, parameters}) and `releasedAt`. Does not activate.',
      EXISTENCE_404 + ' **409** `invalid_state` (+`currentStatus`). **422** FLOW_FAILURE `gate` `compile` with `details.issues` (audited as a failure).',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'released', message: 'Only a draft can be released; this version is released.' } },
  },
  flowVersions_deprecate: {
    summary: 'Deprecate a released version',
    description: lines(
      '`released` → `deprecated` (terminal). An active version stays active but can never be activated again.',
      EXISTENCE_404 + ' **409** `invalid_state` (+`currentStatus`): drafts are never deprecated.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'draft', message: 'Only a released version can be deprecated; this version is draft.' } },
  },
});
