export const ERROR_CODES = {
  VALIDATION_FAILED: { category: 'validation', status: 400 },
  AUTHENTICATION_FAILED: { category: 'authentication', status: 401 },
  AUTHORIZATION_FAILED: { category: 'authorization', status: 403 },
  RESOURCE_NOT_FOUND: { category: 'not_found', status: 404 },
  CONFLICT: { category: 'conflict', status: 409 },
  FLOW_FAILURE: { category: 'flow_failure', status: 422 },
  RATE_LIMITED: { category: 'rate_limit', status: 429 },
  INTERNAL_ERROR: { category: 'internal', status: 500 },
  // 503 for our own dependencies; an upstream called for the caller (import source) overrides it with 502.
  DEPENDENCY_FAILURE: { category: 'dependency_failure', status: 503 },
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

/** The rule names of the error envelope; anything else in `details.fields[].rule` is a bug. */
export const VALIDATION_RULES = [
  'required',
  'type',
  'format',
  'pattern',
  'enum',
  'min_length',
  'max_length',
  'minimum',
  'maximum',
  'min_items',
  'max_items',
  'unique',
  'min_properties',
  'max_properties',
  'unknown_property',
  'json',
  'content_type',
  'body_too_large',
  'blank',
  'range',
  'max_span',
  'must_be_true',
  'mismatch',
  'reference_not_found',
  'cursor_invalid',
  'cursor_mismatch',
  'system_node_count',
  'undeclared_parameter',
  'unknown_variable',
  'not_timeseries_field',
  'aggregation_not_applicable',
  'incorrect',
  'unchanged',
  'password_policy',
] as const;

export type ValidationRule = (typeof VALIDATION_RULES)[number];

export interface FieldViolation {
  /** Prefixed by location: `body.x`, `query.limit`, `params.id`, `headers.if-match`. */
  path: string;
  rule: ValidationRule;
  message?: string;
}

export const MAX_FIELD_VIOLATIONS = 50;
