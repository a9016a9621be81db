import { defineDocs, ASCENDING, IF_MATCH, KEY_RULE, NAME_RULES, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

const NOT_FOUND = '**404** (`email_template`): missing, or in a tenant the caller has no effective grant in.';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const EMAIL_TEMPLATES_DOCS = defineDocs({
  emailTemplates_list: {
    summary: 'List e-mail templates of a tenant',
    description: lines('Filter: `q` (key or name substring).', ASCENDING, TENANT_404),
  },
  emailTemplates_create: {
    summary: 'Create an e-mail template',
    description: lines(
      `Body: \`key\` (unique per tenant), \`name\`, \`description\` optional. ${KEY_RULE} ${NAME_RULES} Answers 201 with \`lockVersion\` 1, \`ETag: "1"\` and \`Location: /v1/email-templates/{emailTemplateId}\`. The template has no version yet: create a draft, release it and activate it before \`email-action\` nodes can send it.`,
      TENANT_404 + ' **409** `duplicate_key`.',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'An e-mail template with this key already exists in the tenant.' } },
  },
  emailTemplates_get: {
    summary: 'Get an e-mail template',
    description: lines(
      'With `activeVersionId` and `activeVersionNumber` (null until the first activation). The response carries `ETag: "<lockVersion>"`; send it as `If-Match` on the next change or activation.',
      NOT_FOUND,
    ),
  },
  emailTemplates_update: {
    summary: 'Rename an e-mail template or change its description',
    description: lines('`name` and/or `description`; `key` is immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'), IF_MATCH, NOT_FOUND),
    errors: { 409: 'lock_version_mismatch' },
  },
  emailTemplates_activate: {
    summary: 'Activate a released version of an e-mail template',
    description: lines(
      'Body: `emailTemplateVersionId`, a released version of this template (another id: 400 `body.emailTemplateVersionId` `reference_not_found`). Every e-mail rendered after the change uses it; a lower number than the active one is a rollback.',
      IF_MATCH,
      NOT_FOUND + ' **409** `lock_version_mismatch`; `version_not_released` with `currentStatus` (a draft, or a deprecated version); `already_active`.',
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
});
