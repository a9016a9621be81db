import { defineDocs, ASCENDING, NAME_RULES, PATCH_RULES, lines } from '../../shared/http/route-docs';

const TEMPLATE_404 = '**404** `RESOURCE_NOT_FOUND` (`flow_template`): no template with this id.';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const FLOW_TEMPLATES_DOCS = defineDocs({
  flowTemplates_list: {
    summary: 'List the flow templates (the template catalog)',
    description: lines(
      '**Access**: any signed-in user (templates are global starting points for every tenant’s flows).',
      'Filters: `q` (key or name substring), `status` (`draft`, `released`, `deprecated`: only templates with a version in that status). `status=released` is the catalog a console offers: each item carries its newest released version (`latestReleasedVersionId`, `latestReleasedVersionNumber`) and the fields that version writes (`requiredFields`: `key`, `schemaRef`, `storageTargets`), which a device type needs before a copy of it can be released.',
      ASCENDING,
    ),
  },
  flowTemplates_create: {
    summary: 'Create a flow template',
    description: lines(
      `Body: \`key\` (matches \`^[a-z0-9][a-z0-9._-]{0,127}$\`, unique among the templates, immutable), \`name\`, \`description\` optional. ${NAME_RULES} Answers 201 with the template and \`Location: /v1/flow-templates/{flowTemplateId}\`. Its content lives in versions (\`POST …/versions\`).`,
      '**409** `duplicate_key`.',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'A flow template with this key already exists.' } },
  },
  flowTemplates_get: {
    summary: 'Get a flow template',
    description: lines('**Access**: any signed-in user.', TEMPLATE_404),
  },
  flowTemplates_update: {
    summary: 'Rename a flow template or change its description',
    description: lines('`name` and/or `description`; `key` is immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'), TEMPLATE_404),
  },
});
