/**
 * OpenAPI documentation of the ingestion operations (credentials, webhooks, raw messages): summaries,
 * descriptions and examples, merged into OPERATION_DOCS / SCHEMA_EXAMPLES / PARAMETER_EXAMPLES.
 */

const lines = (...parts: string[]): string => parts.join('\n\n');
const CREDENTIAL_ID = '2b7e1516-28ae-4d2a-a6ab-f7158809cf4f';
const TENANT_ID = '5b0c7e2a-3f41-4d8e-9a6b-1c2d3e4f5a6b';
const RAW_ID = '7d1f3a9c-5e2b-4c8d-9f6a-0b1c2d3e4f50';
const CURSOR = 'eyJ2IjoxLCJrIjpbIjIwMjYtMDMtMTRUMDk6MjY6NTMuNTg5WiIsIjliZjMxYzdmIl19.Qm9fS2lYc1VhN3JwZ0pXbFh0N2c';
const TOKEN_ACCESS =
  '**Access**: an ingestion token (`Authorization: Bearer uit_...`, created under ingestion credentials), not a user token. Unknown or revoked: 401 `invalid_token` with `WWW-Authenticate`; the token is checked before the body is read.';
const DURABLE =
  'The exact request bytes are stored and the 202 is sent only after they are committed (concurrent requests share one commit). A repeat within 24 h (same dedup key, within the credential\'s tenant or the platform) is answered with the original `rawIngestionMessageId` and `duplicate: true`. Bodies ≤ 256 KiB, no Content-Encoding. Stored uplinks stay `pending` until the processing pipeline routes them; nothing about devices is looked up here, so every authenticated, parseable uplink gets the same answer. A body that cannot be mapped is stored as `rejected`/`malformed_payload` and answered 400.';
const PLATFORM_ADMIN =
  '**Access**: platform administrators only. Anyone else gets 403 `platform_admin_required` before the request is validated or anything is looked up.';
const MANAGE =
  '**Access**: `ingestion:manage` through a tenant-level grant in the credential\'s tenant, or a platform administrator (the only ones who see platform credentials). Another tenant\'s credential, a platform credential for a tenant user and a missing one are the same 404; a visible one without the permission is 403 `missing_permission`.';
const ASCENDING =
  '**Paging** (ascending family): ordered by (`createdAt`, id); `limit` 25, 50 or 100 (default 25); `items`, `nextCursor` (omitted on the last page) and the exact `totalCount`. Repeat the same filters and `limit` with `cursor` (else 400 `cursor_mismatch`).';

/** A ChirpStack v4 HTTP integration `up` event, as ChirpStack posts it (JSON payload encoding). */
export const CHIRPSTACK_UP_EXAMPLE = {
  deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  time: '2026-03-14T09:34:15.775023242+00:00',
  deviceInfo: {
    tenantId: '52f14cd4-c6f1-4fbd-8f87-4025e1d49242',
    tenantName: 'ChirpStack',
    applicationId: '17c82e96-be03-4f38-aef3-f83d48582d97',
    applicationName: 'Water meters',
    deviceProfileId: '14855bf7-d10d-4aee-b618-ebfcb64dc7ad',
    deviceProfileName: 'Ultrasonic meter',
    deviceName: 'meter-17',
    devEui: '0101010101010101',
    deviceClassEnabled: 'CLASS_A',
    tags: {},
  },
  devAddr: '00189440',
  dr: 5,
  fPort: 1,
  fCnt: 1287,
  data: 'AQIDBA==',
  rxInfo: [
    {
      gatewayId: '0016c001f153a14c',
      uplinkId: 4217106255,
      rssi: -36,
      snr: 10.5,
      context: 'E3OWOQ==',
      metadata: { region_config_id: 'eu868', region_common_name: 'EU868' },
      crcStatus: 'CRC_OK',
    },
  ],
  txInfo: { frequency: 867100000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
  object: { volume: 1234.5, battery: 3.6 },
};

/** A The Things Stack v3 webhook `uplink_message`, as TTS posts it. */
export const TTS_UPLINK_EXAMPLE = {
  end_device_ids: {
    device_id: 'eui-0004a30b001c0530',
    application_ids: { application_id: 'water-meters' },
    dev_eui: '0004A30B001C0530',
    join_eui: '70B3D57ED0000000',
    dev_addr: '260B1A2C',
  },
  correlation_ids: ['as:up:01HRZ8Q4J6TQ7H0K3V5N2M8P9W', 'ns:uplink:01HRZ8Q4HZ0Y1X2W3V4U5T6S7R'],
  received_at: '2026-03-14T09:34:15.912345678Z',
  uplink_message: {
    session_key_id: 'AYZ3N5Qx1s3Hc1fQ0q8Xkw==',
    f_port: 2,
    f_cnt: 1287,
    frm_payload: 'AQIDBA==',
    decoded_payload: { volume: 1234.5, battery: 3.6 },
    rx_metadata: [
      {
        gateway_ids: { gateway_id: 'eui-b827ebfffe123456', eui: 'B827EBFFFE123456' },
        time: '2026-03-14T09:34:15.601Z',
        timestamp: 2395022419,
        rssi: -97,
        channel_rssi: -97,
        snr: 7.25,
        uplink_token: 'CiIKIAoUZXVpLWI4MjdlYmZmZmUxMjM0NTYSCLgn6//+EjRWENOI/ocJGgsIh4W9zwYQ8Ni8JSCY+rqSlrAD',
        received_at: '2026-03-14T09:34:15.640211Z',
      },
    ],
    settings: {
      data_rate: { lora: { bandwidth: 125000, spreading_factor: 7, coding_rate: '4/5' } },
      frequency: '868100000',
      timestamp: 2395022419,
      time: '2026-03-14T09:34:15.601Z',
    },
    received_at: '2026-03-14T09:34:15.703456789Z',
    consumed_airtime: '0.061696s',
  },
};

export const HTTP_UPLINK_EXAMPLE = {
  devEui: '70B3D57ED005A1B2',
  payload: { encoding: 'hex', data: '01020304' },
  observedAt: '2026-03-14T09:34:15.703Z',
  connectionData: { gateway: 'roof-north', rssi: -97 },
  messageId: 'meter-17-1287',
};

export const INGESTION_OPERATION_DOCS = {
  ListTenantIngestionCredentialsController_list: {
    summary: 'List a tenant\'s ingestion credentials',
    description: lines(
      '**Access**: `ingestion:manage` through a tenant-level grant; platform administrators hold every permission. Without it: 403 `missing_permission`.',
      'Filter `status` (`active`, `revoked`). Tokens are never shown again; `tokenPrefix` identifies one.',
      ASCENDING,
    ),
  },
  CreateTenantIngestionCredentialController_create: {
    summary: 'Create a tenant ingestion credential',
    description: lines(
      '**Access**: `ingestion:manage` through a tenant-level grant; platform administrators hold every permission.',
      'Body: `name` (1..200). Answers 201 with `token` (`uit_` + 43 base64url characters), shown only in this answer, and `Location: /v1/ingestion-credentials/{id}`. A tenant credential delivers only to its tenant\'s devices. At most 10 active per tenant: the eleventh is 409 `max_credentials`.',
    ),
  },
  ListIngestionCredentialsController_list: {
    summary: 'List all ingestion credentials',
    description: lines(PLATFORM_ADMIN, 'Filters `scope` (`tenant`, `platform`), `tenantId` (unknown → 400 `reference_not_found`), `status`.', ASCENDING),
  },
  CreatePlatformIngestionCredentialController_create: {
    summary: 'Create a platform ingestion credential',
    description: lines(
      PLATFORM_ADMIN,
      'A `platform` credential (for a network server shared by several tenants) routes to any tenant. Body: `name`. Answers 201 with the `token`, shown only here.',
    ),
  },
  GetIngestionCredentialController_get: {
    summary: 'Get an ingestion credential',
    description: lines(MANAGE, 'Never the token; `lastUsedAt` is updated at most once a minute.'),
  },
  RevokeIngestionCredentialController_revoke: {
    summary: 'Revoke an ingestion credential',
    description: lines(
      MANAGE,
      '`active` → `revoked`, terminal. Credentials are not cached, so the very next request with the token is 401 on every replica. Again: 409 `invalid_state` with `currentStatus`. Audited as `ingestion_credential.revoked`.',
    ),
  },
  IngestChirpStackController_ingest: {
    summary: 'Receive a ChirpStack v4 event',
    description: lines(
      TOKEN_ACCESS,
      'Point ChirpStack\'s HTTP integration (payload encoding **JSON**) at `/v1/ingestion/chirpstack`; ChirpStack adds `?event=<type>`. `up` → 202; `join`, `status`, `ack`, `txack`, `log`, `location`, `integration` → 204, not stored; a missing or other `event` → 400. A Protobuf body (`application/octet-stream`, or not JSON) → 400 asking to switch the integration to JSON.',
      'Mapping: `deviceInfo.devEui` (upper-cased); `time` → `observedAt` (else the receipt time); `data` → `rawPayload` (base64); `connectionData` {`networkServer`: "chirpstack", `deduplicationId`, `devAddr`, `fPort`, `fCnt`, `dr`, `adr`, `confirmed`, `rxInfo`, `txInfo`, `object` when present}; omitted zero values read as 0/false. Dedup key: `deduplicationId`.',
      DURABLE,
    ),
  },
  IngestTtsController_ingest: {
    summary: 'Receive a The Things Stack v3 webhook',
    description: lines(
      TOKEN_ACCESS,
      'Point a TTS webhook (format JSON) at `/v1/ingestion/tts` with the header `Authorization: Bearer uit_...`. `uplink_message` → 202; every other message type → 204, not stored.',
      'Mapping: `end_device_ids.dev_eui`; `observedAt` = `uplink_message.received_at` (the network server\'s receive time), else the top-level `received_at` (the application server\'s), else the receipt time; `0001-01-01T00:00:00Z` counts as absent. `uplink_message.frm_payload` → `rawPayload` (base64; absent = empty); `connectionData` {`networkServer`: "tts", `applicationId`, `deviceId`, `devAddr`, `fPort` (null when absent), `fCnt` (0 when absent), `rxMetadata`, `settings`, `decodedPayload` when present}, values as sent (frequencies and durations stay strings). Dedup key: the `as:up:` correlation id, else devEui + `f_cnt` + receive time.',
      DURABLE,
    ),
  },
  IngestHttpController_ingest: {
    summary: 'Receive an uplink in Uplink\'s own format',
    description: lines(
      TOKEN_ACCESS,
      'Body: `devEui` (16 hex digits, any case), `payload` {`encoding` ∈ base64, hex, utf8, json; `data` ≤ 65536 characters that decodes}, `observedAt` (RFC 3339, optional), `connectionData` (object ≤ 16 KiB, optional), `messageId` (1..128, optional, the dedup key). Unknown properties are 400 `unknown_property`.',
      DURABLE,
    ),
  },
  ListRawIngestionMessagesController_list: {
    summary: 'List stored raw uplinks',
    description: lines(
      PLATFORM_ADMIN,
      'Newest first by `receivedAt`, without bodies. Filters: `tenantId`, `credentialId` (unknown → 400 `reference_not_found`), `deviceId`, `devEui` (any case), `source`, `processingStatus`.',
      '**Time window**: `from` and `to` (RFC 3339) are a pair, both or neither: one alone is 400 `required`, `from >= to` is `range`, a span over 31 days is `max_span`; neither means the last 24 hours; half-open `[from, to)`.',
      '**Paging** (newest-first family): `limit` 1..100 (default 25); `items` and `nextCursor`, no total; the first page fixes the upper anchor min(`to`, now).',
    ),
  },
  GetRawIngestionMessageController_get: {
    summary: 'Read one stored raw uplink with its exact body',
    description: lines(
      PLATFORM_ADMIN,
      '`body` {`contentType`, `encoding`, `data`} is the exact request body: `utf8` when the bytes are valid UTF-8, else `base64`. `receivedAt` (optional) is a lookup hint. Every read is audited as `raw_ingestion_message.read`.',
    ),
  },
};

const credential = {
  ingestionCredentialId: CREDENTIAL_ID,
  scope: 'tenant',
  tenantId: TENANT_ID,
  name: 'ChirpStack EU868',
  tokenPrefix: 'uit_q3Zk8fVn',
  status: 'active',
  lastUsedAt: '2026-03-14T09:34:16.002Z',
  createdAt: '2026-03-01T08:00:00.000Z',
  revokedAt: null,
};

const rawMessage = {
  rawIngestionMessageId: RAW_ID,
  receivedAt: '2026-03-14T09:34:16.002Z',
  source: 'chirpstack',
  event: 'up',
  credentialId: CREDENTIAL_ID,
  tenantId: TENANT_ID,
  deviceId: null,
  devEui: '0101010101010101',
  observedAt: '2026-03-14T09:34:15.775Z',
  dedupKey: 'chirpstack:3ac7e3c4-4401-4b8d-9386-a5c902f9202d',
  processingStatus: 'pending',
  processingReason: null,
  flowExecutionId: null,
  pinned: false,
  sizeBytes: 912,
};

export const INGESTION_SCHEMA_EXAMPLES: Record<string, unknown> = {
  CreateIngestionCredentialRequest: { name: 'ChirpStack EU868' },
  IngestionCredentialResponse: credential,
  CreatedIngestionCredentialResponse: { ...credential, lastUsedAt: null, token: 'uit_q3Zk8fVnR2xW7pL0aB4cD6eF8gH1iJ3kL5mN7oP9qRs' },
  IngestionCredentialPage: { items: [credential], totalCount: 1 },
  IngestAckResponse: { rawIngestionMessageId: RAW_ID, receivedAt: '2026-03-14T09:34:16.002Z', duplicate: false },
  RawMessagePage: { items: [rawMessage], nextCursor: CURSOR },
  RawMessageDetailResponse: {
    ...rawMessage,
    body: { contentType: 'application/json', encoding: 'utf8', data: JSON.stringify(CHIRPSTACK_UP_EXAMPLE) },
    rawPayload: { encoding: 'base64', data: 'AQIDBA==' },
    connectionData: { networkServer: 'chirpstack', deduplicationId: '3ac7e3c4-4401-4b8d-9386-a5c902f9202d', devAddr: '00189440', fPort: 1, fCnt: 1287 },
  },
};

export const INGESTION_PARAMETER_EXAMPLES: Record<string, unknown> = {
  ingestionCredentialId: CREDENTIAL_ID,
  rawIngestionMessageId: RAW_ID,
};
