import { defineDocs, ASCENDING, EXISTENCE_404, IF_MATCH, KEY_RULE, NAME_RULES, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOWS_DOCS = defineDocs({
  flows_create: {
    summary: 'Create the flow of a device type',
    description: lines(
      `Body: \`key\` (unique per tenant), \`name\`, \`description\` optional. ${KEY_RULE} ${NAME_RULES} Creates the device type's single flow and its first draft (version 1, \`flow-graph.v2\` with the two output nodes, no edges, no parameters) in one transaction. Answers 201 with \`ETag: "1"\` and \`Location: /v1/flows/{flowId}\`; \`activeVersionId\`/\`activeVersionNumber\` stay null until the first activation.`,
      '**404** (`device_type`): missing or invisible. **409** `flow_exists` (the type has its flow), `duplicate_key`.',
    ),
    errors: { 409: 'flow_exists' },
  },
  flows_getByDeviceType: {
    summary: 'Get the flow of a device type',
    description: lines(
      'With `ETag` (the flow’s lockVersion).',
      '**404** `device_type` when the type is missing or invisible, `flow` when it has no flow yet.',
    ),
  },
  flows_list: {
    summary: 'List flows of a tenant',
    description: lines(
      'Filters: `deviceTypeId`, `q` (key or name substring).',
      ASCENDING,
      TENANT_404,
    ),
  },
  flows_get: {
    summary: 'Get a flow',
    description: lines(
      'With `ETag`; the lockVersion changes only on PATCH and on activation or rollback.',
      EXISTENCE_404,
    ),
  },
  flows_update: {
    summary: 'Rename a flow or change its description',
    description: lines(
      '`name` and/or `description`; `key` and the device type are immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      IF_MATCH,
      EXISTENCE_404,
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
  flows_activate: {
    summary: 'Activate or roll back a flow version',
    description: lines(
      'Body `flowVersionId`: a released version of this flow (a version of another flow is 400 `body.flowVersionId` `reference_not_found`). Atomic: of two parallel activations with the same ETag one wins, the other gets 409 `lock_version_mismatch`. Audited as `flow.activated`, or `flow.rolled_back` when the new version’s number is lower than the active one’s.',
      IF_MATCH,
      EXISTENCE_404 + ' **409** `version_not_released` (+`currentStatus`; a deprecated version cannot be activated again), `already_active`.',
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
});
