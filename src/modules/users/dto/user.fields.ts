import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsString, Matches, ValidateBy } from 'class-validator';
import { Length, MaxLength } from '../../../shared/validation/text-length';
import { EmailAddress } from '../../../shared/validation/email';
import { Metadata, NotBlank, WhenPresent } from '../../../shared/validation/fields';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../identity';

export { Metadata };

/*
 * The request fields of the users API, shared by create and update. Custom constraints are named after their
 * validation rule name, so the validation pipe reports that rule.
 */

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;
export const USER_STATUSES = ['active', 'disabled'] as const;
type Field = PropertyDecorator;

const usernameRules = (): Field[] => [
  IsString(),
  Length(3, 64),
  Matches(USERNAME_PATTERN, { message: 'username must start with a letter or digit and use only letters, digits, ".", "_" and "-"' }),
];
const emailRules = (): Field[] => [IsString(), MaxLength(254), EmailAddress('email')];
const displayNameRules = (): Field[] => [IsString(), NotBlank(), Length(1, 200)];

const usernameDoc = { minLength: 3, maxLength: 64, pattern: USERNAME_PATTERN.source };
const emailDoc = { format: 'email', maxLength: 254, description: 'Unique, compared case-insensitively.' };
const displayNameDoc = { minLength: 1, maxLength: 200, description: 'Not blank.' };

export const Username = (): Field =>
  applyDecorators(ApiProperty({ ...usernameDoc, description: 'Unique, compared case-insensitively.' }), ...usernameRules());
export const OptionalUsername = (): Field =>
  applyDecorators(ApiPropertyOptional({ ...usernameDoc, description: 'Unique, compared case-insensitively.' }), WhenPresent(), ...usernameRules());

export const Email = (): Field => applyDecorators(ApiProperty(emailDoc), ...emailRules());
export const OptionalEmail = (): Field => applyDecorators(ApiPropertyOptional(emailDoc), WhenPresent(), ...emailRules());

export const DisplayName = (): Field => applyDecorators(ApiProperty(displayNameDoc), ...displayNameRules());
export const OptionalDisplayName = (): Field =>
  applyDecorators(ApiPropertyOptional(displayNameDoc), WhenPresent(), ...displayNameRules());

export const OptionalStatus = (): Field =>
  applyDecorators(
    ApiPropertyOptional({ enum: USER_STATUSES, description: '`disabled` revokes every session of the user.' }),
    WhenPresent(),
    IsString(),
    IsIn([...USER_STATUSES]),
  );

/** The length half of the password policy; the handler checks "not the username or e-mail". */
export const TemporaryPassword = (): Field =>
  applyDecorators(
    ApiProperty({
      format: 'password',
      minLength: PASSWORD_MIN_LENGTH,
      maxLength: PASSWORD_MAX_LENGTH,
      description: 'Must be changed at the next sign-in; not equal (case-insensitively) to the username or e-mail.',
    }),
    IsString(),
    ValidateBy({
      name: 'password_policy',
      validator: {
        validate: (value: unknown) => {
          const length = typeof value === 'string' ? [...value].length : 0;
          return length >= PASSWORD_MIN_LENGTH && length <= PASSWORD_MAX_LENGTH;
        },
        defaultMessage: () => `The password must be ${PASSWORD_MIN_LENGTH} to ${PASSWORD_MAX_LENGTH} characters long.`,
      },
    }),
  );
