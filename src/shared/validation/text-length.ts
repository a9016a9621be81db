import { ValidateBy, ValidationArguments, ValidationOptions } from 'class-validator';

/*
 * The one length rule of every text field: lengths are counted in Unicode code points, as PostgreSQL counts
 * `varchar(n)` and `char_length`. (class-validator's own Length/MaxLength skip U+FE0E/U+FE0F, so a value it
 * accepts could overflow the column.) Drop-in replacements with the same constraint names and messages.
 */

/** Code points of a string: a surrogate pair is one, a variation selector is one. */
export const textLength = (value: string): number => {
  let count = 0;
  for (const _ of value) count++;
  return count;
};

const lengthOf = (value: unknown): number | undefined => (typeof value === 'string' ? textLength(value) : undefined);

export const Length = (min: number, max: number, options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'isLength',
      constraints: [min, max],
      validator: {
        validate: (value: unknown) => {
          const length = lengthOf(value);
          return length !== undefined && length >= min && length <= max;
        },
        defaultMessage: (args?: ValidationArguments) => {
          const length = lengthOf(args?.value) ?? 0;
          return length < min
            ? `${args?.property} must be longer than or equal to ${min} characters`
            : `${args?.property} must be shorter than or equal to ${max} characters`;
        },
      },
    },
    options,
  );

export const MaxLength = (max: number, options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'maxLength',
      constraints: [max],
      validator: {
        validate: (value: unknown) => {
          const length = lengthOf(value);
          return length !== undefined && length <= max;
        },
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be shorter than or equal to ${max} characters`,
      },
    },
    options,
  );

export const MinLength = (min: number, options?: ValidationOptions): PropertyDecorator =>
  ValidateBy(
    {
      name: 'minLength',
      constraints: [min],
      validator: {
        validate: (value: unknown) => {
          const length = lengthOf(value);
          return length !== undefined && length >= min;
        },
        defaultMessage: (args?: ValidationArguments) => `${args?.property} must be longer than or equal to ${min} characters`,
      },
    },
    options,
  );
