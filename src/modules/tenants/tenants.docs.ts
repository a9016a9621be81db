import { defineDocs, ASCENDING, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const TENANTS_DOCS = defineDocs({
  tenants_list: {
    summary: 'List the tenants visible to the caller',
    description: lines(
      '**Access**: any signed-in user. Platform administrators see every tenant; others see the active tenants where they hold an effective grant.',
      'Filters: `status`, `q` (case-insensitive substring of key or name).',
      ASCENDING,
    ),
  },
  tenants_create: {
    summary: 'Create a tenant',
    description: lines(
      'Body: `key` (`^[a-z0-9][a-z0-9._-]{0,63}$`, globally unique, immutable), `name` (1..200, not blank), `metadata` optional. The tenant gets the next `tenantNumber` (ascending from 1), used in every tenant URL. Answers 201 with `Location: /v1/tenants/{tenantNumber}`.',
      '**409** `duplicate_key`: another tenant has this key.',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'A tenant with this key already exists.' } },
  },
  tenants_get: {
    summary: 'Get a tenant',
    description: '**400**: `tenantNumber` not an integer 1..2147483647. ' + TENANT_404,
  },
  tenants_update: {
    summary: 'Rename a tenant or replace its metadata',
    description: lines(
      '`name` and/or `metadata`; `key` is immutable. ' + PATCH_RULES,
      TENANT_404,
    ),
  },
  tenants_disable: {
    summary: 'Disable a tenant',
    description: lines(
      '`active` → `disabled`: the grants of everyone but platform administrators stop working at once (the tenant becomes invisible to them, as if it did not exist). Nothing is deleted.',
      '**404** (`tenant`): no such tenant. **409** `invalid_state` with `currentStatus`: already disabled.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'disabled', message: 'The tenant is already disabled.' } },
  },
  tenants_reactivate: {
    summary: 'Reactivate a disabled tenant',
    description: lines(
      '`disabled` → `active`: grants count again.',
      '**404** (`tenant`): no such tenant. **409** `invalid_state` with `currentStatus`: already active.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'active', message: 'The tenant is already active.' } },
  },
});
