import { defineDocs, lines } from '../../shared/http/route-docs';

const VERSION_404 = '**404** `RESOURCE_NOT_FOUND`: no such template (`flow_template`), or no such version of it (`flow_template_version`; a version of another template too).';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_TEMPLATE_VERSIONS_DOCS = defineDocs({
  flowTemplateVersions_list: {
    summary: 'List versions of a flow template',
    description: lines(
      '**Access**: any signed-in user.',
      'Filter `status` (`draft`, `released`, `deprecated`). **Paging** (newest-first family): by `versionNumber` descending; `limit` 1..100 (default 25); `items` and `nextCursor`, no total; continuations repeat `status` and `limit` (else 400 `cursor_mismatch`).',
      VERSION_404,
    ),
  },
  flowTemplateVersions_create: {
    summary: 'Save a new draft version of a flow template',
    description: lines(
      'Body `graph` (`flow-graph.v2` with `deviceTypeId` **null**: a template belongs to no device type) and `parameters` (default `[]`). The save rules are a flow version’s (400, paths under `body.graph` / `body.parameters`), except that a `deviceTypeId` other than null is `type`. Versions are immutable, drafts included; numbered max + 1.',
      'Put what differs between tenants into parameters (`{"$param": "<key>"}` in any configuration value): an `email-action` names its e-mail template through a parameter, since a template can name no tenant’s e-mail template.',
      VERSION_404,
    ),
  },
  flowTemplateVersions_get: {
    summary: 'Get a flow template version',
    description: lines('**Access**: any signed-in user.', VERSION_404),
  },
  flowTemplateVersions_validate: {
    summary: 'Validate a flow template version',
    description: lines(
      '**Access**: any signed-in user. A read: any status; stores nothing.',
      'The flow compile rules (the same validator as `POST /v1/flows/{flowId}/versions/{flowVersionId}/validate`), with what a template cannot have: a custom block version must be a **global** one (a tenant’s block is `unknown_block`) and released (`block_version_not_released`, `block_version_deprecated`); a literal `emailTemplateId` is `unknown_email_template` (use a `$param`); output fields are not checked against a device type, only against each other (one `schemaRef` per field key, else `schema_ref_mismatch`). Returns `valid`, the `checksum` a release would record, the `requiredFields` it would record and the `issues`.',
      VERSION_404,
    ),
  },
  flowTemplateVersions_release: {
    summary: 'Release a flow template version',
    description: lines(
      '`draft` → `released` when it validates without errors; records `checksum` (lowercase hex SHA-256 of the RFC 8785 canonical JSON of {graph, parameters}, as a flow version’s) and `requiredFields` (from the output nodes: `key`, `schemaRef`, `storageTargets`). A released version is what tenants copy; the newest one is shown on every flow copied from an older one as `templateUpdate`.',
      VERSION_404 + ' **409** `invalid_state` (+`currentStatus`). **422** FLOW_FAILURE `gate` `compile` with `details.issues` (audited as a failure).',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'released', message: 'Only a draft can be released; this version is released.' } },
  },
  flowTemplateVersions_deprecate: {
    summary: 'Deprecate a flow template version',
    description: lines(
      '`released` → `deprecated` (terminal): it can no longer be copied and is never offered as a `templateUpdate`; flow versions copied from it are unchanged.',
      VERSION_404 + ' **409** `invalid_state` (+`currentStatus`): drafts are never deprecated.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'draft', message: 'Only a released version can be deprecated; this version is draft.' } },
  },
  flowTemplateVersions_copy: {
    summary: 'Copy a flow template version into a flow',
    description: lines(
      'Body `flowId`: a flow of a tenant the caller may write flows in. Creates a new **draft** of that flow (numbered max + 1; answers 201 with the flow version and `Location: /v1/flows/{flowId}/versions/{flowVersionId}`): the template’s graph with the flow’s `deviceTypeId`, its parameter declarations, and `sourceTemplate` {`flowTemplateId`, `flowTemplateVersionId`, `versionNumber`}. Nothing else of the flow changes; its active version keeps running.',
      'The copy is not checked against the device type: `POST /v1/flows/{flowId}/versions/{flowVersionId}/validate` names every field the device type still lacks (`unknown_field`, `field_target_mismatch`, `schema_ref_mismatch`); add those fields, then release and activate the draft. Parameters with no default (such as an e-mail template id) get their values through parameter overrides.',
      '**Upgrading** a flow copied from a template: when a newer version of the template is released, `GET /v1/flows/{flowId}` shows it as `templateUpdate`. Copy that version into the flow, validate the draft, release it, run `POST /v1/flows/{flowId}/replays` with `dryRun: true` and its `flowVersionId` over the last days of stored uplinks (the replay’s `diff` compares it with the active version message by message), then activate it (`POST /v1/flows/{flowId}/activate`).',
      '**400** `body.flowId` `reference_not_found`: no such flow, or a flow the caller cannot see (another tenant’s flow gets exactly this answer). ' +
        VERSION_404 +
        ' **409** `version_not_released` (+`currentStatus`): the version is a draft or deprecated. Audited as `flow_template_version.copied` (both ids) besides the flow version’s `created`.',
    ),
    errors: { 409: { reason: 'version_not_released', message: 'Only a released template version can be copied; this one is deprecated.' } },
  },
});
