import { defineDocs, ASCENDING, EXISTENCE_404, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const ORGANIZATION_UNITS_DOCS = defineDocs({
  organizationUnits_list: {
    summary: 'List organization units of a tenant',
    description: lines(
      'Visible units only: those the caller can access (`scopeRelation` `accessible`) and their ancestors for navigation (`ancestor`). With `parentOrganizationUnitId`: its visible children; without it: the top-level visible units, or with `q` every visible unit matching. Filters: `status`, `q`. An unknown or invisible parent is 400 `query.parentOrganizationUnitId` `reference_not_found`.',
      ASCENDING,
      TENANT_404,
    ),
  },
  organizationUnits_create: {
    summary: 'Create an organization unit',
    description: lines(
      'A root unit needs the permission over the whole tenant (a tenant-level grant with descendants); a child needs a grant with descendants on the parent or above.',
      'Body: `key` (unique per tenant, `^[a-z0-9][a-z0-9._-]{0,63}$`, immutable), `name`, `parentOrganizationUnitId` (optional: none = root; immutable), `metadata` optional. An unknown or invisible parent is 400 `body.parentOrganizationUnitId` `reference_not_found`. Answers 201 with `Location: /v1/organization-units/{organizationUnitId}`.',
      TENANT_404 + ' **409** `duplicate_key`, `parent_disabled` (the parent is effectively disabled), `max_depth` (a tree is at most 16 levels deep).',
    ),
    errors: { 409: { reason: 'duplicate_key', message: 'An organization unit with this key already exists in the tenant.' } },
  },
  organizationUnits_get: {
    summary: 'Get an organization unit',
    description: lines(
      '`effectiveStatus` is `disabled` when the unit, an ancestor or the tenant is disabled; `hasChildren` is true when at least one direct child is visible to the caller.',
      EXISTENCE_404,
    ),
  },
  organizationUnits_update: {
    summary: 'Rename an organization unit or replace its metadata',
    description: lines(
      '`name` and/or `metadata`; `key` and the parent are immutable (no re-parenting). ' + PATCH_RULES,
      EXISTENCE_404,
    ),
  },
  organizationUnits_listAncestors: {
    summary: 'List the ancestors of an organization unit',
    description: lines(
      '`items`: the chain of ancestors from the root down to the parent, excluding the unit itself; empty for a root. Not paged: a tree is at most 16 levels deep.',
      EXISTENCE_404,
    ),
  },
  organizationUnits_disable: {
    summary: 'Disable an organization unit and its subtree',
    description: lines(
      '`active` → `disabled`: the whole subtree becomes `effectiveStatus` `disabled`; it takes no new children or device assignments and grants on it stop counting. Ingestion continues; nothing is deleted.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: already disabled.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'disabled', message: 'The organization unit is already disabled.' } },
  },
  organizationUnits_reactivate: {
    summary: 'Reactivate an organization unit',
    description: lines(
      '`disabled` → `active`. The subtree is effectively active again unless an ancestor or the tenant is still disabled.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: already active.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'active', message: 'The organization unit is already active.' } },
  },
});
