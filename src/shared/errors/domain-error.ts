import { ErrorCode, FieldViolation, MAX_FIELD_VIOLATIONS } from './error-codes';

export type ErrorDetails = Record<string, unknown>;

/**
 * The one error type below the controller. The global filter maps `code` to the HTTP status and the envelope;
 * `message` and `details` must be safe to show to any client.
 */
export class DomainError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    readonly headers: Record<string, string> = {},
    /** Only for the documented exceptions to the code's status (502 for a failed upstream). */
    readonly statusOverride?: number,
  ) {
    super(message);
    this.name = new.target.name;
  }
}

export class ValidationFailedError extends DomainError {
  constructor(
    readonly fields: FieldViolation[],
    message = describeViolations(fields),
  ) {
    super('VALIDATION_FAILED', message, { fields: fields.slice(0, MAX_FIELD_VIOLATIONS) });
  }

  static single(path: string, rule: FieldViolation['rule'], message: string): ValidationFailedError {
    return new ValidationFailedError([{ path, rule, message }]);
  }
}

export type AuthenticationReason = 'missing_token' | 'invalid_token' | 'expired_token' | 'revoked_session';

export class AuthenticationFailedError extends DomainError {
  constructor(reason?: AuthenticationReason, message = 'Authentication is required.') {
    // Bearer failures carry the challenge; login failures (no reason) stay generic.
    super(
      'AUTHENTICATION_FAILED',
      message,
      reason ? { reason } : undefined,
      reason ? { 'WWW-Authenticate': `Bearer error="${reason === 'missing_token' ? 'invalid_request' : 'invalid_token'}"` } : {},
    );
  }
}

export type AuthorizationReason =
  | 'password_change_required'
  | 'platform_admin_required'
  | 'missing_permission'
  | 'origin_not_allowed';

export class AuthorizationFailedError extends DomainError {
  constructor(
    reason: AuthorizationReason,
    message: string,
    extra: ErrorDetails = {},
    /** The tenant whose audit log records the denial (never shown to the caller). */
    readonly tenantId: string | null = null,
  ) {
    super('AUTHORIZATION_FAILED', message, { reason, ...extra });
  }
}

export class ResourceNotFoundError extends DomainError {
  constructor(resourceType: string, message = `The ${resourceType.replace(/_/g, ' ')} was not found.`) {
    super('RESOURCE_NOT_FOUND', message, { resourceType });
  }
}

export class ConflictError extends DomainError {
  constructor(reason: string, message: string, extra: ErrorDetails = {}, headers: Record<string, string> = {}) {
    super('CONFLICT', message, { reason, ...extra }, headers);
  }
}

export type Dependency = 'database' | 'sandbox' | 'mail' | 'import_source';

export class DependencyFailureError extends DomainError {
  constructor(dependency: Dependency, reason: string, message: string, retryAfterSeconds = 5) {
    const upstream = dependency === 'import_source';
    super(
      'DEPENDENCY_FAILURE',
      message,
      { dependency, reason },
      upstream ? {} : { 'Retry-After': String(retryAfterSeconds) },
      upstream ? 502 : undefined,
    );
  }
}

export class RateLimitedError extends DomainError {
  constructor(retryAfterSeconds: number, message = 'Too many requests. Retry later.') {
    const seconds = Math.max(1, Math.ceil(retryAfterSeconds));
    super('RATE_LIMITED', message, { retryAfterSeconds: seconds }, { 'Retry-After': String(seconds) });
  }
}

function describeViolations(fields: FieldViolation[]): string {
  const first = fields[0];
  if (!first) return 'The request is invalid.';
  const reason = (first.message ?? `violates ${first.rule}`).replace(/\.$/, '');
  const more = fields.length > 1 ? ` (and ${fields.length - 1} more)` : '';
  return `The request is invalid: ${first.path}: ${reason}${more}.`;
}
