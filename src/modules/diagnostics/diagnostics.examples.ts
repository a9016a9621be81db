/**
 * Examples of the version, readiness and echo schemas, attached to the diagnostics controller with @ApiDocs.
 */
import { CORRELATION_ID, USER_ID } from '../../shared/http/example-values';

export const DIAGNOSTICS_SCHEMA_EXAMPLES: Record<string, unknown> = {
  VersionResponse: { version: '0.1.0', gitCommit: '4e1b7c2a9f0d3e5b6c7a8d9e0f1a2b3c4d5e6f70', builtAt: '2026-03-10T16:22:05.000Z', apiVersion: 'v1' },
  ReadinessResponse: {
    status: 'ready',
    checks: {
      database: { status: 'up', latencyMs: 2 },
      migrations: { status: 'up', latencyMs: 3 },
      sandbox: { status: 'up', latencyMs: 11 },
    },
  },
  EchoRequest: { message: 'hello from the field team' },
  EchoResponse: {
    message: 'hello from the field team',
    correlationId: CORRELATION_ID,
    receivedAt: '2026-03-14T11:02:41.008Z',
    userId: USER_ID,
    databaseRoundTripMs: 1.7,
  },
};
