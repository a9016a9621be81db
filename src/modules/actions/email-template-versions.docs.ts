import { defineDocs, EXISTENCE_404, lines } from '../../shared/http/route-docs';
import { TEMPLATE_VARIABLES_DESCRIPTION } from './domain/template-syntax';

const NOT_FOUND = EXISTENCE_404 + ' (`email_template`, or `email_template_version` for a version missing or of another template)';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const EMAIL_TEMPLATE_VERSIONS_DOCS = defineDocs({
  emailTemplateVersions_list: {
    summary: 'List the versions of an e-mail template',
    description: lines(
      'Newest first by `versionNumber`; filter `status` (`draft`, `released`, `deprecated`); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total. Items carry no bodies.',
      NOT_FOUND,
    ),
  },
  emailTemplateVersions_create: {
    summary: 'Create a draft version of an e-mail template',
    description: lines(
      'Body: `subject` (1..200), `bodyText` (1..20000), `bodyHtml` optional (≤ 100000, null or absent: text only). Versions are immutable: to change one, create a new draft. Answers 201 with the version (`status` `draft`) and `Location`.',
      `**Template syntax**: plain text with \`{{path}}\` variables and nothing else. Paths: ${TEMPLATE_VARIABLES_DESCRIPTION}. Sections (\`{{#x}}\`), inverted sections, partials (\`{{>x}}\`), comments, triple braces, \`{{&x}}\` and delimiter changes are 400 with rule \`format\` on the field (\`body.subject\`, \`body.bodyText\`, \`body.bodyHtml\`); a path outside the list is rule \`unknown_variable\`. When sent, values are HTML-escaped in \`bodyHtml\`, line breaks are removed from the subject, and a missing value prints as "".`,
      NOT_FOUND,
    ),
  },
  emailTemplateVersions_get: {
    summary: 'Get an e-mail template version with its bodies',
    description: NOT_FOUND,
  },
  emailTemplateVersions_release: {
    summary: 'Release a draft version',
    description: lines(
      'No body. `draft` → `released` with `releasedAt`. Releasing does not activate: activate the template with this version to send it.',
      NOT_FOUND + ' **409** `invalid_state` with `currentStatus`: only a draft is released.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'released', message: 'The email template version is already released.' } },
  },
  emailTemplateVersions_deprecate: {
    summary: 'Deprecate a released version',
    description: lines(
      'No body. `released` → `deprecated` (terminal) with `deprecatedAt`: it can no longer be activated. If it is the active version it stays active, and e-mail keeps going out with it, until another version is activated.',
      NOT_FOUND + ' **409** `invalid_state` with `currentStatus`: drafts and deprecated versions cannot be deprecated.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'draft', message: 'A draft email template version cannot be deprecated.' } },
  },
  emailTemplateVersions_render: {
    summary: 'Preview what a version renders to',
    description: lines(
      'Renders a version of any status exactly as a delivery would, and sends, stores and audits nothing. Body: `context` (the values to print: `tenant`, `device` {`name`, `devEui`, `metadata`}, `organizationUnit` {`name`, `key`} or null, `values`, `observedAt`, `flow`, `parameters`; every part optional, a missing value prints "") or `flowExecutionId` (an execution of this tenant: its values, `observedAt` and parameters, the names as they are now); not both (400 `body.flowExecutionId` `mismatch`); neither renders with an empty context. An execution that is not this tenant’s is 400 `body.flowExecutionId` `reference_not_found`.',
      'Answers 200 {`subject`, `bodyText`, `bodyHtml` (null without an HTML body)}.',
      NOT_FOUND,
    ),
  },
});
