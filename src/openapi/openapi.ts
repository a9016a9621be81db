import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import { ERROR_CODES } from '../shared/errors/error-codes';

export function buildOpenApiDocument(app: INestApplication, version: string): OpenAPIObject {
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('Uplink API')
    .setDescription('Multi-tenant IoT telemetry platform. Errors use the envelope {error:{code,category,message,correlationId,details?}}.')
    .setVersion(version)
    .addBearerAuth({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' })
    .addCookieAuth(
      'platform_refresh',
      { type: 'apiKey', in: 'cookie', description: '`__Host-platform_refresh` (or `platform_refresh` on plain HTTP): rotating refresh token' },
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
export function setupOpenApi(app: INestApplication, version: string): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, version), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
