import { Injectable, NestMiddleware } from '@nestjs/common';
import { PinoLogger } from 'nestjs-pino';
import express, { NextFunction, Request, Response } from 'express';
import { ValidationFailedError } from '../errors/domain-error';
import { sendError } from '../errors/error-response';
import { correlationIdOf } from '../context/correlation-id';

export const JSON_BODY_LIMIT = '1mb';
const JSON_CONTENT_TYPE = /^application\/(?:[a-z0-9.+-]+\+)?json\s*(?:;|$)/i;

function hasBody(req: Request): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

/**
 * `/v1` accepts JSON bodies only (design C1): a body with another content type is 400 `content_type`, malformed
 * JSON 400 `json`, more than 1 MiB 400 `body_too_large`. Failures are answered here, with the envelope, because
 * they happen before any route or exception filter is involved.
 */
@Injectable()
export class JsonBodyMiddleware implements NestMiddleware {
  private readonly parse = express.json({ limit: JSON_BODY_LIMIT, strict: true, type: () => true });

  constructor(private readonly logger: PinoLogger) {
    logger.setContext(JsonBodyMiddleware.name);
  }

  use(req: Request, res: Response, next: NextFunction): void {
    if (!hasBody(req)) return next();
    const fail = (error: unknown): void => sendError(res, error, correlationIdOf(req), this.logger);
    if (!JSON_CONTENT_TYPE.test(req.headers['content-type'] ?? '')) {
      return fail(
        ValidationFailedError.single('headers.content-type', 'content_type', 'The request body must be application/json.'),
      );
    }
    this.parse(req, res, (error?: unknown) => (error ? fail(error) : next()));
  }
}
