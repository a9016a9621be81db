import type { Response } from 'express';
import { ERROR_CODES, ErrorCode } from './error-codes';
import { DomainError } from './domain-error';
import { classifyError } from './classify-error';

export interface ErrorEnvelope {
  error: {
    code: ErrorCode;
    category: string;
    message: string;
    correlationId: string;
    details?: Record<string, unknown>;
  };
}

export interface ErrorLogger {
  error(object: object, message: string): void;
}

/**
 * Writes the error envelope. The one place that decides status, headers and body of every failure, used by the
 * global exception filter and by the Express error handler for failures before routing (body parsing).
 */
export function sendError(res: Response, thrown: unknown, correlationId: string, logger: ErrorLogger): void {
  const domain = classifyError(thrown);
  const error = domain ?? new DomainError('INTERNAL_ERROR', 'An unexpected error occurred.');
  if (!domain) logger.error({ err: thrown, correlationId }, 'Unhandled exception');
  else if (error.code === 'DEPENDENCY_FAILURE') logger.error({ err: thrown, correlationId }, 'Dependency failure');

  const { category, status } = ERROR_CODES[error.code];
  const body: ErrorEnvelope = {
    error: {
      code: error.code,
      category,
      message: error.message,
      correlationId,
      ...(error.details ? { details: error.details } : {}),
    },
  };
  if (res.headersSent) {
    res.end();
    return;
  }
  res.status(error.statusOverride ?? status);
  for (const [name, value] of Object.entries(error.headers)) res.setHeader(name, value);
  res.setHeader('Cache-Control', 'no-store');
  res.json(body);
}
