import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';

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
  return SwaggerModule.createDocument(app, config);
}

/** `/docs` (UI) and `/docs/openapi.json`, outside `/v1` and public (design C13). */
export function setupOpenApi(app: INestApplication, version: string): void {
  SwaggerModule.setup('docs', app, () => buildOpenApiDocument(app, version), {
    jsonDocumentUrl: 'docs/openapi.json',
    yamlDocumentUrl: 'docs/openapi.yaml',
  });
}
