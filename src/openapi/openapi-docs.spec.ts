import 'reflect-metadata';
import { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { OpenAPIObject } from '@nestjs/swagger';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { AppModule } from '../app.module';
import { AppConfig } from '../config/app-config';
import { buildOpenApiDocument, DOCUMENT_ONLY_ENV, operationsOf } from './openapi';
import { collectRouteDocs } from './route-docs-collector';

type Schema = Record<string, unknown>;

/** The document as `/docs/openapi.json` serves it, built in-process without a database (preview mode). */
async function buildDocument(): Promise<{ document: OpenAPIObject; examples: Record<string, unknown> }> {
  const config = AppConfig.fromEnv(DOCUMENT_ONLY_ENV);
  const app: INestApplication = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  try {
    const document = JSON.parse(JSON.stringify(buildOpenApiDocument(app, config.version))) as OpenAPIObject;
    return { document, examples: collectRouteDocs(app).schemas };
  } finally {
    await app.close();
  }
}

const refName = (schema: Schema): string | undefined =>
  typeof schema.$ref === 'string' ? schema.$ref.replace('#/components/schemas/', '') : undefined;

/**
 * Why `schema` has no usable example, or undefined when it has one: a schema-level example, or (objects) an
 * example on every property, following $refs, array items and compositions.
 */
function missingExample(document: OpenAPIObject, schema: Schema, where: string, seen = new Set<string>()): string | undefined {
  const name = refName(schema);
  if (name) {
    if (seen.has(name)) return undefined;
    const target = document.components?.schemas?.[name] as Schema | undefined;
    if (!target) return `${where}: unresolved $ref ${name}`;
    return missingExample(document, target, `${where} -> ${name}`, new Set([...seen, name]));
  }
  if (schema.example !== undefined || schema.examples !== undefined) return undefined;
  for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
    const parts = schema[key] as Schema[] | undefined;
    if (parts?.length && parts.every((part) => refName(part) || part.type === 'object')) {
      return parts.map((part, i) => missingExample(document, part, `${where}.${key}[${i}]`, seen)).find(Boolean);
    }
  }
  if (schema.type === 'array' && schema.items) return missingExample(document, schema.items as Schema, `${where}[]`, seen);
  const properties = schema.properties as Record<string, Schema> | undefined;
  if (schema.type === 'object' && properties && Object.keys(properties).length > 0) {
    return Object.entries(properties)
      .map(([key, property]) => missingExample(document, property, `${where}.${key}`, seen))
      .find(Boolean);
  }
  return `${where}: no example`;
}

/**
 * A component schema as JSON Schema 2020-12 for checking examples: OpenAPI 3.0's `nullable` (still emitted by
 * @nestjs/swagger) becomes a `null` alternative, and objects with declared properties refuse undeclared ones, so an
 * example with a misspelt or removed property fails.
 */
function asJsonSchema(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asJsonSchema);
  if (!value || typeof value !== 'object') return value;
  const { nullable, example: _example, ...rest } = value as Schema;
  const converted = Object.fromEntries(Object.entries(rest).map(([key, inner]) => [key, key === 'properties' ? mapValues(inner, asJsonSchema) : asJsonSchema(inner)]));
  if (converted.properties && converted.additionalProperties === undefined) converted.additionalProperties = false;
  return nullable ? { anyOf: [{ type: 'null' }, converted] } : converted;
}

const mapValues = (value: unknown, map: (inner: unknown) => unknown): unknown =>
  Object.fromEntries(Object.entries(value as Schema).map(([key, inner]) => [key, map(inner)]));

describe('OpenAPI document', () => {
  let document: OpenAPIObject;
  /** Every schema example: the shared ones and those the controllers carry. */
  let examples: Record<string, unknown>;

  beforeAll(async () => {
    ({ document, examples } = await buildDocument());
  });

  it('gives every operation a one-line summary and a description', () => {
    const operations = operationsOf(document);
    expect(operations.length).toBeGreaterThanOrEqual(65);
    const lacking = operations
      .filter(({ operation }) => !operation.summary?.trim() || operation.summary.includes('\n') || (operation.description?.trim().length ?? 0) < 40)
      .map(({ method, path, operation }) => `${method.toUpperCase()} ${path} (${operation.operationId})`);
    expect(lacking).toEqual([]);
  });

  it('names every operation `<resource>_<verb>`, once, and states the access rule on every /v1 operation', () => {
    const ids = operationsOf(document).map(({ operation }) => operation.operationId ?? '');
    expect(ids.filter((id) => !/^[a-z][A-Za-z]*_[a-z][A-Za-z]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, index) => ids.indexOf(id) !== index)).toEqual([]);
    const withoutAccess = operationsOf(document)
      .filter(({ path, operation }) => path.startsWith('/v1/') && !operation.description?.includes('**Access**'))
      .map(({ operation }) => operation.operationId);
    expect(withoutAccess).toEqual([]);
  });

  it('writes rules out instead of pointing at documents outside the repository', () => {
    const texts = operationsOf(document).flatMap(({ operation }) => [
      operation.summary ?? '',
      operation.description ?? '',
      ...Object.values(operation.responses ?? {}).map((response) => response.description ?? ''),
    ]);
    expect(texts.filter((text) => /design §|spec §|api-design|api-spec/i.test(text))).toEqual([]);
    expect(JSON.stringify(document)).not.toMatch(/design §|api-design\.md|api-spec\.md/);
  });

  it('lists only values of the schema where a description names the values of an enum field (`field` (a, b or c))', () => {
    const resolve = (schema: Schema | undefined): Schema => {
      let current = schema ?? {};
      for (let i = 0; i < 10 && refName(current); i++) current = (document.components?.schemas?.[refName(current)!] ?? {}) as Schema;
      return current;
    };
    /** Enum values of every property of a schema, nested objects and array items included, by property name. */
    const enumsOf = (schema: Schema | undefined, into = new Map<string, Set<string>>(), depth = 0): Map<string, Set<string>> => {
      const resolved = resolve(schema);
      if (depth > 6) return into;
      for (const [name, raw] of Object.entries((resolved.properties ?? {}) as Record<string, Schema>)) {
        const property = resolve(raw);
        const values = (property.enum ?? resolve(property.items as Schema | undefined).enum) as unknown[] | undefined;
        if (values) into.set(name, new Set([...(into.get(name) ?? []), ...values.map(String)]));
        enumsOf(property, into, depth + 1);
        enumsOf(property.items as Schema | undefined, into, depth + 1);
      }
      return into;
    };
    const mismatches: string[] = [];
    let checked = 0;
    for (const { method, path, operation } of operationsOf(document)) {
      const body = (operation as { requestBody?: { content?: Record<string, { schema?: Schema }> } }).requestBody?.content?.['application/json']?.schema;
      const enums = enumsOf(body);
      for (const parameter of (operation.parameters ?? []) as { name: string; schema?: Schema }[]) {
        const values = resolve(parameter.schema).enum as unknown[] | undefined;
        if (values) enums.set(parameter.name, new Set(values.map(String)));
      }
      // "`field` (…)": the values the parenthesis names (backquoted ones, else every listed word) must be the field's
      for (const [, field, inside] of (operation.description ?? '').matchAll(/`([A-Za-z]+)` \(([^()]*)\)/g)) {
        const values = enums.get(field!);
        if (!values) continue;
        const list = inside!.split(';')[0]!; // what follows a semicolon is prose about the values
        const quoted = [...list.matchAll(/`([^`]+)`/g)].map(([, value]) => value!);
        const listed = quoted.length > 0 ? quoted : list.split(/,|\bor\b/).map((word) => word.trim()).filter((word) => /^[\w:/.-]+$/.test(word));
        if (listed.length < 2) continue;
        checked += 1;
        const unknown = listed.filter((value) => !values.has(value));
        if (unknown.length > 0) mismatches.push(`${method.toUpperCase()} ${path}: \`${field}\` lists ${unknown.join(', ')}; the schema has ${[...values].join(', ')}`);
      }
    }
    expect(checked).toBeGreaterThan(5);
    expect(mismatches).toEqual([]);
  });

  it('has an example for every request body and 2xx response schema', () => {
    const missing: string[] = [];
    for (const { method, path, operation } of operationsOf(document)) {
      const label = `${method.toUpperCase()} ${path}`;
      const body = (operation as { requestBody?: { content?: Record<string, { schema?: Schema }> } }).requestBody;
      for (const [type, media] of Object.entries(body?.content ?? {})) {
        if (media.schema) missing.push(missingExample(document, media.schema, `${label} request ${type}`) ?? '');
      }
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!status.startsWith('2')) continue;
        for (const [type, media] of Object.entries((response.content ?? {}) as Record<string, { schema?: Schema }>)) {
          if (media.schema) missing.push(missingExample(document, media.schema, `${label} ${status} ${type}`) ?? '');
        }
      }
    }
    expect(missing.filter(Boolean)).toEqual([]);
  });

  it('fails the example check for a schema without one (the check can fail)', () => {
    const bare = { components: { schemas: { Bare: { type: 'object', properties: { name: { type: 'string' } } } } } } as unknown as OpenAPIObject;
    expect(missingExample(bare, { $ref: '#/components/schemas/Bare' }, 'x')).toBe('x -> Bare.name: no example');
    expect(missingExample(bare, { type: 'object', properties: { name: { type: 'string', example: 'Harbour Road' } } }, 'y')).toBeUndefined();
  });

  it('keeps every schema example valid against its own schema', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'urn:uplink:document', components: { schemas: asJsonSchema(document.components?.schemas) } });
    const invalid: string[] = [];
    for (const name of Object.keys(examples)) {
      const schema = document.components?.schemas?.[name] as Schema | undefined;
      if (!schema) {
        invalid.push(`${name}: no such schema in the document`);
        continue;
      }
      const validate = ajv.getSchema(`urn:uplink:document#/components/schemas/${name}`);
      if (!validate) throw new Error(`${name} did not compile`);
      if (!validate(schema.example)) invalid.push(`${name}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(invalid).toEqual([]);

    // The check can fail: a wrong type, a misspelt property and a null where none is allowed are all refused.
    const tenant = ajv.getSchema('urn:uplink:document#/components/schemas/TenantResponse');
    const example = examples.TenantResponse as Schema;
    expect(tenant?.(example)).toBe(true);
    expect(tenant?.({ ...example, tenantNumber: 'seven' })).toBe(false);
    expect(tenant?.({ ...example, tenantKey: 'acme-water' })).toBe(false);
    expect(tenant?.({ ...example, name: null })).toBe(false);
  });

  it('shows a realistic error envelope for every error status an operation declares', () => {
    const missing: string[] = [];
    for (const { path, operation } of operationsOf(document)) {
      if (!path.startsWith('/v1/')) continue;
      for (const [status, response] of Object.entries(operation.responses ?? {})) {
        if (!/^[45]\d\d$/.test(status)) continue;
        const example = (response.content?.['application/json'] as { example?: { error?: { code?: string; correlationId?: string } } } | undefined)?.example;
        if (!example?.error?.code || !example.error.correlationId) missing.push(`${operation.operationId} ${status}`);
      }
    }
    expect(missing).toEqual([]);
    const revoke = operationsOf(document).find(({ operation }) => operation.operationId === 'users_revokePlatformAdmin');
    expect(revoke?.operation.responses?.['409']?.content?.['application/json']).toMatchObject({
      example: { error: { code: 'CONFLICT', category: 'conflict', details: { reason: 'protected_user' } } },
    });
  });

  it('gives every required path and header parameter an example', () => {
    const missing = operationsOf(document).flatMap(({ method, path, operation }) =>
      ((operation as { parameters?: { name: string; in: string; required?: boolean; example?: unknown }[] }).parameters ?? [])
        .filter((parameter) => parameter.required && parameter.in !== 'query' && parameter.example === undefined)
        .map((parameter) => `${method.toUpperCase()} ${path} ${parameter.in}:${parameter.name}`),
    );
    expect(missing).toEqual([]);
  });

  it('explains sign-in, the forced password change, the refresh cookie and Authorize in the introduction', () => {
    const intro = document.info.description ?? '';
    for (const needle of ['POST /v1/auth/login', 'POST /v1/auth/change-password', 'POST /v1/auth/refresh', '__Host-platform_refresh', 'Authorize', 'X-Correlation-Id', 'nextCursor', 'If-Match', 'ETag']) {
      expect(intro).toContain(needle);
    }
  });
});
