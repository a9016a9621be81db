import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES } from '../shared/errors/error-codes';
import { PLAIN_COOKIE_NAME, SECURE_COOKIE_NAME } from '../modules/identity/domain/refresh-cookie';

/**
 * `refreshCookie` names the cookie the running configuration sets (`__Host-platform_refresh`, or
 * `platform_refresh` with REFRESH_COOKIE_SECURE=false), so the document never describes another one.
 */
export function buildOpenApiDocument(app: INestApplication, version: string, refreshCookie: string = SECURE_COOKIE_NAME): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Uplink API')
    .setDescription('Multi-tenant IoT telemetry platform. Errors use the envelope {error:{code,category,message,correlationId,details?}}.')
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
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
  return withErrorEnvelope(SwaggerModule.createDocument(app, config));
}

/** Every /v1 operation answers failures with the one envelope of the spec: documented once, referenced by all. */
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

/** `/docs` (UI) and `/docs/openapi.json`, outside `/v1` and public (design C13). */
export function setupOpenApi(app: INestApplication, version: string, refreshCookie: string = SECURE_COOKIE_NAME): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, version, refreshCookie), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
