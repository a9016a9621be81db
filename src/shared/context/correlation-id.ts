import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response } from 'express';

export const CORRELATION_HEADER = 'X-Correlation-Id';
const CORRELATION_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

type RequestWithId = Request & { id?: string };

/** A well-formed caller id is adopted; anything else is replaced by a fresh UUID. */
export function resolveCorrelationId(header: unknown): string {
  return typeof header === 'string' && CORRELATION_PATTERN.test(header) ? header : randomUUID();
}

/**
 * First middleware of the stack: fixes the id before logging, CLS, body parsing or routing can need it,
 * so every log line, error body and audit row of the request carries the same value.
 */
export function correlationIdMiddleware(req: Request, res: Response, next: NextFunction): void {
  const id = resolveCorrelationId(req.headers[CORRELATION_HEADER.toLowerCase()]);
  (req as RequestWithId).id = id;
  res.setHeader(CORRELATION_HEADER, id);
  next();
}

export function correlationIdOf(req: Request): string {
  return (req as RequestWithId).id ?? resolveCorrelationId(undefined);
}
