import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES } from '../shared/errors/error-codes';
import { PLAIN_COOKIE_NAME, SECURE_COOKIE_NAME } from '../shared/auth/refresh-cookie-names';
import { errorEnvelopeExample, errorExample } from './error-examples';
import { INTRODUCTION } from './introduction';
import { collectRouteDocs, describeAccess, RouteDocs } from './route-docs-collector';

/**
 * The environment that builds the application in preview mode only to write its document: production rules, with
 * placeholder secrets that are never used (nothing is served, signed or connected). Used by the document test, the
 * tests' document helper and `scripts/write-openapi.js`.
 */
export const DOCUMENT_ONLY_ENV = {
  NODE_ENV: 'production',
  METRICS_TOKEN: 'unused-for-openapi-only',
  JWT_SECRET: 'unused-for-openapi-only-0123456789abcdef',
  CURSOR_SECRET: 'unused-for-openapi-only-0123456789abcdef',
  LOG_LEVEL: 'silent',
} as const;

/**
 * `refreshCookie` names the cookie the running configuration sets (`__Host-platform_refresh`, or
 * `platform_refresh` with REFRESH_COOKIE_SECURE=false), so the document never describes another one.
 */
export function buildOpenApiDocument(app: INestApplication, version: string, refreshCookie: string = SECURE_COOKIE_NAME): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Uplink API')
    .setDescription(INTRODUCTION)
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addBearerAuth({ type: 'http', scheme: 'bearer', description: 'Ingestion token `uit_...` of an ingestion credential.' }, 'ingestion-token')
    .addCookieAuth(
      refreshCookie,
      {
        type: 'apiKey',
        in: 'cookie',
        description: `\`${refreshCookie}\`: the rotating refresh token (HttpOnly; \`${SECURE_COOKIE_NAME}\` with REFRESH_COOKIE_SECURE=true, \`${PLAIN_COOKIE_NAME}\` with false)`,
      },
      'refreshCookie',
    )
    .build();
  return withDocumentation(withErrorEnvelope(SwaggerModule.createDocument(app, config)), collectRouteDocs(app));
}

/** Every /v1 operation answers failures with the one error envelope: documented once, referenced by all. */
function withErrorEnvelope(document: OpenAPIObject): OpenAPIObject {
  document.components = document.components ?? {};
  document.components.schemas = {
    ...document.components.schemas,
    ErrorEnvelope: {
      type: 'object',
      required: ['error'],
      properties: {
        error: {
          type: 'object',
          required: ['code', 'category', 'message', 'correlationId'],
          properties: {
            code: { type: 'string', enum: Object.keys(ERROR_CODES) },
            category: { type: 'string' },
            message: { type: 'string' },
            correlationId: { type: 'string' },
            details: { type: 'object', additionalProperties: true },
          },
        },
      },
    },
  };
  for (const [path, item] of Object.entries(document.paths)) {
    if (!path.startsWith('/v1/')) continue;
    for (const operation of Object.values(item) as { responses?: Record<string, unknown> }[]) {
      if (!operation || typeof operation !== 'object' || !operation.responses) continue;
      operation.responses.default = {
        description: 'Error envelope (400, 401, 403, 404, 409, 429, 500, 503)',
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' } } },
      };
    }
  }
  return document;
}

type Operation = {
  operationId?: string;
  summary?: string;
  description?: string;
  parameters?: { name: string; required?: boolean; example?: unknown }[];
  responses?: Record<string, { description?: string; content?: Record<string, unknown> }>;
  'x-uplink-permission'?: { permission: string; scope: string };
};

const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch', 'head', 'options', 'trace'];

/** Every operation of the document with its path, in document order. */
export function operationsOf(document: OpenAPIObject): { path: string; method: string; operation: Operation }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    Object.entries(item as Record<string, unknown>)
      .filter(([method]) => HTTP_METHODS.includes(method))
      .map(([method, operation]) => ({ path, method, operation: operation as Operation })),
  );
}

/**
 * Adds what the decorators do not carry: each operation's summary and description (its access rule written from
 * the route's metadata), a realistic example on every request and response schema and required parameter, and a
 * realistic error envelope on each error response an operation declares. All of it comes from the docs each
 * controller carries (@ApiDocs).
 */
function withDocumentation(document: OpenAPIObject, docs: RouteDocs): OpenAPIObject {
  const schemas = (document.components?.schemas ?? {}) as Record<string, Record<string, unknown>>;
  for (const [name, example] of Object.entries(docs.schemas)) {
    if (schemas[name]) schemas[name].example = example;
  }
  if (schemas.ErrorEnvelope) {
    schemas.ErrorEnvelope.example = errorExample('RESOURCE_NOT_FOUND', 'not_found', 'The device was not found.', { resourceType: 'device' });
  }
  const parameterExamples = docs.parameters;
  for (const { path, operation } of operationsOf(document)) {
    const route = operation.operationId ? docs.operations.get(operation.operationId) : undefined;
    const permission = operation['x-uplink-permission'];
    const platformAdminOnly = route?.platformAdminOnly ?? false;
    if (route?.docs) {
      const access = describeAccess(permission, platformAdminOnly);
      const description = access ? `${access}\n\n${route.docs.description}` : route.docs.description;
      Object.assign(operation, { summary: route.docs.summary, description });
    }
    for (const parameter of operation.parameters ?? []) {
      if (parameter.required && parameter.example === undefined && parameterExamples[parameter.name] !== undefined) {
        parameter.example = parameterExamples[parameter.name];
      }
    }
    if (!path.startsWith('/v1/')) continue;
    for (const [status, response] of Object.entries(operation.responses ?? {})) {
      const example = /^[45]\d\d$/.test(status)
        ? errorEnvelopeExample(Number(status), { path, permission: permission?.permission, platformAdminOnly, declared: route?.docs?.errors ?? {} })
        : undefined;
      if (example) response.content = { 'application/json': { schema: { $ref: '#/components/schemas/ErrorEnvelope' }, example } };
    }
  }
  return document;
}

/** `/docs` (UI) and `/docs/openapi.json`, outside `/v1` and public. */
export function setupOpenApi(app: INestApplication, version: string, refreshCookie: string = SECURE_COOKIE_NAME): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, version, refreshCookie), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
