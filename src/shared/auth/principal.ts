import { createParamDecorator, ExecutionContext, SetMetadata } from '@nestjs/common';
import type { Request } from 'express';

/** Who is calling: set by the authentication guard from a verified access token and its live session. */
export interface Principal {
  userId: string;
  sessionId: string;
  username: string;
  isPlatformAdmin: boolean;
  passwordChangeRequired: boolean;
}

export const ALLOW_DURING_PASSWORD_CHANGE = 'uplink:allowDuringPasswordChange';
export const PLATFORM_ADMIN_ONLY = 'uplink:platformAdminOnly';

/** The few routes a session with a pending forced password change may use: me, change-password, logout. */
export const AllowDuringPasswordChange = (): MethodDecorator & ClassDecorator =>
  SetMetadata(ALLOW_DURING_PASSWORD_CHANGE, true);

/** Platform-admin-only route: checked by the guard before validation or any lookup. */
export const PlatformAdminOnly = (): MethodDecorator & ClassDecorator => SetMetadata(PLATFORM_ADMIN_ONLY, true);

export function principalOf(req: Request): Principal {
  const principal = (req as Request & { user?: Principal }).user;
  if (!principal) throw new Error('No principal on an authenticated route: is the route @Public()?');
  return principal;
}

/** The authenticated caller of the current request. */
export const CurrentPrincipal = createParamDecorator((_data: unknown, context: ExecutionContext): Principal =>
  principalOf(context.switchToHttp().getRequest<Request>()),
);
