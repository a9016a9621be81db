import 'reflect-metadata';
import type { INestApplication } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { OpenAPIObject } from '@nestjs/swagger';
import { AppModule } from '../../src/app.module';
import { AppConfig } from '../../src/config/app-config';
import { buildOpenApiDocument, DOCUMENT_ONLY_ENV } from '../../src/openapi/openapi';

/** The document as `/docs/openapi.json` serves it, built in-process without a database (preview mode). */
export async function buildOpenApi(): Promise<OpenAPIObject> {
  const config = AppConfig.fromEnv(DOCUMENT_ONLY_ENV);
  const app: INestApplication = await NestFactory.create(AppModule.forRoot(config), { preview: true, logger: false, abortOnError: false });
  try {
    return JSON.parse(JSON.stringify(buildOpenApiDocument(app, config.version))) as OpenAPIObject;
  } finally {
    await app.close();
  }
}

export const HTTP_METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;
export type HttpMethod = (typeof HTTP_METHODS)[number];

/** `METHOD /path/{template}` of every operation of the document. */
export function operationsOf(document: OpenAPIObject): { method: HttpMethod; path: string; operation: Record<string, unknown> }[] {
  return Object.entries(document.paths).flatMap(([path, item]) =>
    HTTP_METHODS.filter((method) => (item as Record<string, unknown>)[method]).map((method) => ({
      method,
      path,
      operation: (item as Record<string, Record<string, unknown>>)[method]!,
    })),
  );
}

/** The operation template a concrete request path (no query) matches: literal segments win over parameters. */
export function templateOf(document: OpenAPIObject, concretePath: string): string | undefined {
  const segments = concretePath.split('/');
  let best: { path: string; literals: number } | undefined;
  for (const path of Object.keys(document.paths)) {
    const template = path.split('/');
    if (template.length !== segments.length) continue;
    let literals = 0;
    const matches = template.every((part, index) => {
      if (/^\{.+\}$/.test(part)) return segments[index] !== '';
      literals += 1;
      return part === segments[index];
    });
    if (matches && (!best || literals > best.literals)) best = { path, literals };
  }
  return best?.path;
}
