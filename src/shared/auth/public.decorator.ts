import { SetMetadata } from '@nestjs/common';

export const IS_PUBLIC = 'uplink:isPublic';

/** Opts a route (or controller) out of authentication. Every other route is denied by default. */
export const Public = (): MethodDecorator & ClassDecorator => SetMetadata(IS_PUBLIC, true);
