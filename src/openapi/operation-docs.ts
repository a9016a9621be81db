/**
 * Summary and description of every operation, keyed by its pinned operationId. They are merged into the OpenAPI
 * document when it is built (see `withOperationDocs`), so the controllers stay thin and a new operation without an
 * entry here fails the document test.
 *
 * Each description states who may call the operation (permission and the scope it is evaluated at), the 404 of the
 * existence rule, notable validation rules, the 409 reasons, `If-Match` where required and the paging family.
 */
import { INGESTION_OPERATION_DOCS } from './ingestion-docs';
import { PROCESSING_OPERATION_DOCS } from './processing-docs';

export interface OperationDoc {
  summary: string;
  description: string;
}

const lines = (...parts: string[]): string => parts.join('\n\n');

const EXISTENCE_404 =
  '**404** `RESOURCE_NOT_FOUND`: the target is missing, in another tenant, or outside the caller’s scope; all three get the same answer, never a 403.';
const TENANT_404 = '**404** `RESOURCE_NOT_FOUND` (`tenant`): no such tenant, or none the caller holds an effective grant in.';
const PLATFORM_ADMIN =
  '**Access**: platform administrators only. Anyone else gets 403 `platform_admin_required` before the request is validated or anything is looked up.';
const ASCENDING =
  '**Paging** (ascending family): ordered by (`createdAt`, id); `limit` 25, 50 or 100 (default 25); the page carries `items`, `nextCursor` (omitted on the last page) and the exact `totalCount` for the same filters. Pass `nextCursor` as `cursor` and repeat the same filters and `limit`, otherwise 400 `query.cursor` `cursor_mismatch`; an altered cursor is `cursor_invalid`.';
const NEWEST_FIRST =
  '**Paging** (newest-first family): newest first by (`occurredAt`, id); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total. The first page fixes the upper time anchor `min(to, now)`; continuations repeat every filter and the `limit` (else 400 `cursor_mismatch`).';
const TIME_WINDOW =
  '**Time window**: `from` and `to` (RFC 3339) are a pair, both or neither: one alone is 400 `required`, `from >= to` is `range`, a span over 31 days is `max_span`; neither means the last 24 hours. The window is half-open `[from, to)`.';
const IF_MATCH =
  '**If-Match** is required: the resource’s current `ETag`, e.g. `"3"` or `W/"3"`. Missing or malformed: 400 `headers.if-match`; stale: 409 `lock_version_mismatch` with `currentLockVersion` (the value the `ETag` header shows now). Success increments `lockVersion` by 1 and returns the new `ETag`.';
const PATCH_RULES =
  '**Partial update**: send at least one property (else 400 `body` `min_properties`); unknown or immutable properties are 400 `unknown_property`; `metadata` replaces the whole map (≤ 50 string values, keys 1..64, values ≤ 1024 characters).';
const NAME_RULES = 'Names are 1..200 characters and not blank; descriptions ≤ 500 characters (default `""`).';
const KEY_RULE = '`key` matches `^[a-z0-9][a-z0-9._-]{0,63}$` and is immutable.';

const perm = (permission: string, scope: 'T' | 'S' | '*'): string => {
  const where = {
    T: 'through a tenant-level grant (a grant on a unit is not enough)',
    S: 'through a grant covering the target (its unit, or an ancestor with `includeDescendants`)',
    '*': 'through any effective grant in the tenant',
  }[scope];
  return `**Access**: \`${permission}\` ${where}; platform administrators hold every permission. A visible target without the permission is 403 \`missing_permission\`.`;
};

export const OPERATION_DOCS: Record<string, OperationDoc> = {
  ...INGESTION_OPERATION_DOCS,
  ...PROCESSING_OPERATION_DOCS,
  // Probes (outside /v1, public)
  HealthController_healthz: {
    summary: 'Liveness probe',
    description: lines(
      'Answers 200 while the process runs and serves HTTP; it checks no dependency, so a database outage never restarts the service.',
      'Public, outside `/v1`, not rate-limited. Use it as the container liveness probe.',
    ),
  },
  HealthController_readyz: {
    summary: 'Readiness probe',
    description: lines(
      'Answers 200 when the service can serve traffic (the database answers, every migration is applied), else 503 with `checks` naming what failed.',
      'With MQTT_ENABLED, `checks.mqtt` says whether the broker connection is up; it is reported only and never turns the answer 503.',
      'Public, outside `/v1`. Use it as the readiness probe so a replica without its database stops receiving requests.',
    ),
  },

  // Authentication
  LoginController_login: {
    summary: 'Sign in with a username or e-mail and a password',
    description: lines(
      '**Access**: public (no bearer token).',
      'Body: `identifier` (username or e-mail, 1..320 characters) and `password` (1..1024, used exactly as typed). Answers the token object and sets the refresh cookie (`__Host-platform_refresh`, or `platform_refresh` when `REFRESH_COOKIE_SECURE=false`) for `POST /v1/auth/refresh`.',
      'If `passwordChangeRequired` is true (a bootstrapped or temporary password), the token only allows `GET /v1/auth/me`, `POST /v1/auth/change-password` and the logout operations until the password is changed.',
      'A user keeps at most 10 active sessions; the 11th sign-in revokes the least recently used one.',
      '**401** `AUTHENTICATION_FAILED`: one generic answer for an unknown identifier, a wrong password, a disabled user or an account without a password. **429** `RATE_LIMITED` with `Retry-After`: after `LOGIN_MAX_FAILURES` (default 5) consecutive failures for the identifier, until `LOGIN_LOCKOUT_MINUTES` (default 15) after the last, or over `LOGIN_IP_ATTEMPTS_PER_MINUTE` (default 20) attempts a minute from one address; checked before the password.',
    ),
  },
  RefreshController_refresh: {
    summary: 'Exchange the refresh cookie for a new access token',
    description: lines(
      '**Access**: the refresh cookie plus an `Origin` header that exactly matches one of `ALLOWED_ORIGINS`; no bearer token and no body. Each refresh rotates the cookie and moves the 7-day inactivity deadline (`refreshIdleExpiresAt`).',
      '**401**: cookie missing, invalid, expired, revoked or reused; the cookie is cleared. Reusing a rotated token after the race window revokes the whole session. **403** `origin_not_allowed`: the `Origin` is not allowlisted. **409** `refresh_in_progress` with `Retry-After: 1`: the same token was rotated in the last few seconds (two tabs refreshing at once); retry once with the current cookie.',
    ),
  },
  LogoutController_logout: {
    summary: 'Sign out of this session',
    description: lines(
      '**Access**: the bearer token and an allowlisted `Origin`; allowed while a password change is pending.',
      'Revokes the session of the refresh cookie when it belongs to the caller, otherwise the bearer token’s session, and clears the cookie. Answers 204.',
      '**403** `origin_not_allowed`: the `Origin` header is not in `ALLOWED_ORIGINS`.',
    ),
  },
  LogoutAllController_logoutAll: {
    summary: 'Sign out of every session',
    description: lines(
      '**Access**: any signed-in user, also while a password change is pending.',
      'Revokes every session of the caller (the current one too) and clears the refresh cookie. Answers 204; tokens of the revoked sessions fail with 401 `revoked_session` from the next request on.',
    ),
  },
  GetMeController_me: {
    summary: 'Who am I: user, session, roles and grants',
    description: lines(
      '**Access**: any signed-in user, also while a password change is pending.',
      'Returns the user, the current session, global platform roles, `passwordChangeRequired`, the caller’s effective membership grants with their permissions, and `currentTenant`: the tenant of the optional `tenantNumber` query if visible, else the only visible tenant, else null. `analytics` is present only when product analytics is enabled and holds pseudonymous ids only.',
      '**400**: `tenantNumber` not an integer 1..2147483647.',
    ),
  },
  ChangePasswordController_changePassword: {
    summary: 'Change the own password (also the forced change)',
    description: lines(
      '**Access**: any signed-in user, also while a password change is pending: this is how a bootstrapped administrator or a user with a temporary password completes the forced change.',
      'Body: `currentPassword` and `newPassword` (12..128 characters, not equal to the username or e-mail ignoring case). Every earlier session, the calling one included, is revoked; the answer is the token object of one new session and a new refresh cookie; `passwordChangeRequired` becomes false.',
      '**400** `body.currentPassword` `incorrect`, `body.newPassword` `unchanged` or `password_policy`. **429**: wrong current passwords count against the sign-in throttle.',
    ),
  },
  ListSessionsController_list: {
    summary: 'List the own active sessions',
    description: lines(
      '**Access**: any signed-in user.',
      'At most 10 active sessions, most recently used first, the calling one marked `current`. Shows no IP addresses or user agents. Not paged.',
    ),
  },
  RevokeSessionController_revoke: {
    summary: 'Revoke one of the own sessions',
    description: lines(
      '**Access**: the owner of the session. Revoking the current session is allowed; its token stops working at once. Answers 204.',
      '**400**: `sessionId` not a UUID. **404** `RESOURCE_NOT_FOUND` (`session`): no active session with this id belongs to the caller; another user’s session gets the same answer.',
    ),
  },

  // Users
  ListUsersController_list: {
    summary: 'List users',
    description: lines(
      PLATFORM_ADMIN,
      'Filters: `status` (`active`, `disabled`), `q` (≤ 100 characters; case-insensitive substring of username, e-mail or display name).',
      ASCENDING,
    ),
  },
  CreateUserController_create: {
    summary: 'Create a user with a temporary password',
    description: lines(
      PLATFORM_ADMIN,
      'Body: `username` (`^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$`), `email` (≤ 254), `displayName` (1..200), `temporaryPassword` (password policy: 12..128, not the username or e-mail), `metadata` optional. The user must change the password at the first sign-in (`passwordChangeRequired` true). Answers 201 with `Location: /v1/users/{userId}`; the body omits `username`.',
      'The user has no tenant access until a membership grant is created.',
      '**409** `duplicate_username` or `duplicate_email` (compared ignoring case).',
    ),
  },
  GetUserController_get: {
    summary: 'Get a user',
    description: lines(PLATFORM_ADMIN, '**400**: `userId` not a UUID. **404** `RESOURCE_NOT_FOUND` (`user`): no such user.'),
  },
  UpdateUserController_update: {
    summary: 'Update a user, or disable or reactivate it',
    description: lines(
      PLATFORM_ADMIN,
      'Any of `username`, `email`, `displayName`, `status` (`active` ⇄ `disabled`), `metadata`. ' + PATCH_RULES,
      'Disabling revokes every session of the user; setting the current status again is a no-op answered 200.',
      '**404** (`user`): no such user. **409** `duplicate_username`, `duplicate_email`; `protected_user` (the bootstrapped administrator cannot be disabled); `self_lockout` (disabling yourself); `last_platform_admin` (disabling the last active platform administrator).',
    ),
  },
  SetTemporaryPasswordController_set: {
    summary: 'Reset a user’s password to a temporary one',
    description: lines(
      PLATFORM_ADMIN,
      'Body: `temporaryPassword` (password policy). Sets `passwordChangeRequired` and revokes every session of the user, who must change the password at the next sign-in.',
      '**404** (`user`): no such user. **409** `protected_user` (the bootstrapped administrator), `self_target` (use `POST /v1/auth/change-password` for yourself).',
    ),
  },
  GrantPlatformAdminController_grant: {
    summary: 'Make a user a platform administrator',
    description: lines(
      PLATFORM_ADMIN,
      'Idempotent: granting the role again answers 200 with the unchanged user. The user’s cached authorization is refreshed on the next request.',
      '**404** (`user`): no such user.',
    ),
  },
  RevokePlatformAdminController_revoke: {
    summary: 'Remove the platform administrator role from a user',
    description: lines(
      PLATFORM_ADMIN,
      'Idempotent: revoking a role the user does not hold answers 200.',
      '**404** (`user`): no such user. **409** `protected_user` (the bootstrapped administrator), `self_lockout` (your own role), `last_platform_admin`.',
    ),
  },
  ListUserMembershipsController_list: {
    summary: 'List a user’s membership grants in every tenant',
    description: lines(
      PLATFORM_ADMIN,
      'The user’s membership history: grants of all tenants and statuses, each with its `tenantNumber`. Filters: `status`, `tenantId` (UUID).',
      ASCENDING,
      '**404** (`user`): no such user.',
    ),
  },

  // Tenants
  ListTenantsController_list: {
    summary: 'List the tenants visible to the caller',
    description: lines(
      '**Access**: any signed-in user. Platform administrators see every tenant; others see the active tenants where they hold an effective grant.',
      'Filters: `status`, `q` (case-insensitive substring of key or name).',
      ASCENDING,
    ),
  },
  CreateTenantController_create: {
    summary: 'Create a tenant',
    description: lines(
      PLATFORM_ADMIN,
      'Body: `key` (`^[a-z0-9][a-z0-9._-]{0,63}$`, globally unique, immutable), `name` (1..200, not blank), `metadata` optional. The tenant gets the next `tenantNumber` (ascending from 1), used in every tenant URL. Answers 201 with `Location: /v1/tenants/{tenantNumber}`.',
      '**409** `duplicate_key`: another tenant has this key.',
    ),
  },
  GetTenantController_get: {
    summary: 'Get a tenant',
    description: lines(
      perm('tenant:read', '*'),
      '**400**: `tenantNumber` not an integer 1..2147483647. ' + TENANT_404,
    ),
  },
  UpdateTenantController_update: {
    summary: 'Rename a tenant or replace its metadata',
    description: lines(perm('tenant:write', 'T'), '`name` and/or `metadata`; `key` is immutable. ' + PATCH_RULES, TENANT_404),
  },
  ChangeTenantStatusController_disable: {
    summary: 'Disable a tenant',
    description: lines(
      PLATFORM_ADMIN,
      '`active` → `disabled`: the grants of everyone but platform administrators stop working at once (the tenant becomes invisible to them, as if it did not exist). Nothing is deleted.',
      '**404** (`tenant`): no such tenant. **409** `invalid_state` with `currentStatus`: already disabled.',
    ),
  },
  ChangeTenantStatusController_reactivate: {
    summary: 'Reactivate a disabled tenant',
    description: lines(
      PLATFORM_ADMIN,
      '`disabled` → `active`: grants count again.',
      '**404** (`tenant`): no such tenant. **409** `invalid_state` with `currentStatus`: already active.',
    ),
  },

  // Organization units
  ListOrganizationUnitsController_list: {
    summary: 'List organization units of a tenant',
    description: lines(
      perm('organization-units:read', 'S'),
      'Visible units only: those the caller can access (`scopeRelation` `accessible`) and their ancestors for navigation (`ancestor`). With `parentOrganizationUnitId`: its visible children; without it: the top-level visible units, or with `q` every visible unit matching. Filters: `status`, `q`. An unknown or invisible parent is 400 `query.parentOrganizationUnitId` `reference_not_found`.',
      ASCENDING,
      TENANT_404,
    ),
  },
  CreateOrganizationUnitController_create: {
    summary: 'Create an organization unit',
    description: lines(
      '**Access**: `organization-units:write`. A root unit needs it over the whole tenant (a tenant-level grant with descendants); a child needs a grant with descendants on the parent or above.',
      'Body: `key` (unique per tenant, `^[a-z0-9][a-z0-9._-]{0,63}$`, immutable), `name`, `parentOrganizationUnitId` (optional: none = root; immutable), `metadata` optional. An unknown or invisible parent is 400 `body.parentOrganizationUnitId` `reference_not_found`. Answers 201 with `Location: /v1/organization-units/{organizationUnitId}`.',
      TENANT_404 + ' **409** `duplicate_key`, `parent_disabled` (the parent is effectively disabled), `max_depth` (a tree is at most 16 levels deep).',
    ),
  },
  GetOrganizationUnitController_get: {
    summary: 'Get an organization unit',
    description: lines(
      perm('organization-units:read', 'S') + ' Ancestors of accessible units are readable for navigation (`scopeRelation` `ancestor`).',
      '`effectiveStatus` is `disabled` when the unit, an ancestor or the tenant is disabled; `hasChildren` is true when at least one direct child is visible to the caller.',
      EXISTENCE_404,
    ),
  },
  UpdateOrganizationUnitController_update: {
    summary: 'Rename an organization unit or replace its metadata',
    description: lines(
      perm('organization-units:write', 'S') + ' A unit the caller sees only as a navigation ancestor is 403.',
      '`name` and/or `metadata`; `key` and the parent are immutable (no re-parenting). ' + PATCH_RULES,
      EXISTENCE_404,
    ),
  },
  ListOrganizationUnitAncestorsController_list: {
    summary: 'List the ancestors of an organization unit',
    description: lines(
      perm('organization-units:read', 'S'),
      '`items`: the chain of ancestors from the root down to the parent, excluding the unit itself; empty for a root. Not paged: a tree is at most 16 levels deep.',
      EXISTENCE_404,
    ),
  },
  ChangeOrganizationUnitStatusController_disable: {
    summary: 'Disable an organization unit and its subtree',
    description: lines(
      perm('organization-units:write', 'S') + ' A navigation ancestor is 403.',
      '`active` → `disabled`: the whole subtree becomes `effectiveStatus` `disabled`; it takes no new children or device assignments and grants on it stop counting. Ingestion continues; nothing is deleted.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: already disabled.',
    ),
  },
  ChangeOrganizationUnitStatusController_reactivate: {
    summary: 'Reactivate an organization unit',
    description: lines(
      perm('organization-units:write', 'S') + ' A navigation ancestor is 403.',
      '`disabled` → `active`. The subtree is effectively active again unless an ancestor or the tenant is still disabled.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: already active.',
    ),
  },

  // Memberships
  ListMembershipsController_list: {
    summary: 'List membership grants of a tenant',
    description: lines(
      perm('memberships:read', 'S'),
      'Only grants whose target the caller covers; tenant-level grants need whole-tenant scope. Filters: `status`, `q` (case-insensitive substring of the user’s display name or e-mail), `userId`, `role`, `organizationUnitId` (`null` for tenant-level grants). An unknown `userId` or invisible `organizationUnitId` is 400 `reference_not_found`.',
      ASCENDING,
      TENANT_404,
    ),
  },
  CreateMembershipController_create: {
    summary: 'Grant a user a role in a tenant or unit',
    description: lines(
      '**Access**: `memberships:write` covering the target; a tenant-level grant or one with descendants needs the caller to cover the whole subtree.',
      'Body: exactly one of `userId` or `userEmail`; `role` (`tenant_admin`, `tenant_operator`, `tenant_viewer`); `organizationUnitId` (optional; none or null = tenant-level); `includeDescendants` (default true). An unknown user or invisible unit is 400 `reference_not_found`. Answers 201 with `Location: /v1/memberships/{membershipId}`.',
      TENANT_404 + ' **409** `duplicate_membership`: the user already has an active grant on this target.',
    ),
  },
  GetMembershipController_get: {
    summary: 'Get a membership grant',
    description: lines(
      perm('memberships:read', 'S'),
      '**404** (`membership`): no such grant, one in another tenant, or one whose target the caller does not cover; all the same answer.',
    ),
  },
  UpdateMembershipController_update: {
    summary: 'Change a grant’s role or descendant coverage',
    description: lines(
      perm('memberships:write', 'S') + ' The caller must cover the grant both before and after the change.',
      '`role` and/or `includeDescendants`; the user and the target are immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      'The user’s access changes from its next request on.',
      '**404** (`membership`): no such grant, or one outside the caller’s tenants and units.',
    ),
  },
  ChangeMembershipStatusController_disable: {
    summary: 'Disable a membership grant',
    description: lines(
      perm('memberships:write', 'S'),
      '`active` → `disabled`: the grant stops counting from the user’s next request on. Grants are never deleted.',
      '**404** (`membership`): no such grant, or one outside the caller’s scope. **409** `invalid_state` with `currentStatus`: already disabled.',
    ),
  },
  ChangeMembershipStatusController_reactivate: {
    summary: 'Reactivate a membership grant',
    description: lines(
      perm('memberships:write', 'S'),
      '`disabled` → `active`.',
      '**404** (`membership`): no such grant, or one outside the caller’s scope. **409** `invalid_state` with `currentStatus`: already active; `duplicate_membership`: the user meanwhile has another active grant on the same target.',
    ),
  },

  // Audit
  ListTenantAuditLogsController_list: {
    summary: 'Query a tenant’s audit log',
    description: lines(
      perm('audit:read', 'T'),
      'Filters (exact match): `eventType`, `action`, `actorId`, `entityType`, `entityId`, `correlationId`, `method`, `route` (the route template, e.g. `/v1/devices/{deviceId}`), `statusCode`.',
      TIME_WINDOW,
      NEWEST_FIRST,
      TENANT_404,
    ),
  },
  ListAuditLogsController_list: {
    summary: 'Query the audit log of all tenants',
    description: lines(
      PLATFORM_ADMIN,
      'Every tenant’s events plus platform events (sign-ins, users, tenants); each item carries `tenantId` (null for platform events). The same filters as the tenant audit log, plus `tenantId`.',
      TIME_WINDOW,
      NEWEST_FIRST,
    ),
  },

  // Device types
  ListDeviceTypesController_list: {
    summary: 'List device types of a tenant',
    description: lines(perm('device-types:read', '*'), 'Filters: `status`, `q` (key or name substring).', ASCENDING, TENANT_404),
  },
  CreateDeviceTypeController_create: {
    summary: 'Create a device type',
    description: lines(
      perm('device-types:write', 'T'),
      `Body: \`key\` (unique per tenant), \`name\`, \`description\` optional. ${KEY_RULE} ${NAME_RULES} Answers 201 with \`lockVersion\` 1, \`ETag: "1"\` and \`Location: /v1/device-types/{deviceTypeId}\`.`,
      TENANT_404 + ' **409** `duplicate_key`.',
    ),
  },
  GetDeviceTypeController_get: {
    summary: 'Get a device type',
    description: lines(
      perm('device-types:read', '*'),
      'The response carries `ETag: "<lockVersion>"`; send it as `If-Match` on the next change.',
      '**404** (`device_type`): missing, or in a tenant the caller has no effective grant in.',
    ),
  },
  UpdateDeviceTypeController_update: {
    summary: 'Rename a device type or change its description',
    description: lines(
      perm('device-types:write', 'T'),
      '`name` and/or `description`; `key` is immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      IF_MATCH,
      '**404** (`device_type`): missing, or in a tenant the caller has no effective grant in.',
    ),
  },
  ChangeDeviceTypeStatusController_disable: {
    summary: 'Disable a device type',
    description: lines(
      perm('device-types:write', 'T'),
      '`active` → `disabled`: no new devices of this type; uplinks of its devices are stored but not processed.',
      IF_MATCH,
      '**404** (`device_type`). **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: already disabled.',
    ),
  },
  ChangeDeviceTypeStatusController_reactivate: {
    summary: 'Reactivate a device type',
    description: lines(
      perm('device-types:write', 'T'),
      '`disabled` → `active`.',
      IF_MATCH,
      '**404** (`device_type`). **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: already active.',
    ),
  },

  // Custom blocks
  ListGlobalFlowBlocksController_list: {
    summary: 'List the global custom blocks',
    description: lines(
      '**Access**: any signed-in user (global blocks are usable in every tenant).',
      'Filter: `q` (key or name substring). No sources or artifacts: read a version for those.',
      ASCENDING,
    ),
  },
  CreateGlobalFlowBlockController_create: {
    summary: 'Create a global custom block',
    description: lines(
      PLATFORM_ADMIN,
      `Body: \`key\` (matches \`^[a-z0-9][a-z0-9._-]{0,127}$\`, unique among the global blocks, immutable), \`name\`, \`description\` optional. ${NAME_RULES} Answers 201 with the block (\`scope\` \`global\`, \`tenantId\` null) and \`Location: /v1/flow-blocks/{flowBlockId}\`.`,
      '**409** `duplicate_key`.',
    ),
  },
  ListTenantFlowBlocksController_list: {
    summary: 'List the custom blocks of a tenant',
    description: lines(perm('blocks:read', 'T'), "The tenant's own blocks (global blocks are listed by `GET /v1/flow-blocks`). Filter: `q` (key or name substring). No sources or artifacts.", ASCENDING, TENANT_404),
  },
  CreateTenantFlowBlockController_create: {
    summary: 'Create a custom block in a tenant',
    description: lines(
      perm('blocks:write', 'T'),
      `Body: \`key\` (matches \`^[a-z0-9][a-z0-9._-]{0,127}$\`, unique in the tenant, immutable), \`name\`, \`description\` optional. ${NAME_RULES} Answers 201 with the block (\`scope\` \`tenant\`) and \`Location: /v1/flow-blocks/{flowBlockId}\`.`,
      TENANT_404 + ' **409** `duplicate_key`; `max_blocks`: a tenant holds at most 500 custom blocks.',
    ),
  },
  GetFlowBlockCatalogController_get: {
    summary: 'Get the block catalog of a tenant',
    description: lines(
      perm('flows:read', 'T'),
      'Unpaged `items`: every built-in block (`type` `builtin`: `key`, `version`, `ports`, `configurationSchema`), then the global blocks and the tenant’s own blocks that have released versions (`type` `custom`), each with its `released` versions newest first (`flowBlockVersionId`, `versionNumber`, `scriptContract`, `ports` `["out"]`, `configurationSchema`). Deprecated versions and drafts are not offered. Enough to draw a flow editor’s palette in one call.',
      TENANT_404,
    ),
  },
  GetFlowBlockController_get: {
    summary: 'Get a custom block',
    description: lines(
      '**Access**: a global block: any signed-in user; a tenant block: `blocks:read` through a tenant-level grant (platform administrators hold every permission). A visible block without the permission is 403 `missing_permission`.',
      EXISTENCE_404 + ' (`flow_block`)',
    ),
  },
  UpdateFlowBlockController_update: {
    summary: 'Rename a custom block or change its description',
    description: lines(
      '**Access**: a global block: platform administrators only (403 `platform_admin_required`); a tenant block: `blocks:write` through a tenant-level grant (403 `missing_permission`).',
      '`name` and/or `description`; `key` and `scope` are immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      EXISTENCE_404 + ' (`flow_block`)',
    ),
  },
  ListFlowBlockVersionsController_list: {
    summary: 'List the versions of a custom block',
    description: lines(
      '**Access**: as reading the block (global: any signed-in user; tenant: `blocks:read` through a tenant-level grant).',
      'Newest first by `versionNumber`; filter `status` (`draft`, `released`, `deprecated`); `limit` 1..100 (default 25); `items` and `nextCursor` (omitted on the last page), no total. Items carry no `sourceCode`.',
      EXISTENCE_404 + ' (`flow_block`)',
    ),
  },
  CreateFlowBlockVersionController_create: {
    summary: 'Create a draft version of a custom block',
    description: lines(
      '**Access**: a global block: platform administrators only (403 `platform_admin_required`); a tenant block: `blocks:write` through a tenant-level grant (403 `missing_permission`).',
      'Body: `sourceCode` (1..102400 characters) declaring `function transform(msg, ctx)`, or a payload codec’s `function decodeUplink(input)` (The Things Network v3, ChirpStack v4) or `function Decode(fPort, bytes, variables)` (ChirpStack v3); `configurationSchema` optional: a JSON Schema (draft 2020-12) of the node configuration, at most 32 KiB, referencing only its own parts (`#...`): an invalid schema is 400 `body.configurationSchema` with the validator’s message, a remote `$ref` or `$id` is refused; `sampleInput` required: {`payload`, `values`?, `configuration`?, `parameters`?, `input`? (a partial input envelope such as `{"connectionData": {"fPort": 1}}`)}, the message the release gate runs; `notes` optional (≤ 2000).',
      'Versions are immutable: to change one, create a new draft. Answers 201 with the version (`status` `draft`, `scriptContract` detected, or null while the source does not compile) and `Location`.',
      EXISTENCE_404 + ' (`flow_block`)',
    ),
  },
  GetFlowBlockVersionController_get: {
    summary: 'Get a custom block version with its source',
    description: lines(
      '**Access**: as reading the block (global: any signed-in user; tenant: `blocks:read` through a tenant-level grant).',
      'With `sourceCode`, and once released the `artifact` (`engine`, `engineVersion`, `sha256`, `sizeBytes`, `compiledAt`) and `gateReport`.',
      EXISTENCE_404 + ' (`flow_block`, or `flow_block_version` for a version missing or of another block)',
    ),
  },
  CompileFlowBlockVersionController_compile: {
    summary: 'Run the compile gate on a version',
    description: lines(
      '**Access**: a global block: platform administrators only (403 `platform_admin_required`); a tenant block: `blocks:write` through a tenant-level grant (403 `missing_permission`).',
      'No body. Parses the source and checks its entry function without running it. Always 200 `{passed, gateReport}`; a failure lists its issues (`syntax_error` with 1-based `line` and `column`, `missing_transform`). Nothing is stored.',
      EXISTENCE_404 + ' (`flow_block` / `flow_block_version`)',
    ),
  },
  ReleaseFlowBlockVersionController_release: {
    summary: 'Release a draft version through its gates',
    description: lines(
      '**Access**: a global block: platform administrators only (403 `platform_admin_required`); a tenant block: `blocks:release` through a tenant-level grant (403 `missing_permission`).',
      'No body. Runs the compile gate, then the sandbox gate: the script on `sampleInput` within the sandbox limits, with configuration defaults taken from `configurationSchema`. On success the version is `released` with its `artifact`, `scriptContract` and `gateReport`. On failure nothing changes: **422** `FLOW_FAILURE` with `gate` (`compile`/`sandbox`) and `issues` (`syntax_error`, `missing_transform`, `runtime_error`, `timeout`, `memory_limit`, `invalid_output`, `output_too_large`; 1-based `line`/`column` where known), recorded as a `failure` audit event.',
      EXISTENCE_404 + ' (`flow_block` / `flow_block_version`) **409** `invalid_state` with `currentStatus`: only a draft is released.',
    ),
  },
  DeprecateFlowBlockVersionController_deprecate: {
    summary: 'Deprecate a released version',
    description: lines(
      '**Access**: a global block: platform administrators only (403 `platform_admin_required`); a tenant block: `blocks:release` through a tenant-level grant (403 `missing_permission`).',
      'No body. `released` → `deprecated` (terminal): no new flow release may use it; flows already released with it keep running it.',
      EXISTENCE_404 + ' (`flow_block` / `flow_block_version`) **409** `invalid_state` with `currentStatus`: drafts and deprecated versions cannot be deprecated.',
    ),
  },

  // Device fields
  ListDeviceFieldsController_list: {
    summary: 'List the field definitions of a device type',
    description: lines(
      perm('device-types:read', '*'),
      'A JSON array, not a page: active and deprecated fields, oldest first by `createdAt`.',
      '**404** (`device_type`): missing, or in a tenant the caller has no effective grant in.',
    ),
  },
  CreateDeviceFieldController_create: {
    summary: 'Define a telemetry field of a device type',
    description: lines(
      perm('device-types:write', 'T'),
      'Body: `key` (`^[a-z][a-z0-9._-]{0,119}$`, immutable), `name`, `description` optional, `schemaRef` (`platform://schemas/number/v1`, `platform://schemas/string/v1`, `platform://schemas/boolean/v1` or `platform://schemas/json/v1`), `unit` optional (1..40 or null), `storageTargets` (1..2 unique of `current`, `timeseries`), `measurementType` (`gauge`, `counter`, `status`, `event`). A disabled type accepts new fields. Answers 201 with `lockVersion` 1, `ETag: "1"`, `Location: /v1/device-types/{deviceTypeId}/fields/{key}`.',
      '**404** (`device_type`). **409** `duplicate_key` (keys of deprecated fields stay taken), `max_fields` (200 active fields per type).',
    ),
  },
  GetDeviceFieldController_get: {
    summary: 'Get a field definition',
    description: lines(
      perm('device-types:read', '*'),
      'Active or deprecated; the response carries `ETag: "<lockVersion>"`. The path `key` must match `^[a-z][a-z0-9._-]{0,119}$` (else 400).',
      '**404** `device_type` (missing or invisible type) or `device_field` (no field with this key).',
    ),
  },
  UpdateDeviceFieldController_update: {
    summary: 'Change a field’s name, description, unit or storage targets',
    description: lines(
      perm('device-types:write', 'T'),
      'Any of `name`, `description`, `unit` (null clears it), `storageTargets`; `key`, `schemaRef` and `measurementType` are immutable. ' +
        PATCH_RULES.replace(/; `metadata`.*$/, '.'),
      IF_MATCH,
      '**404** `device_type` or `device_field`. **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: the field is deprecated.',
    ),
  },
  DeprecateDeviceFieldController_deprecate: {
    summary: 'Deprecate a field definition',
    description: lines(
      perm('device-types:write', 'T'),
      '`active` → `deprecated` (terminal): `deprecatedAt` is set, the field stays listed, its key stays taken, and current values no longer show it; its stored measurements stay readable.',
      IF_MATCH,
      '**404** `device_type` or `device_field`. **409** `lock_version_mismatch`; `invalid_state` with `currentStatus`: already deprecated.',
    ),
  },

  // Devices
  ListDevicesController_list: {
    summary: 'List devices of a tenant',
    description: lines(
      perm('devices:read', 'S'),
      'Visible devices only: those whose current unit the caller can access, and unassigned ones for callers with a tenant-level grant. Filters: `status`, `deviceTypeId`, `organizationUnitId` with `includeDescendants` (default true), `devEui` (exact), `q` (name substring or devEui prefix). An unknown or invisible `deviceTypeId`/`organizationUnitId` is 400 `reference_not_found`.',
      ASCENDING,
      TENANT_404,
    ),
  },
  CreateDeviceController_create: {
    summary: 'Register a device',
    description: lines(
      '**Access**: `devices:write` covering the target unit; a device without `organizationUnitId` (unassigned) needs a tenant-level grant.',
      'Body: `devEui` (16 uppercase hex characters, stored exactly as sent, immutable), `name`, `deviceTypeId` (an active type of the tenant, immutable), `metadata` optional, `organizationUnitId` optional (opens the first assignment period now; required for callers without a tenant-level grant). An unknown or invisible type or unit is 400 `reference_not_found`. Answers 201 with `Location: /v1/devices/{deviceId}`.',
      TENANT_404 +
        ' **409** `duplicate_dev_eui` (a non-retired device of any tenant holds it; the other tenant is not named), `device_type_disabled`, `organization_unit_disabled`.',
    ),
  },
  GetDeviceController_get: {
    summary: 'Get a device',
    description: lines(perm('devices:read', 'S'), 'Includes `currentAssignment`, the open period, or null while unassigned.', EXISTENCE_404),
  },
  UpdateDeviceController_update: {
    summary: 'Rename a device or replace its metadata',
    description: lines(
      perm('devices:write', 'S'),
      '`name` and/or `metadata`; `devEui` and `deviceTypeId` are immutable. ' + PATCH_RULES,
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: the device is retired.',
    ),
  },
  ChangeDeviceStatusController_disable: {
    summary: 'Disable a device',
    description: lines(
      perm('devices:write', 'S'),
      '`active` → `disabled`: its uplinks are stored but not processed.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: not `active`.',
    ),
  },
  ChangeDeviceStatusController_reactivate: {
    summary: 'Reactivate a disabled device',
    description: lines(perm('devices:write', 'S'), '`disabled` → `active`.', EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: not `disabled`.'),
  },
  ChangeDeviceStatusController_retire: {
    summary: 'Retire a device for good',
    description: lines(
      perm('devices:write', 'S'),
      '`active` or `disabled` → `retired` (terminal): the open assignment period ends now and the devEui becomes free for a new device; its history and measurements stay readable.',
      EXISTENCE_404 + ' **409** `invalid_state` with `currentStatus`: already retired.',
    ),
  },

  // Device assignments
  ListDeviceAssignmentsController_list: {
    summary: 'List a device’s assignment periods',
    description: lines(
      perm('devices:read', 'S'),
      'The periods the caller may see: all of them with whole-tenant scope, otherwise only periods in units it can access.',
      ASCENDING,
      EXISTENCE_404,
    ),
  },
  AssignDeviceController_assign: {
    summary: 'Assign a device to a unit, or move it',
    description: lines(
      '**Access**: `devices:assign` covering both the current unit (if any) and the target unit.',
      'Body: `organizationUnitId`, `validFrom` optional (default now). The open period, if any, is closed at `validFrom` and a new one opens there. `validFrom` in the future, not after the open period’s start, or before the last period’s end is 400 `body.validFrom` `range`; an unknown or invisible unit is 400 `reference_not_found`. Answers 201 with `Location: /v1/devices/{deviceId}/assignments/{deviceAssignmentId}`.',
      EXISTENCE_404 +
        ' **409** `already_assigned` (already in that unit, or a concurrent move won), `organization_unit_disabled`, `invalid_state` (the device is retired).',
    ),
  },
  GetDeviceAssignmentController_get: {
    summary: 'Get one assignment period of a device',
    description: lines(
      perm('devices:read', 'S'),
      '**404**: the device or the period is missing, in another tenant, or outside the caller’s scope (a period in a unit the caller cannot access included).',
    ),
  },
  EndDeviceAssignmentController_end: {
    summary: 'End a device’s open assignment period',
    description: lines(
      perm('devices:assign', 'S'),
      'Body: `validTo` optional (default now); not after the period’s start or in the future is 400 `body.validTo` `range`. The device becomes unassigned.',
      '**404**: the device or the period is missing or invisible. **409** `assignment_closed`: the period has already ended.',
    ),
  },

  // Telemetry
  GetCurrentValuesController_get: {
    summary: 'Get a device’s current values',
    description: lines(
      perm('telemetry:read', 'S'),
      'One entry per active field of the device type, in field `createdAt` order: its `definition` and `currentValue` (null until the first value is stored). Deprecated fields are omitted.',
      EXISTENCE_404,
    ),
  },
  ListMeasurementsController_list: {
    summary: 'Query a device’s measurements',
    description: lines(
      perm('telemetry:read', 'S') + ' A unit-scoped caller sees only points observed while the device was in a unit it can access.',
      '`from` and `to` are required (RFC 3339, half-open `[from, to)`): span ≤ 31 days raw, ≤ 366 days with `bucket`, else 400 `query.to` `max_span`; `from >= to` is `query.to` `range`. `fieldKeys`: comma-separated, 1..50 timeseries fields (default all, deprecated included); a field without the timeseries target is 400 `not_timeseries_field`. `bucket` (`1m`, `5m`, `15m`, `1h`, `6h`, `1d`) returns buckets with `aggregation` (`avg` default, `min`, `max`, `sum`, `count`, `last`; non-numeric fields allow `count` and `last` only, else `aggregation_not_applicable`); `aggregation` without `bucket` is 400 `query.bucket` `required`.',
      '**Paging** (chronological family): ordered by (`observedAt` or `bucketStart`, `fieldKey`); `limit` 1..1000 (default 100); `items` and `nextCursor` (omitted on the last page), no total. Continuations repeat the same query.',
      EXISTENCE_404,
    ),
  },

  // Flows
  CreateFlowController_create: {
    summary: 'Create the flow of a device type',
    description: lines(
      perm('flows:write', 'T'),
      `Body: \`key\` (unique per tenant), \`name\`, \`description\` optional. ${KEY_RULE} ${NAME_RULES} Creates the device type's single flow and its first draft (version 1, \`flow-graph.v2\` with the two output nodes, no edges, no parameters) in one transaction. Answers 201 with \`ETag: "1"\` and \`Location: /v1/flows/{flowId}\`; \`activeVersionId\`/\`activeVersionNumber\` stay null until the first activation.`,
      '**404** (`device_type`): missing or invisible. **409** `flow_exists` (the type has its flow), `duplicate_key`.',
    ),
  },
  GetDeviceTypeFlowController_get: {
    summary: 'Get the flow of a device type',
    description: lines(perm('flows:read', 'T'), 'With `ETag` (the flow’s lockVersion).', '**404** `device_type` when the type is missing or invisible, `flow` when it has no flow yet.'),
  },
  ListFlowsController_list: {
    summary: 'List flows of a tenant',
    description: lines(perm('flows:read', 'T'), 'Filters: `deviceTypeId`, `q` (key or name substring).', ASCENDING, TENANT_404),
  },
  GetFlowController_get: {
    summary: 'Get a flow',
    description: lines(perm('flows:read', 'T'), 'With `ETag`; the lockVersion changes only on PATCH and on activation or rollback.', EXISTENCE_404),
  },
  UpdateFlowController_update: {
    summary: 'Rename a flow or change its description',
    description: lines(perm('flows:write', 'T'), '`name` and/or `description`; `key` and the device type are immutable. ' + PATCH_RULES.replace(/; `metadata`.*$/, '.'), IF_MATCH, EXISTENCE_404),
  },
  ActivateFlowController_activate: {
    summary: 'Activate or roll back a flow version',
    description: lines(
      perm('flows:release', 'T'),
      'Body `flowVersionId`: a released version of this flow (a version of another flow is 400 `body.flowVersionId` `reference_not_found`). Atomic: of two parallel activations with the same ETag one wins, the other gets 409 `lock_version_mismatch`. Audited as `flow.activated`, or `flow.rolled_back` when the new version’s number is lower than the active one’s.',
      IF_MATCH,
      EXISTENCE_404 + ' **409** `version_not_released` (+`currentStatus`; a deprecated version cannot be activated again), `already_active`.',
    ),
  },
  ListFlowVersionsController_list: {
    summary: 'List versions of a flow',
    description: lines(
      perm('flows:read', 'T'),
      'Filter `status` (`draft`, `released`, `deprecated`). **Paging** (newest-first family): by `versionNumber` descending; `limit` 1..100 (default 25); `cursor` ≤ 512 characters; `items` and `nextCursor`, no total; continuations repeat `status` and `limit` (else 400 `cursor_mismatch`).',
      EXISTENCE_404,
    ),
  },
  CreateFlowVersionController_create: {
    summary: 'Save a new draft version',
    description: lines(
      perm('flows:write', 'T'),
      'Body `graph` (`flow-graph.v2`) and `parameters` (default `[]`). Versions are immutable, drafts included: an edit is a new draft numbered max + 1 (parallel saves never collide). Save rules, 400 with paths under `body.graph` / `body.parameters`: the shape and limits (2..102 nodes, ≤ 500 edges, `nodeId` 1..120, `name` 1..200, `configuration` ≤ 32 KiB, finite `position`), `schemaVersion`, `deviceTypeId` = the flow’s (`mismatch`), exactly one node of each output kind (`system_node_count`), unique `nodeId` (`unique`), `block` null on outputs and required on blocks, edges between existing nodes (`reference_not_found`), no self-loop (`mismatch`) or duplicate (`unique`); ≤ 50 parameters with unique keys and typed defaults. Compile rules are the validate operation’s, not the save’s.',
      EXISTENCE_404,
    ),
  },
  GetFlowVersionController_get: {
    summary: 'Get a flow version',
    description: lines(perm('flows:read', 'T'), 'A version of another flow is the version’s 404.', EXISTENCE_404),
  },
  ValidateFlowVersionController_validate: {
    summary: 'Validate a flow version',
    description: lines(
      perm('flows:read', 'T'),
      'A read: any status, against the device type’s current fields and the current blocks; stores nothing. Returns `valid` (no `error` issue), the `checksum` a release would record and every issue with `severity`, `code` and `path`. Errors: `cycle_detected`, `multiple_inputs`, `invalid_port`, `unknown_block`, `block_version_not_released`, `block_version_deprecated`, `invalid_configuration` (against the block’s configuration schema, `$param` values resolved), `unknown_field`, `field_target_mismatch`, `schema_ref_mismatch`, `undeclared_parameter`, `parameter_type_mismatch`, `unknown_email_template`. Warnings: `email_template_inactive`, `unreachable_output`, `dead_end_node`.',
      EXISTENCE_404,
    ),
  },
  ReleaseFlowVersionController_release: {
    summary: 'Release a draft version',
    description: lines(
      perm('flows:release', 'T'),
      '`draft` → `released` when it validates without errors; records `checksum` (lowercase hex SHA-256 of the RFC 8785 canonical JSON of {graph, parameters}) and `releasedAt`. Does not activate.',
      EXISTENCE_404 + ' **409** `invalid_state` (+`currentStatus`). **422** FLOW_FAILURE `gate` `compile` with `details.issues` (audited as a failure).',
    ),
  },
  DeprecateFlowVersionController_deprecate: {
    summary: 'Deprecate a released version',
    description: lines(
      perm('flows:release', 'T'),
      '`released` → `deprecated` (terminal). An active version stays active but can never be activated again.',
      EXISTENCE_404 + ' **409** `invalid_state` (+`currentStatus`): drafts are never deprecated.',
    ),
  },

  ListFixturesController_list: {
    summary: 'List fixtures of a flow',
    description: lines(perm('flows:read', 'T'), ASCENDING, EXISTENCE_404),
  },
  CreateFixtureController_create: {
    summary: 'Create a fixture',
    description: lines(
      perm('flows:write', 'T'),
      'Shape 1: `input` (complete: `mode` `fixture`, `rawPayload` {`encoding` `base64`/`hex`/`utf8`/`json`, `data` ≤ 65536 characters that decodes}, `observedAt`, `rawReceivedAt`, `tenantId` and `deviceTypeId` = the flow’s (else `mismatch`), `deviceId` (need not exist), `correlationId` 1..128, `connectionData` ≤ 16 KiB, `parameters`), `name` and `assertions` optional. Shape 2: `raw` {`rawIngestionMessageId`, `receivedAt`} with `confirmRawRetentionExtension: true` (else `must_be_true`, or `required`): a stored raw message received at exactly that instant and routed to a device of the flow’s device type in its tenant, else 400 `body.raw` `reference_not_found`; without `input` the input is derived from the message (`rawPayload`, `observedAt` (else its receipt time), `rawReceivedAt`, `deviceId`, `correlationId`, `connectionData`, `parameters` {}). The message is then pinned (kept by retention) while any fixture references it. Assertions ≤ 50 × {`path` 1..500, `expected`}. Answers 201 with `ETag: "1"` and `Location`.',
      EXISTENCE_404 + ' **409** `max_fixtures` (100 per flow).',
    ),
  },
  GetFixtureController_get: {
    summary: 'Get a fixture',
    description: lines(perm('flows:read', 'T'), 'With `ETag`; another flow’s fixture is the fixture’s 404.', EXISTENCE_404),
  },
  ReplaceFixtureController_replace: {
    summary: 'Replace a fixture',
    description: lines(perm('flows:write', 'T'), 'The whole fixture, shape 1 or 2 as on create (fixture updated: the record and a new `ETag`).', IF_MATCH, EXISTENCE_404),
  },
  DeleteFixtureController_delete: {
    summary: 'Delete a fixture',
    description: lines(perm('flows:write', 'T'), '204.', IF_MATCH.replace(' Success increments `lockVersion` by 1 and returns the new `ETag`.', ''), EXISTENCE_404),
  },
  RunFixturesController_run: {
    summary: 'Run fixtures against a flow version',
    description: lines(
      perm('flows:write', 'T'),
      'Runs every fixture of the flow (or the `fixtureIds` named, 1..100, unique, in that order) against `flowVersionId` (a version of this flow in any status) and evaluates their assertions: `path` (dots and `[n]`) into {`status`, `current`, `timeseries`, `actions`, `error`}, deep JSON equality; a fixture without assertions passes unless its execution failed. Parameters are the version’s defaults overlaid by the fixture’s `input.parameters` (stored overrides are ignored, so a run is deterministic). Returns the FixtureRun (`total`, `passed`, `failed`, per fixture `passed`, `status`, `assertions`, `error`); nothing is stored or sent, and nothing is audited.',
      EXISTENCE_404 + ' **400** `reference_not_found` at `body.flowVersionId` or `body.fixtureIds[n]` (not of this flow). **422** FLOW_FAILURE `gate` `compile` with `details.issues`: a draft with an `error` issue (a released or deprecated version runs as it would live). **503** DEPENDENCY_FAILURE `sandbox`.',
    ),
  },
  PreviewFlowController_preview: {
    summary: 'Preview a flow version on one input',
    description: lines(
      perm('flows:write', 'T'),
      'Runs `flowVersionId` (a version of this flow in any status) on `input`, the complete input envelope with `mode` `preview` (the fixture input rules; `tenantId` and `deviceTypeId` must be the flow’s, else `mismatch`; `deviceId` need not exist). Parameters are the version’s defaults overlaid by `input.parameters`; stored overrides are ignored. Returns the ExecutionResult with its per-node trace; the same version and input always give the same result apart from durations. Nothing is stored or sent, and nothing is audited.',
      EXISTENCE_404 + ' **400** input rules under `body.input`; `reference_not_found` at `body.flowVersionId`. **422** FLOW_FAILURE `gate` `compile` with `details.issues`: a draft with an `error` issue. **503** DEPENDENCY_FAILURE `sandbox`.',
    ),
  },
  ListParameterOverridesController_list: {
    summary: 'List parameter overrides of a flow',
    description: lines(
      perm('flows:read', 'T'),
      'The overrides that can apply to the flow: the tenant’s (they apply to every flow declaring the key), the device type’s and its devices’. Filters: `level` (`tenant`, `device_type`, `device`), `deviceId`, `key`.',
      ASCENDING,
      EXISTENCE_404,
    ),
  },
  SetTenantParameterOverrideController_set: {
    summary: 'Set a tenant-level parameter override',
    description: lines(
      perm('flows:write', 'T'),
      'Upsert of `value` for `key` at tenant level: it applies to every flow of the tenant declaring the key. 400 `params.key` `undeclared_parameter` when no version of this flow declares the key; 400 `body.value` `type` when the value is not of the newest declaration’s type.',
      EXISTENCE_404,
    ),
  },
  SetDeviceTypeParameterOverrideController_set: {
    summary: 'Set a device-type parameter override',
    description: lines(perm('flows:write', 'T'), 'Upsert of `value` for `key` for the flow’s device type. 400 `undeclared_parameter` (params.key), `type` (body.value) as for the tenant level.', EXISTENCE_404),
  },
  SetDeviceParameterOverrideController_set: {
    summary: 'Set a device parameter override',
    description: lines(perm('flows:write', 'T'), 'Upsert of `value` for `key` for one device of the flow’s device type (another device is the device’s 404). 400 `undeclared_parameter`, `type` as for the tenant level.', EXISTENCE_404),
  },
  DeleteTenantParameterOverrideController_delete: {
    summary: 'Delete a tenant-level parameter override',
    description: lines(perm('flows:write', 'T'), '204; the default applies again.', EXISTENCE_404 + ' Also 404 (`flow_parameter_override`) when there is no such override.'),
  },
  DeleteDeviceTypeParameterOverrideController_delete: {
    summary: 'Delete a device-type parameter override',
    description: lines(perm('flows:write', 'T'), '204; the tenant value or the default applies again.', EXISTENCE_404 + ' Also 404 (`flow_parameter_override`) when there is no such override.'),
  },
  DeleteDeviceParameterOverrideController_delete: {
    summary: 'Delete a device parameter override',
    description: lines(perm('flows:write', 'T'), '204; the device-type or tenant value or the default applies again.', EXISTENCE_404 + ' Also 404 (`flow_parameter_override`) when there is no such override.'),
  },
  GetResolvedParametersController_get: {
    summary: 'Resolve a device’s parameter values',
    description: lines(
      perm('flows:read', 'T'),
      'For diagnostics: each parameter declared by the version (`flowVersionId`, default the active version) with its `value` and `source`: the device’s override, else the device type’s, else the tenant’s, else the declared `default`; an override whose value is not of the declared type is skipped. `deviceId` (required) must be a device of the flow’s device type (else 400 `query.deviceId` `reference_not_found`).',
      EXISTENCE_404 + ' **409** `no_active_version` when no `flowVersionId` is given and the flow has none active.',
    ),
  },

  // Diagnostics
  GetVersionController_version: {
    summary: 'Get the deployed version',
    description: lines('**Access**: any signed-in user.', 'The service version, API version and, when known, the git commit and build time.'),
  },
  GetReadinessController_readiness: {
    summary: 'Check every dependency (platform admins)',
    description: lines(
      '**Access**: platform admins only; anyone else gets 403 `platform_admin_required` before anything is checked.',
      'Always 200. `status` is `ready` when every critical check is up (the same rule as the public `/readyz` probe): `database` (PostgreSQL answers within one second) and `migrations` (every migration of this build is applied; `pending` counts the missing ones). `sandbox` (the script sandbox host compiles a trivial script) and, with MQTT_ENABLED, `mqtt` (connected to the broker) are reported but never make the service unready. Each check carries `latencyMs` and, when down, a fixed `message` (never driver text).',
    ),
  },
  EchoController_echo: {
    summary: 'Exercise the request path',
    description: lines(
      '**Access**: any signed-in user.',
      'Echoes `message` (1..1000 characters) with the correlation id, the time received, the caller’s user id and one database round trip in milliseconds: a quick end-to-end check of authentication, validation, the database and the error envelope.',
    ),
  },
};
