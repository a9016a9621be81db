import type { INestApplication } from '@nestjs/common';
import { ModulesContainer } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import { PLATFORM_ADMIN_ONLY } from '../shared/auth/principal';
import { API_DOCS, ControllerDocs, OperationDocs } from '../shared/http/route-docs';

export interface RouteFacts {
  docs?: OperationDocs;
  platformAdminOnly: boolean;
}

export interface RouteDocs {
  /** Keyed by operationId. */
  operations: Map<string, RouteFacts>;
  schemas: Record<string, unknown>;
  parameters: Record<string, unknown>;
}

/**
 * The docs every registered controller carries (@ApiDocs) and the access metadata of each of its routes, keyed by
 * operationId. A docs entry naming no route of its controller is an error: it would never reach the document.
 * Examples are merged across controllers (a parameter such as `deviceId` is shown on every module's routes), so
 * two controllers giving one schema or parameter different examples is an error too.
 */
export function collectRouteDocs(app: INestApplication): RouteDocs {
  const result: RouteDocs = { operations: new Map(), schemas: {}, parameters: {} };
  const controllers = new Set<new (...args: never[]) => unknown>();
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      if (wrapper.metatype) controllers.add(wrapper.metatype as new (...args: never[]) => unknown);
    }
  }
  for (const controller of controllers) {
    const docs = Reflect.getMetadata(API_DOCS, controller) as ControllerDocs | undefined;
    mergeExamples(result.schemas, docs?.schemas, `${controller.name}: schema`);
    mergeExamples(result.parameters, docs?.parameters, `${controller.name}: parameter`);
    const classAdminOnly = Reflect.getMetadata(PLATFORM_ADMIN_ONLY, controller) === true;
    const prototype = controller.prototype as Record<string, unknown>;
    const documented = new Set<string>();
    for (const name of Object.getOwnPropertyNames(prototype)) {
      const handler = prototype[name];
      if (name === 'constructor' || typeof handler !== 'function') continue;
      const operationId = (Reflect.getMetadata(DECORATORS.API_OPERATION, handler) as { operationId?: string } | undefined)?.operationId;
      if (!operationId) continue;
      documented.add(operationId);
      result.operations.set(operationId, {
        docs: docs?.operations[operationId],
        platformAdminOnly: classAdminOnly || Reflect.getMetadata(PLATFORM_ADMIN_ONLY, handler) === true,
      });
    }
    const stray = Object.keys(docs?.operations ?? {}).filter((id) => !documented.has(id));
    if (stray.length > 0) throw new Error(`${controller.name} documents operations it does not serve: ${stray.join(', ')}`);
  }
  return result;
}

const SCOPES: Record<string, string> = {
  T: 'through a tenant-level grant (a grant on a unit is not enough)',
  S: 'through a grant covering the target (its unit, or an ancestor with `includeDescendants`)',
  '*': 'through any effective grant in the tenant',
};

/** The access rule of a route, written from its @RequirePermission or @PlatformAdminOnly metadata. */
export function describeAccess(permission: { permission: string; scope: string } | undefined, platformAdminOnly: boolean): string | undefined {
  if (platformAdminOnly) {
    return '**Access**: platform administrators only. Anyone else gets 403 `platform_admin_required` before the request is validated or anything is looked up.';
  }
  if (!permission) return undefined;
  return `**Access**: \`${permission.permission}\` ${SCOPES[permission.scope]}; platform administrators hold every permission. A visible target without the permission is 403 \`missing_permission\`.`;
}

function mergeExamples(into: Record<string, unknown>, from: Record<string, unknown> | undefined, what: string): void {
  for (const [name, example] of Object.entries(from ?? {})) {
    if (name in into && JSON.stringify(into[name]) !== JSON.stringify(example)) {
      throw new Error(`${what} ${name} has an example that differs from another controller's`);
    }
    into[name] = example;
  }
}
