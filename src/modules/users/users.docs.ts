import { defineDocs, ASCENDING, PATCH_RULES, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const USERS_DOCS = defineDocs({
  users_list: {
    summary: 'List users',
    description: lines(
      'Filters: `status` (`active`, `disabled`), `q` (≤ 100 characters; case-insensitive substring of username, e-mail or display name).',
      ASCENDING,
    ),
  },
  users_create: {
    summary: 'Create a user with a temporary password',
    description: lines(
      'Body: `username` (`^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$`), `email` (≤ 254), `displayName` (1..200), `temporaryPassword` (password policy: 12..128, not the username or e-mail), `metadata` optional. The user must change the password at the first sign-in (`passwordChangeRequired` true). Answers 201 with `Location: /v1/users/{userId}`; the body omits `username`.',
      'The user has no tenant access until a membership grant is created.',
      '**409** `duplicate_username` or `duplicate_email` (compared ignoring case).',
    ),
    errors: { 409: 'duplicate_username' },
  },
  users_get: {
    summary: 'Get a user',
    description: '**400**: `userId` not a UUID. **404** `RESOURCE_NOT_FOUND` (`user`): no such user.',
  },
  users_update: {
    summary: 'Update a user, or disable or reactivate it',
    description: lines(
      'Any of `username`, `email`, `displayName`, `status` (`active` ⇄ `disabled`), `metadata`. ' + PATCH_RULES,
      'Disabling revokes every session of the user; setting the current status again is a no-op answered 200.',
      '**404** (`user`): no such user. **409** `duplicate_username`, `duplicate_email`; `protected_user` (the bootstrapped administrator cannot be disabled); `self_lockout` (disabling yourself); `last_platform_admin` (disabling the last active platform administrator).',
    ),
    errors: { 409: 'duplicate_username' },
  },
  users_setTemporaryPassword: {
    summary: 'Reset a user’s password to a temporary one',
    description: lines(
      'Body: `temporaryPassword` (password policy). Sets `passwordChangeRequired` and revokes every session of the user, who must change the password at the next sign-in.',
      '**404** (`user`): no such user. **409** `protected_user` (the bootstrapped administrator), `self_target` (use `POST /v1/auth/change-password` for yourself).',
    ),
    errors: { 409: { reason: 'protected_user', message: 'This user is protected and cannot be given a temporary password.' } },
  },
  users_grantPlatformAdmin: {
    summary: 'Make a user a platform administrator',
    description: lines(
      'Idempotent: granting the role again answers 200 with the unchanged user. The user’s cached authorization is refreshed on the next request.',
      '**404** (`user`): no such user.',
    ),
  },
  users_revokePlatformAdmin: {
    summary: 'Remove the platform administrator role from a user',
    description: lines(
      'Idempotent: revoking a role the user does not hold answers 200.',
      '**404** (`user`): no such user. **409** `protected_user` (the bootstrapped administrator), `self_lockout` (your own role), `last_platform_admin`.',
    ),
    errors: { 409: 'protected_user' },
  },
  userMemberships_list: {
    summary: 'List a user’s membership grants in every tenant',
    description: lines(
      'The user’s membership history: grants of all tenants and statuses, each with its `tenantNumber`. Filters: `status`, `tenantId` (UUID).',
      ASCENDING,
      '**404** (`user`): no such user.',
    ),
  },
});
