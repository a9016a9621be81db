import { HttpException, HttpStatus } from '@nestjs/common';
import {
  AuthenticationFailedError,
  DependencyFailureError,
  DomainError,
  RateLimitedError,
  ResourceNotFoundError,
  ValidationFailedError,
} from './domain-error';

/** SQLSTATE classes and socket errors that mean "the database is not there", not "the query is wrong". */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
  'EPIPE',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now
  '53300', // too_many_connections
]);
const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection is not established|Cannot use a pool after calling end|connect ECONNREFUSED|Query read timeout/i;

export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current: unknown = error, depth = 0; current && depth < 4; depth++) {
    const candidate = current as { code?: unknown; message?: unknown; driverError?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : '';
    if (UNAVAILABLE_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof candidate.message === 'string' && UNAVAILABLE_MESSAGES.test(candidate.message)) return true;
    if (current instanceof AggregateError && current.errors.some(isDatabaseUnavailable)) return true;
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}

/** 57014 query_canceled (statement_timeout), raw or wrapped by TypeORM (`driverError`) or as a `cause`. */
function isStatementTimeout(error: unknown): boolean {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const candidate = current as { code?: unknown; driverError?: unknown; cause?: unknown };
    if (candidate.code === '57014') return true;
    current = candidate.driverError ?? candidate.cause;
  }
  return false;
}

interface BodyParserError {
  type: string;
  status?: number;
}

function isBodyParserError(error: unknown): error is BodyParserError {
  return typeof (error as BodyParserError)?.type === 'string' && typeof (error as BodyParserError).status === 'number';
}

/**
 * Turns anything thrown in the request path into a DomainError, or null for a genuinely unexpected failure
 * (the caller answers 500 INTERNAL_ERROR and logs the original).
 */
export function classifyError(error: unknown): DomainError | null {
  if (error instanceof DomainError) return error;
  if (isBodyParserError(error)) return fromBodyParser(error);
  if (error instanceof HttpException) return fromHttpException(error);
  if (isDatabaseUnavailable(error)) {
    return new DependencyFailureError('database', 'unavailable', 'The database is unavailable. Retry later.');
  }
  if (isStatementTimeout(error)) {
    return new DependencyFailureError('database', 'timeout', 'The database did not answer in time. Retry later.');
  }
  return null;
}

function fromBodyParser(error: BodyParserError): DomainError | null {
  switch (error.type) {
    case 'entity.parse.failed':
      return ValidationFailedError.single('body', 'json', 'The request body is not valid JSON.');
    case 'entity.too.large':
      return ValidationFailedError.single('body', 'body_too_large', 'The request body exceeds the size limit.');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return ValidationFailedError.single('headers.content-type', 'content_type', 'Unsupported body encoding or charset.');
    case 'request.aborted':
    case 'request.size.invalid':
    case 'stream.encoding.set':
      return ValidationFailedError.single('body', 'json', 'The request body could not be read.');
    default:
      return null;
  }
}

function fromHttpException(error: HttpException): DomainError | null {
  switch (error.getStatus()) {
    case HttpStatus.NOT_FOUND:
    case HttpStatus.METHOD_NOT_ALLOWED:
      return new ResourceNotFoundError('route', 'No resource exists at this path.');
    case HttpStatus.PAYLOAD_TOO_LARGE:
      return ValidationFailedError.single('body', 'body_too_large', 'The request body exceeds the size limit.');
    case HttpStatus.UNAUTHORIZED:
      return new AuthenticationFailedError('invalid_token');
    case HttpStatus.BAD_REQUEST:
      // Framework pipes that bypass our factories; keep their text out of the response.
      return new ValidationFailedError([{ path: 'request', rule: 'format', message: 'The request is malformed.' }]);
    case HttpStatus.TOO_MANY_REQUESTS:
      return new RateLimitedError(60);
    default:
      return null;
  }
}
