import { ArgumentMetadata, Injectable, Param, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '../errors/domain-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A path UUID, lower-cased; anything else is a 400 naming `params.<name>`. */
export function parseUuidParam(value: unknown, name: string): string {
  if (typeof value !== 'string' || !UUID.test(value)) {
    throw ValidationFailedError.single(`params.${name}`, 'format', 'Must be a UUID.');
  }
  return value.toLowerCase();
}

@Injectable()
export class ParseUuidPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    return parseUuidParam(value, metadata.data ?? 'id');
  }
}

/** `@UuidParam('deviceId')`: a path UUID; a malformed one is a 400 naming `params.deviceId`. */
export const UuidParam = (name: string): ParameterDecorator => Param(name, ParseUuidPipe);
