import { defineDocs, IF_MATCH, PATCH_RULES, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const DEVICE_FIELDS_DOCS = defineDocs({
  deviceFields_list: {
    summary: 'List the field definitions of a device type',
    description: lines(
      'A JSON array, not a page: active and deprecated fields, oldest first by `createdAt`.',
      '**404** (`device_type`): missing, or in a tenant the caller has no effective grant in.',
    ),
  },
  deviceFields_create: {
    summary: 'Define a telemetry field of a device type',
    description: lines(
      'Body: `key` (`^[a-z][a-z0-9._-]{0,119}$`, immutable), `name`, `description` optional, `schemaRef` (`platform://schemas/number/v1`, `platform://schemas/string/v1`, `platform://schemas/boolean/v1` or `platform://schemas/json/v1`), `unit` optional (1..40 or null), `storageTargets` (1..2 unique of `current`, `timeseries`), `measurementType` (`gauge`, `counter`, `status`, `event`). A disabled type accepts new fields. Answers 201 with `lockVersion` 1, `ETag: "1"`, `Location: /v1/device-types/{deviceTypeId}/fields/{key}`.',
      '**404** (`device_type`). **409** `duplicate_key` (keys of deprecated fields stay taken), `max_fields` (200 active fields per type).',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'The device type already has a field with this key (deprecated keys stay taken).' } },
  },
  deviceFields_get: {
    summary: 'Get a field definition',
    description: lines(
      'Active or deprecated; the response carries `ETag: "<lockVersion>"`. The path `key` must match `^[a-z][a-z0-9._-]{0,119}$` (else 400).',
      '**404** `device_type` (missing or invisible type) or `device_field` (no field with this key).',
    ),
  },
  deviceFields_update: {
    summary: 'Change a field’s name, description, unit or storage targets',
    description: lines(
      'Any of `name`, `description`, `unit` (null clears it), `storageTargets`; `key`, `schemaRef` and `measurementType` are immutable. ' +
        PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      IF_MATCH,
      '**404** `device_type` or `device_field`. **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: the field is deprecated.',
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
  deviceFields_deprecate: {
    summary: 'Deprecate a field definition',
    description: lines(
      '`active` → `deprecated` (terminal): `deprecatedAt` is set, the field stays listed, its key stays taken, and current values no longer show it; its stored measurements stay readable.',
      IF_MATCH,
      '**404** `device_type` or `device_field`. **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: already deprecated.',
    ),
    errors: { 409: 'lock_version_mismatch' },
  },
});
