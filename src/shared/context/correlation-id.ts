import { randomUUID } from 'node:crypto';
import type { Request } from 'express';

export const CORRELATION_HEADER = 'X-Correlation-Id';
export const CORRELATION_PATTERN = /^[A-Za-z0-9._:-]{1,128}$/;

type RequestWithId = Request & { id?: string };

/** A well-formed caller id is adopted; anything else is replaced by a fresh UUID. */
export function resolveCorrelationId(header: unknown): string {
  return typeof header === 'string' && CORRELATION_PATTERN.test(header) ? header : randomUUID();
}

export function correlationIdOf(req: Request): string {
  return (req as RequestWithId).id ?? resolveCorrelationId(undefined);
}
