import type { IncomingMessage, ServerResponse } from 'node:http';
import type { NextFunction, Request, Response } from 'express';
import helmet, { HelmetOptions } from 'helmet';
import { CLS_ID, CLS_REQ, ClsService } from 'nestjs-cls';
import { CORRELATION_HEADER, resolveCorrelationId } from '../context/correlation-id';

/**
 * The headers helmet sets, worked out once: with fixed options helmet sets the same names and values on every
 * answer, so they are computed at start-up by running helmet against a recording response.
 */
export function helmetHeaders(options: HelmetOptions): [string, string][] {
  const headers: [string, string][] = [];
  const recorder = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  let called = false;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, () => {
    called = true;
  });
  if (!called) throw new Error('helmet did not complete synchronously');
  return headers;
}

/**
 * First middleware of the stack, in one call:
 * - fixes the correlation id (a well-formed X-Correlation-Id is adopted, anything else replaced by a fresh UUID)
 *   and echoes it, before logging, body parsing or routing can need it, so every log line, error body and audit
 *   row of the request carries the same value;
 * - `Cache-Control: no-store` (nothing the API answers may be cached, success or error) and helmet's security
 *   headers, so every path inherits them;
 * - enters the per-request store (nestjs-cls) with the correlation id and the request: every later middleware,
 *   guard, handler and log line of the request sees the same store.
 */
export function requestStartMiddleware(cls: ClsService, helmetOptions: HelmetOptions) {
  const headers = helmetHeaders(helmetOptions);
  return (req: Request, res: Response, next: NextFunction): void => {
    const id = resolveCorrelationId(req.headers['x-correlation-id']);
    (req as Request & { id?: string }).id = id;
    res.setHeader(CORRELATION_HEADER, id);
    res.setHeader('Cache-Control', 'no-store');
    for (let i = 0; i < headers.length; i++) res.setHeader(headers[i]![0], headers[i]![1]);
    cls.run(() => {
      cls.set(CLS_ID, id);
      cls.set(CLS_REQ, req);
      next();
    });
  };
}
