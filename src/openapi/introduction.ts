/** The document's introduction (`info.description`), shown at the top of `/docs`. Markdown. */
export const INTRODUCTION = `
Uplink is a multi-tenant IoT telemetry platform: tenants, their organization-unit trees, membership grants, device
types with their telemetry fields, devices with their assignment history, current values and measurements, and the
audit log. Every operation below states who may call it, its validation and state rules, and its errors.

## Signing in

1. \`POST /v1/auth/login\` with \`{"identifier": "<username or e-mail>", "password": "<password>"}\`. The answer holds
   \`accessToken\` (a JWT, valid \`expiresInSeconds\`, 1800 by default) and \`passwordChangeRequired\`, and sets the
   refresh cookie.
2. Send the token on every other request: \`Authorization: Bearer <accessToken>\`. A missing, invalid, expired or
   revoked token answers 401 with \`WWW-Authenticate: Bearer\`.
3. **Forced password change.** The first platform administrator created at start-up (bootstrapped, with the one-time
   password) and every user given a temporary password by an administrator sign in with \`passwordChangeRequired:
   true\`. Until they call \`POST /v1/auth/change-password\` with \`{"currentPassword": "...", "newPassword": "..."}\`
   (12 to 128 characters, not the username or e-mail), every other operation answers 403 \`password_change_required\`;
   only \`GET /v1/auth/me\`, the change itself and the logout operations work. The change revokes every earlier session
   and answers a new token and cookie: use the new token from then on.

## Using "Authorize" in /docs

Call \`POST /v1/auth/login\` here ("Try it out"), copy \`accessToken\` from the answer, press **Authorize**, paste the
token (without the \`Bearer \` prefix) into the **bearer** scheme and close the dialog. Every request from this page
then carries it. After the forced password change, authorize again with the token \`change-password\` returned. Tokens
expire after \`expiresInSeconds\`; sign in again (or refresh) and re-authorize. The cookie scheme in the dialog needs
nothing: the browser stores the refresh cookie at sign-in and sends it itself (over HTTPS, or on plain HTTP with
\`REFRESH_COOKIE_SECURE=false\`); refreshing from this page also needs its origin in \`ALLOWED_ORIGINS\`.

## The refresh cookie

Sign-in, refresh and the password change set an opaque, rotating refresh token in a cookie that is HttpOnly,
SameSite=Strict, host-only and valid for 7 days of inactivity (\`refreshIdleExpiresAt\`). It is named
\`__Host-platform_refresh\` and marked \`Secure\`, so browsers only send it over HTTPS; a local plain-HTTP deployment
sets \`REFRESH_COOKIE_SECURE=false\` and the cookie is then \`platform_refresh\` without \`Secure\`. The refresh token
never appears in a JSON body.

\`POST /v1/auth/refresh\` (no bearer token, no body) exchanges the cookie for a new access token and a rotated cookie. It
needs an \`Origin\` header exactly equal to one of \`ALLOWED_ORIGINS\` (else 403 \`origin_not_allowed\`). Two refreshes with
the same cookie within a few seconds: the second answers 409 \`refresh_in_progress\` with \`Retry-After: 1\`; retry once.
Reusing a rotated cookie later revokes the session (401). Browsers keep the access token in memory only.

## Errors

Every error answers the same envelope, with \`Cache-Control: no-store\`:

\`\`\`json
{"error": {"code": "VALIDATION_FAILED", "category": "validation",
  "message": "The request is invalid: body.name: This property must not be blank.",
  "correlationId": "3f1c9a52-8d4e-4f7b-9a61-0c2e5b7d9e14",
  "details": {"fields": [{"path": "body.name", "rule": "blank", "message": "This property must not be blank."}]}}}
\`\`\`

| HTTP | \`code\` | \`details\` |
|---|---|---|
| 400 | \`VALIDATION_FAILED\` | \`fields\`: up to 50 × {\`path\` (\`body.…\`, \`query.…\`, \`params.…\`, \`headers.…\`), \`rule\`, \`message\`} |
| 401 | \`AUTHENTICATION_FAILED\` | \`reason\`: \`missing_token\`, \`invalid_token\`, \`expired_token\`, \`revoked_session\` (none for a failed sign-in) |
| 403 | \`AUTHORIZATION_FAILED\` | \`reason\`: \`password_change_required\`, \`platform_admin_required\`, \`missing_permission\` (+\`permission\`), \`origin_not_allowed\` |
| 404 | \`RESOURCE_NOT_FOUND\` | \`resourceType\` |
| 409 | \`CONFLICT\` | \`reason\` (per operation), \`currentStatus\` or \`currentLockVersion\` where relevant |
| 429 | \`RATE_LIMITED\` | \`retryAfterSeconds\` (also the \`Retry-After\` header) |
| 500 | \`INTERNAL_ERROR\` | none: a generic message only |
| 503 | \`DEPENDENCY_FAILURE\` | \`dependency\`, \`reason\` (+\`Retry-After\`) |

Checks run in this order and the first failure wins: rate limit (429), authentication (401), pending password change
(403), platform-administrator-only operation (403), request validation (400: path, query, headers, body), the target or
tenant (404), permission (403), \`If-Match\` (409), business rules (409).

**Existence rule**: a resource in another tenant or outside your organization scope answers exactly the 404 of a
missing one, never 403; 403 \`missing_permission\` is only for a target you can see.

## Correlation ids

Send \`X-Correlation-Id\` (1 to 128 characters of \`A-Z a-z 0-9 . _ : -\`) to trace a request; otherwise the service
generates a UUID. It is echoed in the \`X-Correlation-Id\` response header, in every error body (\`correlationId\`), in
the audit log and in the service logs. Quote it when reporting a problem.

## Pagination

Lists answer \`items\` and, when more follow, \`nextCursor\`: an opaque, signed string (≤ 512 characters). Fetch the next
page with \`cursor=<nextCursor>\` and **the same filters and \`limit\`**; a cursor used with other filters answers 400
\`query.cursor\` \`cursor_mismatch\`, an altered one \`cursor_invalid\`. \`nextCursor\` is absent on the last page.

- Ascending lists (users, tenants, units, memberships, device types, devices, assignments): oldest first by
  (\`createdAt\`, id); \`limit\` 25, 50 or 100 (default 25); exact \`totalCount\`.
- Newest-first lists (audit): \`limit\` 1 to 100 (default 25); no total; page 1 fixes the time window's upper bound.
- Measurements: chronological; \`limit\` 1 to 1000 (default 100).

## Optimistic concurrency: ETag and If-Match

Device types and field definitions carry \`lockVersion\`, also sent as the \`ETag\` header (\`"3"\`). Every change to them
requires \`If-Match\` with the \`ETag\` you read (\`"3"\` or \`W/"3"\`): missing or malformed answers 400
\`headers.if-match\`; if someone changed the resource meanwhile, 409 \`lock_version_mismatch\` with
\`currentLockVersion\`. Re-read, re-apply your change and retry. A success increments \`lockVersion\` and returns the new
\`ETag\`.

## Conventions

JSON only (\`Content-Type: application/json\`); unknown properties answer 400 \`unknown_property\`. Timestamps are UTC
with milliseconds on output (\`2026-03-14T09:26:53.589Z\`) and RFC 3339 with any offset on input. Ids are UUIDs, except
\`tenantNumber\`. Creating answers 201 with \`Location\`; \`PATCH\` changes only what you send (at least one property);
state changes are \`POST …/disable\`, \`…/reactivate\` and similar actions. Every \`/v1\` response carries
\`Cache-Control: no-store\`.

## Guides

The repository's documentation goes beyond single operations. \`README.md\` is the front door (what Uplink is,
starting it, signing in); beside it, in \`docs/\`:

- \`docs/walkthrough.md\`: every request from nothing to a first processed uplink (tenant, device type, fields, device,
  a codec block, the flow graph, release and activation, an ingestion credential, an uplink, the current values).
- \`docs/configuration.md\`: every environment variable, an external PostgreSQL, the npm commands.
- \`docs/operations.md\`: Docker Compose, cookies on plain HTTP, proxies, Kubernetes, probes, scaling.
- \`docs/ingestion.md\`: ingestion credentials, ChirpStack, The Things Stack, MQTT, processing, retention.
- \`docs/flows.md\`: custom blocks, the script sandbox, payload codecs, the flow engine, executions and replays.
- \`docs/email-actions.md\`: e-mail templates, the template syntax and variables, recipient bindings.
- \`docs/flow-templates.md\`: flow templates, copying one into a flow, upgrading to a newer version, the starter catalog.
- \`docs/legacy-import.md\`: the legacy snapshot import: the allowed address, what is and is not imported, the dry run.
- \`docs/email.md\`: e-mail delivery: SMTP settings, retries, dead letters, the kill-switch, flood control, the delivery log.
- \`docs/background-jobs.md\`, \`docs/benchmarks.md\`, \`docs/postman.md\`, \`docs/architecture.md\`.
`.trim();
