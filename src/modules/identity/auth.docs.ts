import { defineDocs, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const AUTH_DOCS = defineDocs({
  auth_login: {
    summary: 'Sign in with a username or e-mail and a password',
    description: lines(
      '**Access**: public (no bearer token).',
      'Body: `identifier` (username or e-mail, 1..320 characters) and `password` (1..1024, used exactly as typed). Answers the token object and sets the refresh cookie (`__Host-platform_refresh`, or `platform_refresh` when `REFRESH_COOKIE_SECURE=false`) for `POST /v1/auth/refresh`.',
      'If `passwordChangeRequired` is true (a bootstrapped or temporary password), the token only allows `GET /v1/auth/me`, `POST /v1/auth/change-password` and the logout operations until the password is changed.',
      'A user keeps at most 10 active sessions; the 11th sign-in revokes the least recently used one.',
      '**401** `AUTHENTICATION_FAILED`: one generic answer for an unknown identifier, a wrong password, a disabled user or an account without a password. **429** `RATE_LIMITED` with `Retry-After`: after `LOGIN_MAX_FAILURES` (default 5) consecutive failures for the identifier, until `LOGIN_LOCKOUT_MINUTES` (default 15) after the last, or over `LOGIN_IP_ATTEMPTS_PER_MINUTE` (default 20) attempts a minute from one address; checked before the password.',
    ),
    errors: { 401: 'Sign-in failed: check the identifier and password.' },
  },
  auth_refresh: {
    summary: 'Exchange the refresh cookie for a new access token',
    description: lines(
      '**Access**: the refresh cookie plus an `Origin` header that exactly matches one of `ALLOWED_ORIGINS`; no bearer token and no body. Each refresh rotates the cookie and moves the 7-day inactivity deadline (`refreshIdleExpiresAt`).',
      '**401**: cookie missing, invalid, expired, revoked or reused; the cookie is cleared. Reusing a rotated token after the race window revokes the whole session. **403** `origin_not_allowed`: the `Origin` is not allowlisted. **409** `refresh_in_progress` with `Retry-After: 1`: the same token was rotated in the last few seconds (two tabs refreshing at once); retry once with the current cookie.',
    ),
    errors: { 401: 'The refresh cookie is missing, invalid, expired or revoked.', 403: 'origin_not_allowed', 409: 'refresh_in_progress' },
  },
  auth_logout: {
    summary: 'Sign out of this session',
    description: lines(
      '**Access**: the bearer token and an allowlisted `Origin`; allowed while a password change is pending.',
      'Revokes the session of the refresh cookie when it belongs to the caller, otherwise the bearer token’s session, and clears the cookie. Answers 204.',
      '**403** `origin_not_allowed`: the `Origin` header is not in `ALLOWED_ORIGINS`.',
    ),
    errors: { 403: 'origin_not_allowed' },
  },
  auth_logoutAll: {
    summary: 'Sign out of every session',
    description: lines(
      '**Access**: any signed-in user, also while a password change is pending.',
      'Revokes every session of the caller (the current one too) and clears the refresh cookie. Answers 204; tokens of the revoked sessions fail with 401 `revoked_session` from the next request on.',
    ),
  },
  auth_me: {
    summary: 'Who am I: user, session, roles and grants',
    description: lines(
      '**Access**: any signed-in user, also while a password change is pending.',
      'Returns the user, the current session, global platform roles, `passwordChangeRequired`, the caller’s effective membership grants with their permissions, and `currentTenant`: the tenant of the optional `tenantNumber` query if visible, else the only visible tenant, else null. `analytics` is present only when product analytics is enabled and holds pseudonymous ids only.',
      '**400**: `tenantNumber` not an integer 1..2147483647.',
    ),
  },
  auth_changePassword: {
    summary: 'Change the own password (also the forced change)',
    description: lines(
      '**Access**: any signed-in user, also while a password change is pending: this is how a bootstrapped administrator or a user with a temporary password completes the forced change.',
      'Body: `currentPassword` and `newPassword` (12..128 characters, not equal to the username or e-mail ignoring case). Every earlier session, the calling one included, is revoked; the answer is the token object of one new session and a new refresh cookie; `passwordChangeRequired` becomes false.',
      '**400** `body.currentPassword` `incorrect`, `body.newPassword` `unchanged` or `password_policy`. **429**: wrong current passwords count against the sign-in throttle.',
    ),
  },
});
