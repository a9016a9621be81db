import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Response } from 'supertest';
import { startTestApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/*
 * docs/walkthrough.md, run as written: every `http` block of the page in order, a request followed by its answer.
 * `{{name}}` in a request is a value from an earlier answer (any `...Id`, `tenantNumber`, `accessToken` or `token`
 * property, and `etag` from the ETag header). An answer block gives the status and a partial body: every property
 * shown must match, `"…"` matches any value. A GET is retried until its answer matches (processing runs in the
 * background).
 */

/**
 * A request of the page and the answer it shows, parsed by scripts/postman-walkthrough.js (which also turns the page
 * into the "First uplink" Postman collection).
 */
interface Step {
  heading: string;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  headers: [string, string][];
  body?: string;
  status: number;
  /** The answer block's JSON text. */
  expected?: string;
  /** The request block as written, for failure messages. */
  source: string;
}

const { stepsOf } = createRequire(__filename)('../scripts/postman-walkthrough.js') as { stepsOf: (markdown: string) => Step[] };
const PAGE = join(__dirname, '..', 'docs', 'walkthrough.md');
const ANY = '…';

/** The expected partial body: `"…"` becomes "anything". */
function expectation(value: unknown): unknown {
  if (value === ANY) return expect.anything();
  if (Array.isArray(value)) return value.map(expectation);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, expectation(inner)]));
  return value;
}

describe('docs/walkthrough.md', () => {
  let t: TestApp;
  const steps = stepsOf(readFileSync(PAGE, 'utf8'));

  beforeAll(async () => {
    // The admin of the page: `admin`, its one-time password already changed to the one the page signs in with.
    t = await startTestApp({
      env: {
        PLATFORM_ADMIN_USERNAME: 'admin',
        PLATFORM_ADMIN_EMAIL: 'admin@uplink.test',
        PLATFORM_ADMIN_PASSWORD: 'my-own-admin-password',
      },
    });
  });
  afterAll(() => t?.close());

  it('has every step of a first uplink', () => {
    const requests = steps.map((step) => `${step.method} ${step.path}`);
    expect(requests).toEqual([
      'POST /v1/auth/login',
      'POST /v1/tenants',
      'POST /v1/tenants/{{tenantNumber}}/device-types',
      'POST /v1/device-types/{{deviceTypeId}}/fields',
      'POST /v1/device-types/{{deviceTypeId}}/fields',
      'POST /v1/device-types/{{deviceTypeId}}/fields',
      'POST /v1/tenants/{{tenantNumber}}/devices',
      'POST /v1/tenants/{{tenantNumber}}/flow-blocks',
      'POST /v1/flow-blocks/{{flowBlockId}}/versions',
      'POST /v1/flow-blocks/{{flowBlockId}}/versions/{{flowBlockVersionId}}/release',
      'POST /v1/device-types/{{deviceTypeId}}/flow',
      'POST /v1/flows/{{flowId}}/versions',
      'POST /v1/flows/{{flowId}}/versions/{{flowVersionId}}/release',
      'GET /v1/flows/{{flowId}}',
      'POST /v1/flows/{{flowId}}/activate',
      'POST /v1/tenants/{{tenantNumber}}/ingestion-credentials',
      'POST /v1/ingestion/http',
      'GET /v1/devices/{{deviceId}}/current-values',
    ]);
  });

  it('runs every request of the page and gets the answers it shows', async () => {
    const values: Record<string, string> = {};
    const fill = (text: string, step: Step) =>
      text.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => {
        if (values[name] === undefined) throw new Error(`{{${name}}} is not known yet at:\n${step.source}`);
        return values[name]!;
      });

    for (const step of steps) {
      const send = async (): Promise<Response> => {
        const request = t.http()[step.method.toLowerCase() as 'get' | 'post' | 'patch' | 'put' | 'delete'](fill(step.path, step));
        for (const [name, value] of step.headers) request.set(name, fill(value, step));
        return step.body === undefined ? request : request.send(JSON.parse(fill(step.body, step)) as object);
      };
      const expected = step.expected === undefined ? undefined : expectation(JSON.parse(fill(step.expected, step)));
      const matches = (res: Response) => {
        try {
          expect(res.status).toBe(step.status);
          if (expected !== undefined) expect(res.body).toMatchObject(expected as object);
          return true;
        } catch {
          return false;
        }
      };

      let res = await send();
      if (step.method === 'GET' && !matches(res)) {
        // On a timeout the assertions below show how the last answer differs.
        await waitUntil(async () => matches((res = await send())), 10_000).catch(() => undefined);
      }
      expect({ request: step.source, status: res.status, body: res.body }).toMatchObject({ request: step.source, status: step.status });
      if (expected !== undefined) expect(res.body).toMatchObject(expected as object);

      for (const [name, value] of Object.entries(res.body as Record<string, unknown>)) {
        if ((/Id$/.test(name) || ['tenantNumber', 'accessToken', 'token'].includes(name)) && (typeof value === 'string' || typeof value === 'number')) {
          values[name] = String(value);
        }
      }
      if (res.headers.etag) values.etag = res.headers.etag as string;
    }
  });
});
