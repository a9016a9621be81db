/** Why the legacy source could not be read; the `reason` of the 502 `DEPENDENCY_FAILURE` (`import_source`). */
export const SOURCE_FAILURE_REASONS = [
  'source_unreachable',
  'source_timeout',
  'source_authentication_failed',
  'source_invalid_response',
  'source_too_large',
] as const;
export type SourceFailureReason = (typeof SOURCE_FAILURE_REASONS)[number];

/**
 * The source could not be read. `message` is safe for clients and logs: it names the call (never its URL's query,
 * headers or body), so no credential or access token can reach it.
 */
export class SourceFailure extends Error {
  constructor(
    readonly reason: SourceFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'SourceFailure';
  }
}
