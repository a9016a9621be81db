import { randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import fc from 'fast-check';
import { buildOpenApiDocument } from '../src/openapi/openapi';
import { seedAssignment, seedDevice, seedDeviceType, seedField } from './support/devices';
import { seedRawMessage } from './support/raw-messages';
import { seedGrant, seedTenant, seedUnit } from './support/tenancy';
import { loginAdmin, seedUser } from './support/auth';
import { startTestApp, TEST_ORIGIN, TestApp } from './support/test-app';

/*
 * Property-based fuzzing of every operation of the OpenAPI document (generated in-process, as /docs serves it, so
 * an endpoint is fuzzed the day it is added). Each case starts from a request that would reach deep validation
 * (a platform admin, real seeded resources in the path, a schema-shaped body) and breaks it: wrong types, missing
 * and extra properties, NUL and lone surrogates, overlong and oddly-counted strings, deep nesting, bad path and
 * query values, bad headers, bodies that are not JSON or not UTF-8. Every answer must be below 500; every 4xx
 * must be the error envelope with `Cache-Control: no-store`; a rejected request must leave the stored data as it
 * was (per-table row count and newest row version).
 *
 * Seeded and bounded: FUZZ_SEED reproduces a run (the seed is printed), FUZZ_RUNS is the number of cases per
 * operation (default 40).
 */

const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);
const RUNS_PER_OPERATION = Number(process.env.FUZZ_RUNS ?? 40);

/**
 * Tables a rejected request (or the service beside it) may legitimately write: the audit trail (denied), the login
 * throttles, the caller's session activity (`last_used_at`, touched by any authenticated request) and the
 * background job queue (recurring housekeeping runs on its own schedule).
 */
const LOG_TABLES = new Set(['audit_log', 'login_ip_attempts', 'login_identifier_failures', 'schema_migrations', 'sessions', 'jobs']);

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  format?: string;
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  allOf?: Schema[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  additionalProperties?: boolean | Schema;
  nullable?: boolean;
};

interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header' | 'cookie';
  required?: boolean;
  schema?: Schema;
}

interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
}

interface FuzzRequest {
  path: string;
  query: [string, string][];
  headers: Record<string, string>;
  body?: string | Buffer;
}

interface Seeded {
  params: Record<string, string>;
  uuids: string[];
}

describe('fuzz: every operation of the OpenAPI document', () => {
  let t: TestApp;
  let token: string;
  let seeded: Seeded;
  let operations: Operation[];
  let schemas: Record<string, Schema>;
  let checksumSql: string;
  let requests = 0;
  const statuses = new Map<number, number>();

  beforeAll(async () => {
    t = await startTestApp();
    token = (await loginAdmin(t)).accessToken;
    const tenant = await seedTenant(t);
    const unit = await seedUnit(t, tenant);
    const child = await seedUnit(t, tenant, unit);
    const type = await seedDeviceType(t, tenant);
    const field = await seedField(t, tenant, type);
    const device = await seedDevice(t, tenant, type);
    const assignmentId = await seedAssignment(t, tenant, device, unit, new Date(Date.now() - 3600_000));
    const user = await seedUser(t);
    const membershipId = await seedGrant(t, user.userId, tenant, 'tenant_operator', unit);
    const sessions = await t.http().get('/v1/auth/sessions').set('Authorization', `Bearer ${token}`);
    const sessionId = String((sessions.body as { items?: { sessionId?: string }[] }).items?.[0]?.sessionId ?? '00000000-0000-4000-8000-000000000000');
    seeded = {
      params: {
        tenantNumber: String(tenant.tenantNumber),
        organizationUnitId: child.organizationUnitId,
        deviceTypeId: type.deviceTypeId,
        key: field.key,
        deviceId: device.deviceId,
        deviceAssignmentId: String(assignmentId),
        userId: user.userId,
        membershipId,
        sessionId,
      },
      uuids: [unit.organizationUnitId, child.organizationUnitId, type.deviceTypeId, device.deviceId, user.userId],
    };

    const document = buildOpenApiDocument(t.app, 'fuzz');
    schemas = (document.components?.schemas ?? {}) as Record<string, Schema>;
    operations = [];
    for (const [path, item] of Object.entries(document.paths)) {
      // The test-only probe routes fail on purpose; every production operation is fuzzed.
      if (path.startsWith('/v1/_probe')) continue;
      for (const [method, op] of Object.entries(item as Record<string, unknown>)) {
        if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
        const operation = op as { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } };
        operations.push({
          method,
          path,
          parameters: operation.parameters ?? [],
          body: operation.requestBody?.content?.['application/json']?.schema,
        });
      }
    }

    const tables = await t.dataSource.query<{ tablename: string }[]>(`SELECT tablename FROM pg_tables WHERE schemaname = 'public' ORDER BY 1`);
    checksumSql = tables
      .map(({ tablename }) => tablename)
      .filter((name) => !LOG_TABLES.has(name) && !name.startsWith('login_'))
      .map((name) => `SELECT '${name}' AS t, count(*)::text || ':' || coalesce(max(xmin::text::bigint), 0)::text AS v FROM "${name}"`)
      .join(' UNION ALL ');
    process.stdout.write(`fuzz: seed ${SEED} (FUZZ_SEED=${SEED} reproduces), ${RUNS_PER_OPERATION} cases per operation\n`);
  });

  afterAll(async () => {
    const byStatus = [...statuses.entries()].sort(([a], [b]) => a - b).map(([status, n]) => `${status}:${n}`).join(' ');
    process.stdout.write(`fuzz: ${requests} requests over ${operations?.length ?? 0} operations, seed ${SEED}; answers ${byStatus}\n`);
    await t.close();
  });

  const resolve = (schema: Schema | undefined): Schema => {
    let current = schema ?? {};
    for (let i = 0; i < 10 && current.$ref; i++) current = schemas[current.$ref.split('/').pop()!] ?? {};
    if (current.allOf?.length === 1) return resolve(current.allOf[0]);
    return current;
  };

  const typeOf = (schema: Schema): string => {
    const type = Array.isArray(schema.type) ? schema.type.find((x) => x !== 'null') : schema.type;
    if (type) return type;
    if (schema.properties) return 'object';
    if (schema.enum) return typeof schema.enum[0];
    return 'string';
  };

  /** A value the schema accepts, as far as a schema can say (real seeded ids for UUIDs). */
  const validValue = (raw: Schema | undefined, name: string, depth = 0): unknown => {
    const schema = resolve(raw);
    if (schema.enum?.length) return schema.enum[0];
    switch (typeOf(schema)) {
      case 'integer':
      case 'number':
        return schema.minimum ?? 1;
      case 'boolean':
        return true;
      case 'array':
        return depth > 4 ? [] : [validValue(schema.items, name, depth + 1)];
      case 'object': {
        const out: Record<string, unknown> = {};
        if (depth > 4) return out;
        for (const [key, inner] of Object.entries(schema.properties ?? {})) out[key] = validValue(inner, key, depth + 1);
        return out;
      }
      default:
        if (schema.format === 'uuid' || /Id$/.test(name)) return seeded.params[name] ?? seeded.uuids[0];
        if (schema.format === 'date-time') return new Date(Date.now() - 60_000).toISOString();
        if (schema.format === 'email' || /email/i.test(name)) return `fuzz-${Date.now()}@uplink.test`;
        if (/password/i.test(name)) return 'fuzz-password-123456';
        return `fuzz-${name.toLowerCase().replace(/[^a-z0-9]/g, '')}`.slice(0, Math.max(1, schema.maxLength ?? 40));
    }
  };

  // ---- generators of bad pieces ----

  const nasty = fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\ud800',
    'x\udc00',
    '\ud83d',
    'a\uFE0F'.repeat(300),
    '\u{1F680}'.repeat(201),
    'é'.repeat(1025),
    'a'.repeat(5000),
    '',
    ' ',
    '\t\n',
    '%00',
    "'; DROP TABLE tenants; --",
    '../../etc/passwd',
    '2026-W01-1',
    '0000-01-01T00:00:00Z',
    '2026-02-30T00:00:00Z',
    '"a b"@x.test',
    '-1',
    '1e309',
    '99999999999999999999',
    '00000000-0000-0000-0000-000000000000',
  );
  const wrongType = fc.constantFrom<unknown>(null, true, 0, -1, 1.5, 2 ** 53, -(2 ** 31) - 1, 'string', [], [1, 'a'], {}, { a: { b: 1 } });
  const protoName = fc.constantFrom('toString', 'constructor', 'valueOf', 'hasOwnProperty', '__proto__', '__defineGetter__', 'isPrototypeOf');
  const extraName = fc.oneof(protoName, fc.string({ minLength: 1, maxLength: 8 }), fc.constant('a\u0000'));
  const deep = fc.integer({ min: 60, max: 3000 }).map((n) => JSON.parse('['.repeat(Math.min(n, 64)) + ']'.repeat(Math.min(n, 64))) as unknown);
  const badPathValue = fc.constantFrom(
    '%zz',
    '%00',
    '%ED%A0%80',
    '%E0%A4%A',
    '0',
    '-1',
    '2147483648',
    '99999999999999999999',
    'abc',
    '1.5',
    '1e3',
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
    'a'.repeat(400),
    '%F0%9F%9A%80',
    '%20',
    'toString',
    '__proto__',
  );
  const badHeaders = fc.constantFrom<Record<string, string>>(
    { 'If-Match': 'garbage' },
    { 'If-Match': '"' + '9'.repeat(40) + '"' },
    { 'If-Match': '*' },
    { 'If-Match': 'W/"1"' },
    { 'Content-Type': 'text/plain' },
    { 'Content-Type': 'application/json; charset=latin1' },
    { 'Content-Encoding': 'gzip' },
    { 'Content-Encoding': 'br' },
    { 'Content-Encoding': 'x-bogus' },
    { 'X-Correlation-Id': 'bad id with spaces' },
    { Authorization: 'Bearer not-a-token' },
    { Authorization: 'Basic Zm9vOmJhcg==' },
    { Accept: 'text/html' },
    { 'X-Big': 'a'.repeat(17 * 1024) },
    { Cookie: 'platform_refresh=' + 'x'.repeat(3000) },
  );
  const rawBody = fc.constantFrom<string | Buffer>(
    '{',
    '{"a":',
    '[]',
    '"text"',
    '1',
    'null',
    'true',
    '{"a":1}{"b":2}',
    '\uFEFF{}',
    Buffer.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
    '['.repeat(3000) + ']'.repeat(3000),
    '{"x":' + '{"y":'.repeat(2500) + '1' + '}'.repeat(2501),
    '{"a":"\\ud800"}',
    '{"a":"\\u0000"}',
  );

  type Mutation =
    | { kind: 'wrongType'; value: unknown; pick: number }
    | { kind: 'missing'; pick: number }
    | { kind: 'extra'; name: string; value: unknown }
    | { kind: 'nastyString'; value: string; pick: number }
    | { kind: 'deep'; value: unknown; pick: number }
    | { kind: 'nestedNasty'; value: string; key: string; pick: number }
    | { kind: 'badPath'; value: string; pick: number }
    | { kind: 'badQuery'; value: string; pick: number }
    | { kind: 'extraQuery'; name: string; value: string }
    | { kind: 'badHeaders'; headers: Record<string, string> }
    | { kind: 'rawBody'; body: string | Buffer };

  const mutation: fc.Arbitrary<Mutation> = fc.oneof(
    fc.record({ kind: fc.constant('wrongType' as const), value: wrongType, pick: fc.nat() }),
    fc.record({ kind: fc.constant('missing' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('extra' as const), name: extraName, value: fc.oneof(wrongType, nasty) }),
    fc.record({ kind: fc.constant('nastyString' as const), value: nasty, pick: fc.nat() }),
    fc.record({ kind: fc.constant('deep' as const), value: deep, pick: fc.nat() }),
    fc.record({ kind: fc.constant('nestedNasty' as const), value: nasty, key: fc.oneof(protoName, nasty), pick: fc.nat() }),
    fc.record({ kind: fc.constant('badPath' as const), value: badPathValue, pick: fc.nat() }),
    fc.record({ kind: fc.constant('badQuery' as const), value: fc.oneof(nasty, badPathValue), pick: fc.nat() }),
    fc.record({ kind: fc.constant('extraQuery' as const), name: extraName, value: fc.oneof(nasty, badPathValue) }),
    fc.record({ kind: fc.constant('badHeaders' as const), headers: badHeaders }),
    fc.record({ kind: fc.constant('rawBody' as const), body: rawBody }),
  );

  const at = <T>(list: T[], pick: number): T | undefined => (list.length ? list[pick % list.length] : undefined);

  /** The operation's request broken by each mutation in turn. */
  function build(operation: Operation, mutations: Mutation[]): FuzzRequest {
    const pathParams = operation.parameters.filter((p) => p.in === 'path');
    const queryParams = operation.parameters.filter((p) => p.in === 'query');
    const params: Record<string, string> = {};
    for (const p of pathParams) params[p.name] = encodeURIComponent(seeded.params[p.name] ?? '1');
    const query: [string, string][] = [];
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (operation.parameters.some((p) => p.in === 'header' && p.name.toLowerCase() === 'if-match')) headers['If-Match'] = '"1"';
    const bodySchema = operation.body ? resolve(operation.body) : undefined;
    let body: unknown = bodySchema ? validValue(bodySchema, 'body') : undefined;
    let raw: string | Buffer | undefined;
    const bodyKeys = (): string[] => (body && typeof body === 'object' && !Array.isArray(body) ? Object.keys(body) : []);
    const setBodyKey = (pick: number, value: unknown): void => {
      const key = at(bodyKeys(), pick) ?? 'fuzz';
      body = { ...((body as object | undefined) ?? {}), [key]: value };
    };

    for (const m of mutations) {
      switch (m.kind) {
        case 'wrongType':
          setBodyKey(m.pick, m.value);
          break;
        case 'missing': {
          const key = at(bodyKeys(), m.pick);
          if (key) delete (body as Record<string, unknown>)[key];
          else body = {};
          break;
        }
        case 'extra': {
          const copy: Record<string, unknown> = { ...((body as object | undefined) ?? {}) };
          Object.defineProperty(copy, m.name, { value: m.value, enumerable: true, configurable: true, writable: true });
          body = copy;
          break;
        }
        case 'nastyString':
          setBodyKey(m.pick, m.value);
          break;
        case 'deep':
          setBodyKey(m.pick, m.value);
          break;
        case 'nestedNasty': {
          const inner: Record<string, unknown> = {};
          Object.defineProperty(inner, m.key, { value: m.value, enumerable: true, configurable: true, writable: true });
          setBodyKey(m.pick, inner);
          break;
        }
        case 'badPath': {
          const p = at(pathParams, m.pick);
          if (p) params[p.name] = m.value;
          break;
        }
        case 'badQuery': {
          const p = at(queryParams, m.pick);
          query.push([p?.name ?? 'q', m.value]);
          break;
        }
        case 'extraQuery':
          query.push([m.name, m.value]);
          break;
        case 'badHeaders':
          Object.assign(headers, m.headers);
          break;
        case 'rawBody':
          raw = m.body;
          break;
      }
    }
    const path = operation.path.replace(/\{([^}]+)\}/g, (_all, name: string) => params[name] ?? '1');
    const payload = raw ?? (body === undefined ? undefined : JSON.stringify(body));
    if (payload !== undefined && !headers['Content-Type']) headers['Content-Type'] = 'application/json';
    return { path, query, headers, body: payload };
  }

  async function send(method: string, request: FuzzRequest): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
    // Query values are sent percent-encoded byte for byte; lone surrogates cannot be, so they go as invalid UTF-8.
    const encode = (value: string): string => {
      try {
        return encodeURIComponent(value);
      } catch {
        return '%ED%A0%80';
      }
    };
    const search = request.query.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&');
    const url = new URL(t.baseUrl);
    const body = request.body === undefined ? undefined : Buffer.from(request.body);
    requests++;
    // node:http, not fetch: GET and DELETE carry a body too (some clients send one), and any header goes.
    return new Promise((resolve, reject) => {
      const req = httpRequest(
        {
          host: url.hostname,
          port: url.port,
          method: method.toUpperCase(),
          path: `${request.path}${search ? `?${search}` : ''}`,
          headers: { ...request.headers, ...(body ? { 'Content-Length': String(body.length) } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString() }));
          res.on('error', reject);
        },
      );
      req.on('error', reject);
      req.end(body);
    });
  }

  const checksum = async (): Promise<string> =>
    (await t.dataSource.query<{ t: string; v: string }[]>(checksumSql)).map(({ t: table, v }) => `${table}=${v}`).join(',');

  it('answers every operation’s bad input with a 4xx envelope, never a 5xx, and changes nothing it rejects', async () => {
    expect(operations.length).toBeGreaterThan(50);
    const failures: string[] = [];
    let lastProblem = '';
    const problem = (message: string): Error => {
      lastProblem = message;
      return new Error(message);
    };
    for (const [index, operation] of operations.entries()) {
      await fc.assert(
        fc.asyncProperty(fc.array(mutation, { minLength: 1, maxLength: 3 }), async (mutations) => {
          const request = build(operation, mutations);
          const before = await checksum();
          const res = await send(operation.method, request);
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const label = `${operation.method.toUpperCase()} ${operation.path} ${JSON.stringify(mutations).slice(0, 300)} -> ${res.status} ${res.text.slice(0, 300)}`;
          if (res.status >= 500) throw problem(`5xx: ${label}`);
          if (res.status >= 400) {
            if (res.headers['cache-control'] !== 'no-store') throw problem(`no Cache-Control: no-store: ${label}`);
            let parsed: { error?: { code?: unknown; message?: unknown; correlationId?: unknown } } = {};
            try {
              parsed = JSON.parse(res.text) as typeof parsed;
            } catch {
              throw problem(`not JSON: ${label}`);
            }
            if (typeof parsed.error?.code !== 'string' || typeof parsed.error.message !== 'string' || typeof parsed.error.correlationId !== 'string') {
              throw problem(`not the error envelope: ${label}`);
            }
            const after = await checksum();
            if (after !== before) throw problem(`a rejected request changed stored data: ${label}\n${before}\n${after}`);
          }
          // A fuzzed logout or session deletion that succeeded ends the admin's session: sign in again.
          if (res.status === 401 && res.text.includes('revoked_session')) token = (await loginAdmin(t)).accessToken;
        }),
        { seed: SEED + index, numRuns: RUNS_PER_OPERATION, endOnFailure: true },
      ).catch((error: Error) => failures.push(`${lastProblem || error.message} (seed ${SEED + index})`));
    }
    expect(failures).toEqual([]);
  }, 600_000); // every operation of the document is fuzzed, so the run grows with the API; the bound only stops a hang

  /** send(), signing in again first when an earlier request (a logout that should have failed) ended the admin's session. */
  async function sendSignedIn(method: string, request: FuzzRequest): Promise<{ status: number; headers: Record<string, unknown>; text: string }> {
    const res = await send(method, request);
    if (res.status !== 401 || !res.text.includes('The session has ended')) return res;
    token = (await loginAdmin(t)).accessToken;
    return send(method, { ...request, headers: { ...request.headers, Authorization: `Bearer ${token}` } });
  }

  /** Paths (dot-separated) of the date-time properties of a body schema, nested objects included. */
  const dateTimePaths = (raw: Schema | undefined, prefix = '', depth = 0): string[] => {
    const schema = resolve(raw);
    if (depth > 4) return [];
    if (schema.format === 'date-time') return [prefix];
    return Object.entries(schema.properties ?? {}).flatMap(([key, inner]) => dateTimePaths(inner, prefix ? `${prefix}.${key}` : key, depth + 1));
  };
  const withPath = (body: unknown, path: string, value: string): unknown => {
    const keys = path.split('.');
    const copy = JSON.parse(JSON.stringify(body ?? {})) as Record<string, unknown>;
    let node = copy;
    for (const key of keys.slice(0, -1)) node = (node[key] = typeof node[key] === 'object' && node[key] !== null ? node[key] : {}) as Record<string, unknown>;
    node[keys.at(-1)!] = value;
    return copy;
  };

  it('answers every date-time query parameter and body field at the extreme offsets and years as for any other instant or with 400, never 5xx', async () => {
    // valid RFC 3339 date-times: the extreme offsets, the first and last 4-digit years, and instants those offsets push past them
    const extremes = [
      '2026-01-01T00:00:00+23:59',
      '2026-01-01T00:00:00-23:59',
      '0001-01-01T00:00:00Z',
      '9999-12-31T23:59:59.999Z',
      '0001-01-01T00:00:00+23:59',
      '9999-12-31T23:59:59-23:59',
    ];
    const failures: string[] = [];
    let checked = 0;
    // Real or well-formed ids in every path, so that each request gets past the path to its date-times.
    const saved = { ...seeded.params };
    seeded.params.rawIngestionMessageId = (await seedRawMessage(t)).rawIngestionMessageId;
    for (const operation of operations) {
      for (const [, name] of operation.path.matchAll(/\{([^}]+)\}/g)) if (/Id$/.test(name!) && !seeded.params[name!]) seeded.params[name!] = randomUUID();
    }
    for (const operation of operations) {
      const queryFields = operation.parameters.filter((p) => p.in === 'query' && resolve(p.schema).format === 'date-time').map((p) => p.name);
      const bodyFields = operation.body ? dateTimePaths(operation.body) : [];
      for (const value of extremes) {
        const requests: [string, FuzzRequest][] = [];
        for (const name of queryFields) {
          const request = build(operation, []);
          // a window needs both ends: the other end is a valid instant either side of the extreme
          for (const other of queryFields.filter((n) => n !== name)) request.query.push([other, name === 'to' ? '0001-01-01T00:00:00Z' : '9999-12-31T00:00:00Z']);
          request.query.push([name, value]);
          requests.push([`query ${name}`, request]);
        }
        for (const path of bodyFields) {
          const request = build(operation, []);
          request.body = JSON.stringify(withPath(JSON.parse(String(request.body ?? '{}')), path, value));
          requests.push([`body ${path}`, request]);
        }
        for (const [where, request] of requests) {
          checked += 1;
          const res = await sendSignedIn(operation.method, request);
          const envelope = res.status < 400 || /^\{"error":\{"code":"[A-Z_]+"/.test(res.text);
          if (res.status >= 500 || !envelope) failures.push(`${operation.method.toUpperCase()} ${operation.path} ${where}=${value} -> ${res.status} ${res.text.slice(0, 200)}`);
        }
      }
    }
    seeded.params = saved;
    expect(checked).toBeGreaterThan(50);
    expect(failures).toEqual([]);
  }, 120_000);

  it('answers a body that is not JSON (whitespace only included) with 400 json on every operation that takes a body, optional bodies included', async () => {
    const failures: string[] = [];
    // (ingestion routes check their token before they read the body: tested with a token in the ingestion suites)
    const withBody = operations.filter((operation) => ['post', 'put', 'patch'].includes(operation.method) && !operation.path.startsWith('/v1/ingestion/'));
    expect(withBody.length).toBeGreaterThan(20);
    for (const operation of withBody) {
      for (const body of [' ', '\n\t ', '{', 'not json']) {
        const request = build(operation, []);
        request.body = body;
        request.headers['Content-Type'] = 'application/json';
        request.headers.Origin = TEST_ORIGIN; // the cookie routes (refresh, logout) check it before the body
        const res = await sendSignedIn(operation.method, request);
        if (res.status !== 400 || !res.text.includes('"rule":"json"')) failures.push(`${operation.method.toUpperCase()} ${operation.path} ${JSON.stringify(body)} -> ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
