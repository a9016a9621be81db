import { defineDocs, ASCENDING, PATCH_RULES, TENANT_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const MEMBERSHIPS_DOCS = defineDocs({
  memberships_list: {
    summary: 'List membership grants of a tenant',
    description: lines(
      'Only grants whose target the caller covers; tenant-level grants need whole-tenant scope. Filters: `status`, `q` (case-insensitive substring of the user’s display name or e-mail), `userId`, `role`, `organizationUnitId` (`null` for tenant-level grants). An unknown `userId` or invisible `organizationUnitId` is 400 `reference_not_found`.',
      ASCENDING,
      TENANT_404,
    ),
  },
  memberships_create: {
    summary: 'Grant a user a role in a tenant or unit',
    description: lines(
      'A tenant-level grant, or one with descendants, needs the caller to cover the whole subtree.',
      'Body: exactly one of `userId` or `userEmail`; `role` (`tenant_admin`, `tenant_operator`, `tenant_viewer`); `organizationUnitId` (optional; none or null = tenant-level); `includeDescendants` (default true). An unknown user or invisible unit is 400 `reference_not_found`. Answers 201 with `Location: /v1/memberships/{membershipId}`.',
      TENANT_404 + ' **409** `duplicate_membership`: the user already has an active grant on this target.',
    ),
    errors: { 409: 'duplicate_membership' },
  },
  memberships_get: {
    summary: 'Get a membership grant',
    description: '**404** (`membership`): no such grant, one in another tenant, or one whose target the caller does not cover; all the same answer.',
  },
  memberships_update: {
    summary: 'Change a grant’s role or descendant coverage',
    description: lines(
      '`role` and/or `includeDescendants`; the user and the target are immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      'The user’s access changes from its next request on.',
      '**404** (`membership`): no such grant, or one outside the caller’s tenants and units.',
    ),
  },
  memberships_disable: {
    summary: 'Disable a membership grant',
    description: lines(
      '`active` → `disabled`: the grant stops counting from the user’s next request on. Grants are never deleted.',
      '**404** (`membership`): no such grant, or one outside the caller’s scope. **409** `invalid_state` with `currentStatus`: already disabled.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'disabled', message: 'The membership is already disabled.' } },
  },
  memberships_reactivate: {
    summary: 'Reactivate a membership grant',
    description: lines(
      '`disabled` → `active`.',
      '**404** (`membership`): no such grant, or one outside the caller’s scope. **409** `invalid_state` with `currentStatus`: already active; `duplicate_membership`: the user meanwhile has another active grant on the same target.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'active', message: 'The membership is already active.' } },
  },
});
