import { defineDocs, ASCENDING, EXISTENCE_404, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const DEVICES_DOCS = defineDocs({
  devices_list: {
    summary: 'List devices of a tenant',
    description: lines(
      'Visible devices only: those whose current unit the caller can access, and unassigned ones for callers with a tenant-level grant. Filters: `status`, `deviceTypeId`, `organizationUnitId` with `includeDescendants` (default true), `devEui` (exact), `q` (name substring or devEui prefix). An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
      ASCENDING,
      TENANT_404,
    ),
  },
  devices_create: {
    summary: 'Register a device',
    description: lines(
      'The target is the new device’s unit; a device without `organizationUnitId` (unassigned) needs a tenant-level grant.',
      'Body: `devEui` (16 uppercase hex characters, stored exactly as sent, immutable), `name`, `deviceTypeId` (an active type of the tenant, immutable), `metadata` optional, `organizationUnitId` optional (opens the first assignment period now; required for callers without a tenant-level grant). An unknown or invisible type or unit is 400 `reference_not_found`. Answers 201 with `Location: /v1/devices/{deviceId}`.',
      TENANT_404 +
        ' **409** `duplicate_dev_eui` (a non-retired device of any tenant holds it; the other tenant is not named), `device_type_disabled`, `organization_unit_disabled`.',
    ),
    errors: { 409: 'duplicate_dev_eui' },
  },
  devices_get: {
    summary: 'Get a device',
    description: lines(
      'Includes `currentAssignment`, the open period, or null while unassigned, and `lastSeenAt`, the receipt time of the device’s last processed uplink (null before the first; written once per processing batch).',
      EXISTENCE_404,
    ),
  },
  devices_update: {
    summary: 'Rename a device or replace its metadata',
    description: lines(
      '`name` and/or `metadata`; `devEui` and `deviceTypeId` are immutable. ' + PATCH_RULES,
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: the device is retired.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'retired', message: 'A retired device cannot be changed.' } },
  },
  devices_disable: {
    summary: 'Disable a device',
    description: lines(
      '`active` → `disabled`: its uplinks are stored but not processed.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: not `active`.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'retired', message: 'A retired device cannot be disabled.' } },
  },
  devices_reactivate: {
    summary: 'Reactivate a disabled device',
    description: lines(
      '`disabled` → `active`.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: not `disabled`.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'retired', message: 'A retired device cannot be reactivated.' } },
  },
  devices_retire: {
    summary: 'Retire a device for good',
    description: lines(
      '`active` or `disabled` → `retired` (terminal): the open assignment period ends now and the devEui becomes free for a new device; its history and measurements stay readable.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: already retired.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'retired', message: 'A retired device cannot be retired.' } },
  },
});
