import type { Response } from 'supertest';
import type { TestApp } from './test-app';

/** Requests of one caller, bearer token attached. */
export function as(t: TestApp, token: string) {
  const auth = (req: ReturnType<ReturnType<TestApp['http']>['get']>) => req.set('Authorization', `Bearer ${token}`);
  return {
    get: (path: string) => auth(t.http().get(path)),
    post: (path: string, body?: object) => auth(t.http().post(path)).send(body),
    patch: (path: string, body?: object) => auth(t.http().patch(path)).send(body),
    put: (path: string) => auth(t.http().put(path)),
    delete: (path: string) => auth(t.http().delete(path)),
  };
}

/** `details.fields` of a VALIDATION_FAILED answer as `{path, rule}` pairs. */
export function fieldsOf(res: Response): { path: string; rule: string }[] {
  return (res.body.error.details.fields as { path: string; rule: string }[]).map(({ path, rule }) => ({ path, rule }));
}

/** Status and error envelope without the per-request correlation id: two answers compared for sameness. */
export function withoutCorrelation(res: Response): unknown {
  const { correlationId: _ignored, ...error } = (res.body as { error: Record<string, unknown> }).error;
  return { status: res.status, error };
}

/**
 * An answer in the error envelope: the status, code and category when given, `Cache-Control: no-store`, JSON, the
 * correlation id of the `X-Correlation-Id` header, and nothing internal (stack traces, file paths, SQL or driver
 * text).
 */
export function expectEnvelope(res: Response, expected: { status?: number; code?: string; category?: string } = {}): void {
  if (expected.status !== undefined) expect(res.status).toBe(expected.status);
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.body).toEqual({
    error: expect.objectContaining({
      code: expected.code ?? expect.any(String),
      category: expected.category ?? expect.any(String),
      message: expect.any(String),
      correlationId: res.headers['x-correlation-id'],
    }),
  });
  expect(JSON.stringify(res.body)).not.toMatch(/at \w+ \(|\.ts:\d+|\/srv\/|SELECT|no_such_table|relation "|stack/i);
}
