import { createParamDecorator, ExecutionContext } from '@nestjs/common';
import { ApiParam } from '@nestjs/swagger';
import type { Request } from 'express';
import { IfMatch } from '../../shared/concurrency/if-match';
import { ValidationFailedError } from '../../shared/errors/domain-error';
import { parseUuidParam } from '../../shared/validation/uuid-param';
import { FIELD_KEY_PATTERN } from './persistence/device-field-definition.entity';

/*
 * The `{key}` of `/v1/device-types/{deviceTypeId}/fields/{key}…`, read synchronously and after `{deviceTypeId}`:
 * Nest resolves a route's parameters concurrently, so this is what makes the first failure the one reported
 * first (path in order, then headers, then the body), whatever the parameter order.
 */

function fieldKeyOf(req: Request): string {
  parseUuidParam(req.params['deviceTypeId'], 'deviceTypeId');
  const value = req.params['key'];
  if (typeof value !== 'string' || !FIELD_KEY_PATTERN.test(value)) {
    throw ValidationFailedError.single('params.key', 'pattern', `Must match ${FIELD_KEY_PATTERN.source}.`);
  }
  return value;
}

const requestOf = (context: ExecutionContext) => context.switchToHttp().getRequest<Request>();

function documented<T>(read: (req: Request) => T, document: ParameterDecorator): ParameterDecorator {
  return createParamDecorator((_data: unknown, context: ExecutionContext): T => read(requestOf(context)), [document])();
}

/** An ApiParam as a parameter decorator's enhancer. */
const pathParam =
  (name: string, schema: Record<string, string>): ParameterDecorator =>
  (target, propertyKey) => {
    const descriptor = Object.getOwnPropertyDescriptor(target, propertyKey!);
    if (descriptor) ApiParam({ name, schema })(target, propertyKey!, descriptor);
  };

/** `{key}` of a field (spec: the deprecate path's pattern), else 400 `params.key` `pattern`. */
export const FieldKeyParam = (): ParameterDecorator =>
  documented(fieldKeyOf, pathParam('key', { type: 'string', pattern: FIELD_KEY_PATTERN.source }));

/** `If-Match` on the field routes: checked after `{deviceTypeId}` and `{key}`. */
export const FieldIfMatch = (): ParameterDecorator => IfMatch(fieldKeyOf);
