import { ArgumentMetadata, Injectable, Param, PipeTransform } from '@nestjs/common';
import { ValidationFailedError } from '../errors/domain-error';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

@Injectable()
export class ParseUuidPipe implements PipeTransform<string, string> {
  transform(value: string, metadata: ArgumentMetadata): string {
    if (typeof value !== 'string' || !UUID.test(value)) {
      throw ValidationFailedError.single(`params.${metadata.data ?? 'id'}`, 'format', 'Must be a UUID.');
    }
    return value.toLowerCase();
  }
}

/** `@UuidParam('deviceId')`: a path UUID; a malformed one is a 400 naming `params.deviceId`. */
export const UuidParam = (name: string): ParameterDecorator => Param(name, ParseUuidPipe);
