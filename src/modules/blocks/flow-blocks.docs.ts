import { defineDocs, ASCENDING, EXISTENCE_404, NAME_RULES, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_BLOCKS_DOCS = defineDocs({
  flowBlocks_list: {
    summary: 'List the global custom blocks',
    description: lines(
      '**Access**: any signed-in user (global blocks are usable in every tenant).',
      'Filter: `q` (key or name substring). No sources or artifacts: read a version for those.',
      ASCENDING,
    ),
  },
  flowBlocks_create: {
    summary: 'Create a global custom block',
    description: lines(
      `Body: \`key\` (matches \`^[a-z0-9][a-z0-9._-]{0,127}$\`, unique among the global blocks, immutable), \`name\`, \`description\` optional. ${NAME_RULES} Answers 201 with the block (\`scope\` \`global\`, \`tenantId\` null) and \`Location: /v1/flow-blocks/{flowBlockId}\`.`,
      '**409** `duplicate_key`.',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'A block with this key already exists in this scope.' } },
  },
  tenantFlowBlocks_list: {
    summary: 'List the custom blocks of a tenant',
    description: lines(
      "The tenant's own blocks (global blocks are listed by `GET /v1/flow-blocks`). Filter: `q` (key or name substring). No sources or artifacts.",
      ASCENDING,
      TENANT_404,
    ),
  },
  tenantFlowBlocks_create: {
    summary: 'Create a custom block in a tenant',
    description: lines(
      `Body: \`key\` (matches \`^[a-z0-9][a-z0-9._-]{0,127}$\`, unique in the tenant, immutable), \`name\`, \`description\` optional. ${NAME_RULES} Answers 201 with the block (\`scope\` \`tenant\`) and \`Location: /v1/flow-blocks/{flowBlockId}\`.`,
      TENANT_404 + ' **409** `duplicate_key`; `max_blocks`: a tenant holds at most 500 custom blocks.',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'A block with this key already exists in this scope.' } },
  },
  flowBlockCatalog_get: {
    summary: 'Get the block catalog of a tenant',
    description: lines(
      'Unpaged `items`: every built-in block (`type` `builtin`: `key`, `version`, `ports`, `configurationSchema`), then the global blocks and the tenant’s own blocks that have released versions (`type` `custom`), each with its `released` versions newest first (`flowBlockVersionId`, `versionNumber`, `scriptContract`, `ports` `["out"]`, `configurationSchema`). Deprecated versions and drafts are not offered. Enough to draw a flow editor’s palette in one call.',
      TENANT_404,
    ),
  },
  flowBlocks_get: {
    summary: 'Get a custom block',
    description: lines(
      'A global block needs no permission: any signed-in user reads it and its versions.',
      EXISTENCE_404 + ' (`flow_block`)',
    ),
  },
  flowBlocks_update: {
    summary: 'Rename a custom block or change its description',
    description: lines(
      'A global block is changed by platform administrators only (403 `platform_admin_required`).',
      '`name` and/or `description`; `key` and `scope` are immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      EXISTENCE_404 + ' (`flow_block`)',
    ),
    errors: { 403: 'platform_admin_required' },
  },
});
