import type { NextFunction, Request, Response } from 'express';

/** Nothing the API answers may be cached, success or error. Set first so every path inherits it. */
export function noStoreMiddleware(_req: Request, res: Response, next: NextFunction): void {
  res.setHeader('Cache-Control', 'no-store');
  next();
}
