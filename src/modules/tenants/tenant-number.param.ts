import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import { ValidationFailedError } from '../../shared/errors/domain-error';

export const MAX_TENANT_NUMBER = 2147483647;

/** `tenantNumber` is an int32 from 1, written in plain digits; anything else is a 400 naming the parameter. */
export function parseTenantNumber(value: unknown, name = 'tenantNumber'): number {
  const path = `params.${name}`;
  if (typeof value !== 'string' || !/^-?[0-9]+$/.test(value)) {
    throw ValidationFailedError.single(path, 'type', 'Must be an integer.');
  }
  const number = Number(value);
  if (number < 1) throw ValidationFailedError.single(path, 'minimum', 'Must be at least 1.');
  if (number > MAX_TENANT_NUMBER) throw ValidationFailedError.single(path, 'maximum', `Must be at most ${MAX_TENANT_NUMBER}.`);
  return number;
}

/**
 * `@TenantNumberParam()`: the `{tenantNumber}` of `/v1/tenants/{tenantNumber}/…`, as a number. It reads the raw
 * path text (the global pipe would already have turned `1e3` into 1000) and documents the parameter.
 */
export const TenantNumberParam = (name = 'tenantNumber'): ParameterDecorator =>
  createParamDecorator(
    (_data: unknown, context: ExecutionContext): number => parseTenantNumber(context.switchToHttp().getRequest<Request>().params[name], name),
    [
      (target, propertyKey) => {
        const descriptor = Object.getOwnPropertyDescriptor(target, propertyKey!);
        if (descriptor) ApiParam({ name, schema: { type: 'integer', minimum: 1, maximum: MAX_TENANT_NUMBER } })(target, propertyKey!, descriptor);
      },
    ],
  )();
