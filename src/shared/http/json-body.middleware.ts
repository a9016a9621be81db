import { Injectable, NestMiddleware } from '@nestjs/common';
import express, { NextFunction, Request, Response } from 'express';
import { DomainError, ValidationFailedError } from '../errors/domain-error';
import { exceedsJsonDepth, inputViolations, MAX_JSON_DEPTH } from '../validation/json-input';

export const JSON_BODY_LIMIT = '1mb';
const JSON_CONTENT_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;|$)/i;
const CHARSET = /;\s*charset\s*=\s*"?([^";\s]*)"?/i;
const SUPPORTED_ENCODINGS = ['identity', 'gzip', 'deflate', 'br'];

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/** Body failures wait here until authentication has run: a caller without a token learns 401, not 400. */
const deferredBodyErrors = new WeakMap<Request, DomainError>();

/** The body failure of this request, if any: thrown by RequestInputGuard once the guards have passed. */
export function bodyErrorOf(req: Request): DomainError | undefined {
  return deferredBodyErrors.get(req);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * `/v1` accepts JSON bodies only: a body with another content type or charset is 400 `content_type`, an
 * unsupported or undecodable Content-Encoding 400 `content_type` on `headers.content-encoding`, bytes that are
 * not UTF-8, malformed JSON or nesting deeper than 64 levels 400 `json`, more than 1 MiB (decoded) 400
 * `body_too_large`, and NUL characters, lone surrogates or prototype-member property names 400 on their path.
 * Every such failure is recorded, not answered: the request goes on through authentication, and the failure
 * surfaces after the guards (check order: 401/403 before 400).
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly read = express.raw({ limit: JSON_BODY_LIMIT, inflate: true, type: () => true });

  use(req: Request, res: Response, next: NextFunction): void {
    // Ingestion routes read their exact body bytes themselves, after their own token check.
    if (!hasBody(req) || req.path.startsWith('/v1/ingestion/')) return next();
    const defer = (error: DomainError): void => {
      deferredBodyErrors.set(req, error);
      req.body = undefined;
      next();
    };
    const contentType = req.headers['content-type'] ?? '';
    if (!JSON_CONTENT_TYPE.test(contentType)) {
      return defer(ValidationFailedError.single('headers.content-type', 'content_type', 'The request body must be application/json.'));
    }
    const charset = CHARSET.exec(contentType)?.[1]?.toLowerCase();
    if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8') {
      return defer(ValidationFailedError.single('headers.content-type', 'content_type', 'The request body must be UTF-8 (charset=utf-8).'));
    }
    const encoding = (req.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
    if (!SUPPORTED_ENCODINGS.includes(encoding)) {
      // Not read at all: Node discards the unread body once the answer is sent.
      return defer(
        ValidationFailedError.single(
          'headers.content-encoding',
          'content_type',
          `Unsupported Content-Encoding; use one of ${SUPPORTED_ENCODINGS.join(', ')}.`,
        ),
      );
    }
    this.read(req, res, (error?: unknown) => {
      if (error) return defer(readFailure(error, encoding));
      const parsed = parseJsonBody(req.body as unknown);
      if (parsed instanceof DomainError) return defer(parsed);
      req.body = parsed.value;
      next();
    });
  }
}

function readFailure(error: unknown, encoding: string): DomainError {
  const type = (error as { type?: unknown }).type;
  if (type === 'entity.too.large') {
    return ValidationFailedError.single('body', 'body_too_large', 'The request body exceeds the size limit of 1 MiB.');
  }
  if (type === 'encoding.unsupported') {
    return ValidationFailedError.single('headers.content-encoding', 'content_type', 'Unsupported Content-Encoding.');
  }
  if (encoding !== 'identity' && type === undefined) {
    // zlib's error: the bytes are not what the Content-Encoding header says they are.
    return ValidationFailedError.single('headers.content-encoding', 'content_type', `The request body is not valid ${encoding} data.`);
  }
  return ValidationFailedError.single('body', 'json', 'The request body could not be read.');
}

/**
 * The value of a body that parseJsonBody accepted when it arrived (a stored message's body, read again): the same
 * decoding and parse, without the depth and content checks it passed then. Null when it does not parse.
 */
export function reparseAcceptedBody(bytes: Buffer): { value: unknown } | null {
  try {
    const text = utf8.decode(bytes);
    return { value: text === '' ? undefined : (JSON.parse(text) as unknown) };
  } catch {
    return null;
  }
}

/** UTF-8 bytes -> bounded-depth JSON -> storable strings, or the 400 that says which step failed. */
export function parseJsonBody(raw: unknown): { value: unknown } | DomainError {
  const bytes = Buffer.isBuffer(raw) ? raw : Buffer.alloc(0);
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return ValidationFailedError.single('body', 'json', 'The request body is not valid UTF-8.');
  }
  // An empty body (e.g. chunked with no data) is no body; whitespace alone is not JSON.
  if (text === '') return { value: undefined };
  if (exceedsJsonDepth(text)) {
    return ValidationFailedError.single('body', 'json', `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return ValidationFailedError.single('body', 'json', 'The request body is not valid JSON.');
  }
  const violations = inputViolations(value, 'body');
  return violations.length > 0 ? new ValidationFailedError(violations) : { value };
}
