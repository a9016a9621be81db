import { defineDocs, lines } from '../../shared/http/route-docs';

const ASCENDING =
  '**Paging** (ascending family): ordered by (`createdAt`, id); `limit` 25, 50 or 100 (default 25); `items`, `nextCursor` (omitted on the last page) and the exact `totalCount`. Repeat the same filters and `limit` with `cursor` (else 400 `cursor_mismatch`).';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const INGESTION_CREDENTIALS_DOCS = defineDocs({
  tenantIngestionCredentials_list: {
    summary: 'List a tenant\'s ingestion credentials',
    description: lines(
      'Filter `status` (`active`, `revoked`). Tokens are never shown again; `tokenPrefix` identifies one.',
      ASCENDING,
    ),
  },
  tenantIngestionCredentials_create: {
    summary: 'Create a tenant ingestion credential',
    description: 'Body: `name` (1..200). Answers 201 with `token` (`uit_` + 43 base64url characters), shown only in this answer, and `Location: /v1/ingestion-credentials/{id}`. A tenant credential delivers only to its tenant\'s devices. At most 10 active per tenant: the eleventh is 409 `max_credentials`.',
    errors: { 409: { reason: 'invalid_state', currentStatus: 'retired', message: 'A retired device cannot be changed.' } },
  },
  ingestionCredentials_list: {
    summary: 'List all ingestion credentials',
    description: lines(
      'Filters `scope` (`tenant`, `platform`), `tenantId` (unknown → 400 `reference_not_found`), `status`.',
      ASCENDING,
    ),
  },
  ingestionCredentials_create: {
    summary: 'Create a platform ingestion credential',
    description: 'A `platform` credential (for a network server shared by several tenants) routes to any tenant. Body: `name`. Answers 201 with the `token`, shown only here.',
  },
  ingestionCredentials_get: {
    summary: 'Get an ingestion credential',
    description: lines(
      'Platform administrators also see platform credentials. Another tenant\'s credential, a platform credential for a tenant user and a missing one are the same 404.',
      'Never the token; `lastUsedAt` is updated at most once a minute.',
    ),
  },
  ingestionCredentials_revoke: {
    summary: 'Revoke an ingestion credential',
    description: lines(
      'Platform administrators also see platform credentials. Another tenant\'s credential, a platform credential for a tenant user and a missing one are the same 404.',
      '`active` → `revoked`, terminal. Credentials are not cached, so the very next request with the token is 401 on every replica. Again: 409 `invalid_state` with `currentStatus`. Audited as `ingestion_credential.revoked`.',
    ),
    errors: { 409: { reason: 'invalid_state', currentStatus: 'retired', message: 'A retired device cannot be changed.' } },
  },
});
