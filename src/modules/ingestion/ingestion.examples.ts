/**
 * Examples of the ingestion schemas (credentials, webhooks, raw messages) and path parameters, attached to the
 * ingestion credentials controller with @ApiDocs.
 */
import { CHIRPSTACK_UP_EXAMPLE } from './ingest.docs';
import { CURSOR, RAW_INGESTION_MESSAGE_ID, TENANT_ID } from '../../shared/http/example-values';

const CREDENTIAL_ID = '2b7e1516-28ae-4d2a-a6ab-f7158809cf4f';

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
  rawIngestionMessageId: RAW_INGESTION_MESSAGE_ID,
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
  IngestAckResponse: { rawIngestionMessageId: RAW_INGESTION_MESSAGE_ID, receivedAt: '2026-03-14T09:34:16.002Z', duplicate: false },
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
  rawIngestionMessageId: RAW_INGESTION_MESSAGE_ID,
};
