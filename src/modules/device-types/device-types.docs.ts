import { defineDocs, ASCENDING, IF_MATCH, KEY_RULE, NAME_RULES, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const DEVICE_TYPES_DOCS = defineDocs({
  deviceTypes_list: {
    summary: 'List device types of a tenant',
    description: lines(
      'Filters: `status`, `q` (key or name substring).',
      ASCENDING,
      TENANT_404,
    ),
  },
  deviceTypes_create: {
    summary: 'Create a device type',
    description: lines(
      `Body: \`key\` (unique per tenant), \`name\`, \`description\` optional. ${KEY_RULE} ${NAME_RULES} Answers 201 with \`lockVersion\` 1, \`ETag: "1"\` and \`Location: /v1/device-types/{deviceTypeId}\`.`,
      TENANT_404 + ' **409** `duplicate_key`.',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'A device type with this key already exists in the tenant.' } },
  },
  deviceTypes_get: {
    summary: 'Get a device type',
    description: lines(
      'The response carries `ETag: "<lockVersion>"`; send it as `If-Match` on the next change.',
      '**404** (`device_type`): missing, or in a tenant the caller has no effective grant in.',
    ),
  },
  deviceTypes_update: {
    summary: 'Rename a device type or change its description',
    description: lines(
      '`name` and/or `description`; `key` is immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      IF_MATCH,
      '**404** (`device_type`): missing, or in a tenant the caller has no effective grant in.',
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
  deviceTypes_disable: {
    summary: 'Disable a device type',
    description: lines(
      '`active` → `disabled`: no new devices of this type; uplinks of its devices are stored but not processed.',
      IF_MATCH,
      '**404** (`device_type`). **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: already disabled.',
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
  deviceTypes_reactivate: {
    summary: 'Reactivate a device type',
    description: lines(
      '`disabled` → `active`.',
      IF_MATCH,
      '**404** (`device_type`). **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: already active.',
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
});
