import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsIn, IsObject, IsString, Length, Matches, MaxLength, ValidateBy, ValidateIf } from 'class-validator';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../identity/domain/password-hasher';

/*
 * The request fields of the users API, shared by create and update. Custom constraints are named after their
 * design §2 rule, so the validation pipe reports that rule.
 */

export const USERNAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{2,63}$/;
export const USER_STATUSES = ['active', 'disabled'] as const;
export const MAX_METADATA_PROPERTIES = 50;
export const MAX_METADATA_NAME_LENGTH = 64;
export const MAX_METADATA_VALUE_LENGTH = 1024;

type Field = PropertyDecorator;

/** A PATCH field: absent means "unchanged"; present (null included) must be valid. */
const WhenPresent = (): Field => ValidateIf((_object, value) => value !== undefined);

const NotBlank = (): Field =>
  ValidateBy({
    name: 'blank',
    validator: {
      validate: (value: unknown) => typeof value !== 'string' || value.trim().length > 0,
      defaultMessage: () => 'This property must not be blank.',
    },
  });

const entriesOf = (value: unknown): [string, unknown][] =>
  value !== null && typeof value === 'object' && !Array.isArray(value) ? Object.entries(value) : [];

const metadataRule = (name: string, broken: (entries: [string, unknown][]) => string | undefined): Field =>
  ValidateBy({
    name,
    validator: {
      validate: (value: unknown) => broken(entriesOf(value)) === undefined,
      defaultMessage: (args) => broken(entriesOf(args?.value)) ?? 'The metadata is invalid.',
    },
  });

/** Design C9: at most 50 properties, names 1..64 characters, values strings of at most 1024 characters. */
const MetadataRules = (): Field =>
  applyDecorators(
    IsObject({ message: 'metadata must be an object of string values' }),
    metadataRule('max_properties', (entries) =>
      entries.length > MAX_METADATA_PROPERTIES ? `metadata has more than ${MAX_METADATA_PROPERTIES} properties` : undefined,
    ),
    metadataRule('type', (entries) => {
      const bad = entries.find(([, inner]) => typeof inner !== 'string');
      return bad ? `metadata.${bad[0]} must be a string` : undefined;
    }),
    metadataRule('min_length', (entries) => (entries.some(([key]) => key.length === 0) ? 'metadata property names must not be empty' : undefined)),
    metadataRule('max_length', (entries) => {
      const longName = entries.find(([key]) => key.length > MAX_METADATA_NAME_LENGTH);
      if (longName) return `metadata property names must be at most ${MAX_METADATA_NAME_LENGTH} characters`;
      const longValue = entries.find(([, inner]) => typeof inner === 'string' && inner.length > MAX_METADATA_VALUE_LENGTH);
      return longValue ? `metadata.${longValue[0]} must be at most ${MAX_METADATA_VALUE_LENGTH} characters` : undefined;
    }),
  );

const usernameRules = (): Field[] => [
  IsString(),
  Length(3, 64),
  Matches(USERNAME_PATTERN, { message: 'username must start with a letter or digit and use only letters, digits, ".", "_" and "-"' }),
];
const emailRules = (): Field[] => [IsString(), MaxLength(254), IsEmail({}, { message: 'email must be an e-mail address' })];
const displayNameRules = (): Field[] => [IsString(), NotBlank(), Length(1, 200)];

const usernameDoc = { minLength: 3, maxLength: 64, pattern: USERNAME_PATTERN.source };
const emailDoc = { format: 'email', maxLength: 254, description: 'Unique, compared case-insensitively.' };
const displayNameDoc = { minLength: 1, maxLength: 200, description: 'Not blank.' };
const metadataDoc = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: MAX_METADATA_VALUE_LENGTH },
  maxProperties: MAX_METADATA_PROPERTIES,
  description: `Names 1..${MAX_METADATA_NAME_LENGTH} characters.`,
} as const;

export const Username = (): Field =>
  applyDecorators(ApiProperty({ ...usernameDoc, description: 'Unique, compared case-insensitively.' }), ...usernameRules());
export const OptionalUsername = (): Field =>
  applyDecorators(ApiPropertyOptional({ ...usernameDoc, description: 'Unique, compared case-insensitively.' }), WhenPresent(), ...usernameRules());

export const Email = (): Field => applyDecorators(ApiProperty(emailDoc), ...emailRules());
export const OptionalEmail = (): Field => applyDecorators(ApiPropertyOptional(emailDoc), WhenPresent(), ...emailRules());

export const DisplayName = (): Field => applyDecorators(ApiProperty(displayNameDoc), ...displayNameRules());
export const OptionalDisplayName = (): Field =>
  applyDecorators(ApiPropertyOptional(displayNameDoc), WhenPresent(), ...displayNameRules());

export const Metadata = (description = ''): Field =>
  applyDecorators(
    ApiPropertyOptional({ ...metadataDoc, description: `${metadataDoc.description} ${description}`.trim() }),
    WhenPresent(),
    MetadataRules(),
  );

export const OptionalStatus = (): Field =>
  applyDecorators(
    ApiPropertyOptional({ enum: USER_STATUSES, description: '`disabled` revokes every session of the user.' }),
    WhenPresent(),
    IsString(),
    IsIn([...USER_STATUSES]),
  );

/** The length half of the password policy; the handler checks "not the username or e-mail" (design §5.1). */
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
