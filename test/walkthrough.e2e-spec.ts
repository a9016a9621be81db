import { readFileSync } from 'node:fs';
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

interface Step {
  method: 'get' | 'post' | 'patch' | 'put' | 'delete';
  path: string;
  headers: Record<string, string>;
  body?: string;
  status: number;
  expected?: string;
  /** The request block as written, for failure messages. */
  source: string;
}

const PAGE = join(__dirname, '..', 'docs', 'walkthrough.md');
const ANY = '…';

/** The `http` blocks of a markdown page, in order. */
function httpBlocks(markdown: string): string[] {
  return [...markdown.matchAll(/^```http\n([\s\S]*?)^```$/gm)].map((match) => match[1]!.replace(/\n$/, ''));
}

/** Head lines (request line or status line, then headers) and the body after the first blank line. */
function split(block: string): { head: string[]; body?: string } {
  const blank = block.indexOf('\n\n');
  const head = (blank < 0 ? block : block.slice(0, blank)).split('\n');
  const body = blank < 0 ? undefined : block.slice(blank + 2).trim();
  return { head, body: body || undefined };
}

export function stepsOf(markdown: string): Step[] {
  const blocks = httpBlocks(markdown);
  const steps: Step[] = [];
  for (let index = 0; index < blocks.length; index += 2) {
    const request = split(blocks[index]!);
    const answer = split(blocks[index + 1] ?? '');
    const [method, path] = request.head[0]!.split(' ');
    const status = /^HTTP\/1\.1 (\d{3})\b/.exec(answer.head[0] ?? '')?.[1];
    if (!method || !path || !/^(GET|POST|PATCH|PUT|DELETE)$/.test(method) || !status) {
      throw new Error(`walkthrough: expected a request block followed by its answer block, got:\n${blocks[index]}\n${blocks[index + 1]}`);
    }
    const headers = Object.fromEntries(
      request.head.slice(1).map((line) => {
        const colon = line.indexOf(':');
        return [line.slice(0, colon).trim(), line.slice(colon + 1).trim()];
      }),
    );
    steps.push({
      method: method.toLowerCase() as Step['method'],
      path,
      headers,
      body: request.body,
      status: Number(status),
      expected: answer.body,
      source: blocks[index]!,
    });
  }
  return steps;
}

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
    const requests = steps.map((step) => `${step.method.toUpperCase()} ${step.path}`);
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
        const request = t.http()[step.method](fill(step.path, step));
        for (const [name, value] of Object.entries(step.headers)) request.set(name, fill(value, step));
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
      if (step.method === 'get' && !matches(res)) {
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
