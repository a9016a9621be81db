import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsIn, IsString, ValidateIf } from 'class-validator';
import { Length, MaxLength } from '../../../shared/validation/text-length';
import { WhenPresent } from '../../../shared/validation/fields';
import { STORAGE_TARGETS } from '../persistence/device-field-definition.entity';

/*
 * Request fields shared by the device-type and field use cases.
 */

export const MAX_DESCRIPTION_LENGTH = 500;

/** `description`: at most 500 characters; absent keeps the default (`""`) or the current value. */
export const OptionalDescription = (description = 'Default `""`.'): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ maxLength: MAX_DESCRIPTION_LENGTH, description }),
    WhenPresent(),
    IsString(),
    MaxLength(MAX_DESCRIPTION_LENGTH),
  );

/** `unit`: 1..40 characters, or null (none). */
export const OptionalUnit = (): PropertyDecorator =>
  applyDecorators(
    ApiPropertyOptional({ type: String, nullable: true, minLength: 1, maxLength: 40, description: '`null`: no unit.' }),
    ValidateIf((_object, value) => value !== undefined && value !== null),
    IsString(),
    Length(1, 40),
  );

/** `storageTargets`: 1..2 unique values of `current`, `timeseries`. */
export const StorageTargets = (required: boolean): PropertyDecorator =>
  applyDecorators(
    (required ? ApiProperty : ApiPropertyOptional)({ enum: STORAGE_TARGETS, isArray: true, minItems: 1, maxItems: 2, uniqueItems: true }),
    ...(required ? [] : [WhenPresent()]),
    IsArray(),
    ArrayMinSize(1),
    ArrayMaxSize(2),
    ArrayUnique(),
    IsIn([...STORAGE_TARGETS], { each: true }),
  );
