import { ArgumentMetadata, Injectable, ValidationError, ValidationPipe } from '@nestjs/common';
import { ValidationFailedError } from '../errors/domain-error';
import { toFieldViolations, ValidationLocation } from './validation-rules';

class PendingViolations extends Error {
  constructor(readonly errors: ValidationError[]) {
    super('validation failed');
  }
}

const LOCATION_BY_TYPE: Record<string, ValidationLocation> = { body: 'body', query: 'query', param: 'params' };

/**
 * The global ValidationPipe (whitelist, forbid unknown properties, transform) with failures reported as
 * VALIDATION_FAILED and paths prefixed by where the value came from.
 */
@Injectable()
export class RequestValidationPipe extends ValidationPipe {
  constructor() {
    super({
      whitelist: true,
      forbidNonWhitelisted: true,
      forbidUnknownValues: true,
      transform: true,
      validationError: { target: false, value: true },
      exceptionFactory: (errors) => new PendingViolations(errors),
    });
  }

  override async transform(value: unknown, metadata: ArgumentMetadata): Promise<unknown> {
    if (metadata.type === 'body' && metadata.data === undefined && isDtoClass(metadata.metatype)) {
      // No body at all reads as {} so each required property is named; arrays and scalars are rejected outright.
      if (value === undefined) value = {};
      if (!isPlainObject(value)) {
        throw ValidationFailedError.single('body', 'type', 'The request body must be a JSON object.');
      }
    }
    try {
      return await super.transform(value, metadata);
    } catch (error) {
      if (!(error instanceof PendingViolations)) throw error;
      const location = LOCATION_BY_TYPE[metadata.type] ?? 'body';
      throw new ValidationFailedError(toFieldViolations(error.errors, location));
    }
  }
}

function isDtoClass(metatype: ArgumentMetadata['metatype']): boolean {
  const builtIns: unknown[] = [Object, String, Number, Boolean, Array];
  return typeof metatype === 'function' && !builtIns.includes(metatype);
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
