import {
  applyDecorators,
  CallHandler,
  Delete,
  ExecutionContext,
  Get,
  HttpCode,
  NestInterceptor,
  Patch,
  Post,
  Put,
  Type,
  UseInterceptors,
} from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiBadRequestResponse,
  ApiConflictResponse,
  ApiCreatedResponse,
  ApiForbiddenResponse,
  ApiNoContentResponse,
  ApiNotFoundResponse,
  ApiOkResponse,
  ApiResponseOptions,
  ApiUnprocessableEntityResponse,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { RequirePermission } from '../access/require-permission';
import type { Permission } from '../access/permissions';
import { PlatformAdminOnly } from '../auth/principal';
import { OperationId } from './operation-id';

/** The 404 of a route under `tenants/:tenantNumber`: the tenant is the target. */
export const TENANT_NOT_FOUND = 'No such tenant, or none the caller holds an effective grant in.';
/** The 404 of the existence rule for a route on one resource. */
export const EXISTENCE_NOT_FOUND = 'Missing, in another tenant, or outside the caller’s scope.';

/** What a route declares besides its method and path: its operation, access, success answer and error answers. */
export interface RouteSpec {
  operationId: string;
  /** The permission the handler checks (see @RequirePermission); absent for routes that check none. */
  permission?: Permission;
  platformAdminOnly?: boolean;
  /** The success answer's body type (none for 204). */
  type?: Type<unknown> | [Type<unknown>];
  /** The success answer's description. */
  description?: string;
  /** The success status when it is not the method's usual one (200 for a POST action, 202, 204). */
  status?: 200 | 201 | 202 | 204;
  badRequest?: string;
  forbidden?: string;
  notFound?: string;
  conflict?: string;
  unprocessable?: string;
  /** `Location` of a created resource, filled from the answer's fields or else the path's: `/v1/devices/{deviceId}`. */
  location?: string;
  /** `ETag: "<lockVersion>"` from the answer (a lock-versioned resource). */
  etag?: boolean;
  /** Decorators of this route alone (an @ApiQuery, a guard). */
  extra?: (MethodDecorator | ClassDecorator)[];
}

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
const METHODS = { get: Get, post: Post, put: Put, patch: Patch, delete: Delete } as const;
const SUCCESS = { 200: ApiOkResponse, 201: ApiCreatedResponse, 202: ApiAcceptedResponse, 204: ApiNoContentResponse } as const;

/** Sets `Location` and `ETag` from the answer a handler returns, so handlers need no `@Res()`. */
class ResultHeadersInterceptor implements NestInterceptor {
  constructor(private readonly spec: Pick<RouteSpec, 'location' | 'etag'>) {}

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const res = http.getResponse<Response>();
    const params = http.getRequest<Request>().params ?? {};
    return next.handle().pipe(
      map((result: unknown) => {
        const record = result as Record<string, unknown>;
        if (this.spec.location) res.location(this.spec.location.replace(/\{(\w+)\}/g, (_match, field: string) => String(record[field] ?? params[field])));
        if (this.spec.etag) res.setHeader('ETag', `"${String(record.lockVersion)}"`);
        return result;
      }),
    );
  }
}

/** Every route is one call of this (or of a composite below): method, path, operationId, access, answers. */
export function Route(method: Method, path: string, spec: RouteSpec): MethodDecorator {
  const status = spec.status ?? (method === 'post' ? 201 : 200);
  const success: ApiResponseOptions = {};
  if (spec.type) Object.assign(success, { type: spec.type });
  if (spec.description !== undefined) success.description = spec.description;
  const decorators: (MethodDecorator | ClassDecorator)[] = [METHODS[method](path), OperationId(spec.operationId)];
  if (spec.status !== undefined && spec.status !== (method === 'post' ? 201 : 200)) decorators.push(HttpCode(spec.status));
  if (spec.platformAdminOnly) decorators.push(PlatformAdminOnly());
  if (spec.permission) decorators.push(RequirePermission(spec.permission));
  decorators.push(SUCCESS[status](success));
  if (spec.badRequest) decorators.push(ApiBadRequestResponse({ description: spec.badRequest }));
  if (spec.forbidden) decorators.push(ApiForbiddenResponse({ description: spec.forbidden }));
  if (spec.notFound) decorators.push(ApiNotFoundResponse({ description: spec.notFound }));
  if (spec.conflict) decorators.push(ApiConflictResponse({ description: spec.conflict }));
  if (spec.unprocessable) decorators.push(ApiUnprocessableEntityResponse({ description: spec.unprocessable }));
  if (spec.location || spec.etag) decorators.push(UseInterceptors(new ResultHeadersInterceptor(spec)));
  decorators.push(...(spec.extra ?? []));
  return applyDecorators(...decorators);
}

/** A tenant-scoped list: `GET tenants/:tenantNumber/<resources>`, one cursor page (filters, `q`, `limit` in its params DTO). */
export const TenantList = (path: string, spec: RouteSpec & { type: Type<unknown> }): MethodDecorator =>
  Route('get', path, { notFound: TENANT_NOT_FOUND, ...spec });

/** A tenant-scoped create: `POST tenants/:tenantNumber/<resources>`, 201 with `Location` (and `ETag` if versioned). */
export const TenantCreate = (path: string, spec: RouteSpec & { type: Type<unknown> }): MethodDecorator =>
  Route('post', path, { notFound: TENANT_NOT_FOUND, ...spec });

/** A read by id: the existence rule's 404 (missing, other tenant, outside scope: one answer). */
export const ReadById = (path: string, spec: RouteSpec): MethodDecorator => Route('get', path, { notFound: EXISTENCE_NOT_FOUND, ...spec });

/**
 * A change of a resource by id: PATCH, or a POST action answered 200; with `etag`, the handler takes `@IfMatch()`
 * and the answer carries the new `ETag`.
 */
export const WriteById = (method: 'post' | 'patch' | 'put' | 'delete', path: string, spec: RouteSpec): MethodDecorator =>
  Route(method, path, { notFound: EXISTENCE_NOT_FOUND, ...(method === 'post' ? { status: 200 } : {}), ...spec });
