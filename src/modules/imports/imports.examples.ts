/**
 * Examples of the legacy snapshot import's request and result, attached to its controller with @ApiDocs.
 */
import type { ApiResponseOptions } from '@nestjs/swagger';

type SchemaObject = NonNullable<Extract<ApiResponseOptions, { schema?: unknown }>['schema']>;
import { CORRELATION_ID, TENANT_ID, TENANT_NUMBER } from '../../shared/http/example-values';
import { SOURCE_FAILURE_REASONS, SourceFailureReason } from './source/source-failure';

const request = {
  baseUrl: 'https://legacy.example.com/api',
  username: 'migration-user',
  password: 'legacy-password-used-once',
};

const result = {
  targetTenantId: TENANT_ID,
  completedAt: '2026-03-14T09:26:53.589Z',
  source: { tenantCount: 2, deviceTypeCount: 5, deviceCount: 1204 },
  deviceTypes: { created: 3, existing: 1, skipped: 1 },
  devices: { created: 1180, existing: 12, skipped: 12 },
  issues: [
    { entity: 'device_type', code: 'invalid_device_type_code', sourceIdentifier: 'dt-17' },
    { entity: 'device', code: 'asset_excluded', sourceIdentifier: 'asset-4711' },
    { entity: 'device', code: 'invalid_dev_eui', sourceIdentifier: 'dev-0815' },
    { entity: 'device', code: 'device_exists_in_other_tenant', sourceIdentifier: 'dev-1022' },
    { entity: 'device', code: 'existing_device_mismatch', sourceIdentifier: 'dev-1023' },
  ],
};

export const IMPORT_SCHEMA_EXAMPLES: Record<string, unknown> = {
  ImportLegacySnapshotRequest: request,
  ImportResultResponse: result,
  ImportSourceCounts: result.source,
  ImportEntityCounts: result.devices,
  ImportIssueResponse: result.issues[0],
};

export const IMPORT_PARAMETER_EXAMPLES: Record<string, unknown> = { tenantNumber: TENANT_NUMBER };

const FAILURE_MESSAGES: Record<SourceFailureReason, string> = {
  source_unreachable: 'The source could not be reached (login).',
  source_timeout: 'The source did not answer in time (devices).',
  source_authentication_failed: 'The source refused the credentials (login: 401).',
  source_invalid_response: "The source's devices page is not {items, next}.",
  source_too_large: 'The source has more devices than one import takes.',
};

/** The 502 error envelope (one reason shown; the schema lists them all). */
export const IMPORT_SOURCE_FAILURE_EXAMPLE = {
  error: {
    code: 'DEPENDENCY_FAILURE',
    category: 'dependency_failure',
    message: FAILURE_MESSAGES.source_timeout,
    correlationId: CORRELATION_ID,
    details: { dependency: 'import_source', reason: 'source_timeout' },
  },
};

/** The error envelope of a 502, its `details` narrowed to the import source and the reasons it gives. */
export const IMPORT_SOURCE_FAILURE_SCHEMA: SchemaObject = {
  allOf: [
    { $ref: '#/components/schemas/ErrorEnvelope' },
    {
      type: 'object',
      properties: {
        error: {
          type: 'object',
          properties: {
            code: { type: 'string', enum: ['DEPENDENCY_FAILURE'] },
            details: {
              type: 'object',
              required: ['dependency', 'reason'],
              properties: { dependency: { type: 'string', enum: ['import_source'] }, reason: { type: 'string', enum: [...SOURCE_FAILURE_REASONS] } },
            },
          },
        },
      },
    },
  ],
};
