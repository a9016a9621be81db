import { applyDecorators, createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import { ApiExtension } from '@nestjs/swagger';
import type { Request } from 'express';
import { principalOf, Principal } from '../auth/principal';
import { Permission, PERMISSION_SCOPES } from './permissions';

export const REQUIRED_PERMISSION = 'uplink:requiredPermission';

/**
 * Declares the permission a route needs; its scope kind (`T`, `S`, `*`) comes from `permissions.ts`. The
 * check itself runs in the handler, after request validation and the 404 of the target, through
 * `TenantAccess.require(caller.permission, unit?)`.
 */
export const RequirePermission = (permission: Permission): MethodDecorator =>
  applyDecorators(
    SetMetadata(REQUIRED_PERMISSION, permission),
    ApiExtension('x-uplink-permission', { permission, scope: PERMISSION_SCOPES[permission] }),
  );

/** The caller and the permission its route declared with @RequirePermission. */
export interface Caller {
  principal: Principal;
  permission: Permission;
}

export const CurrentCaller = createParamDecorator((_data: unknown, context: ExecutionContext): Caller => {
  const permission = Reflect.getMetadata(REQUIRED_PERMISSION, context.getHandler()) as Permission | undefined;
  if (!permission) throw new Error(`${context.getClass().name}.${context.getHandler().name} has no @RequirePermission()`);
  return { principal: principalOf(context.switchToHttp().getRequest<Request>()), permission };
});
