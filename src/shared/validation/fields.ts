import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsObject, IsString, Matches, ValidateBy, ValidateIf } from 'class-validator';
import { Length, textLength } from './text-length';

/*
 * Request fields shared by every module. Custom constraints are named after their rule,
 * so the validation pipe reports that rule.
 */

export const MAX_METADATA_PROPERTIES = 50;
export const MAX_METADATA_NAME_LENGTH = 64;
export const MAX_METADATA_VALUE_LENGTH = 1024;

type Field = PropertyDecorator;

/** A PATCH field: absent means "unchanged"; present (null included) must be valid. */
export const WhenPresent = (): Field => ValidateIf((_object, value) => value !== undefined);

export const NotBlank = (): Field =>
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

/** At most 50 properties, names 1..64 characters, values strings of at most 1024 characters. */
export const MetadataRules = (): Field =>
  applyDecorators(
    IsObject({ message: 'metadata must be an object of string values' }),
    metadataRule('max_properties', (entries) =>
      entries.length > MAX_METADATA_PROPERTIES ? `metadata has more than ${MAX_METADATA_PROPERTIES} properties` : undefined,
    ),
    metadataRule('type', (entries) => {
      const bad = entries.find(([, inner]) => typeof inner !== 'string');
      return bad ? `metadata.${bad[0]} must be a string` : undefined;
    }),
    metadataRule('min_length', (entries) => (entries.some(([key]) => textLength(key) === 0) ? 'metadata property names must not be empty' : undefined)),
    metadataRule('max_length', (entries) => {
      const longName = entries.find(([key]) => textLength(key) > MAX_METADATA_NAME_LENGTH);
      if (longName) return `metadata property names must be at most ${MAX_METADATA_NAME_LENGTH} characters`;
      const longValue = entries.find(([, inner]) => typeof inner === 'string' && textLength(inner) > MAX_METADATA_VALUE_LENGTH);
      return longValue ? `metadata.${longValue[0]} must be at most ${MAX_METADATA_VALUE_LENGTH} characters` : undefined;
    }),
  );


const metadataDoc = {
  type: 'object',
  additionalProperties: { type: 'string', maxLength: MAX_METADATA_VALUE_LENGTH },
  maxProperties: MAX_METADATA_PROPERTIES,
  description: `Names 1..${MAX_METADATA_NAME_LENGTH} characters.`,
} as const;

export const Metadata = (description = ''): Field =>
  applyDecorators(
    ApiPropertyOptional({ ...metadataDoc, description: `${metadataDoc.description} ${description}`.trim() }),
    WhenPresent(),
    MetadataRules(),
  );


/** Entity keys (tenant, organization unit, device type, flow, e-mail template). */
export const ENTITY_KEY_PATTERN = /^[a-z0-9][a-z0-9._-]{0,63}$/;

export const EntityKey = (): Field =>
  applyDecorators(
    ApiProperty({ pattern: ENTITY_KEY_PATTERN.source, minLength: 1, maxLength: 64, description: 'Immutable.' }),
    IsString(),
    Length(1, 64),
    Matches(ENTITY_KEY_PATTERN, { message: 'key must match ^[a-z0-9][a-z0-9._-]{0,63}$' }),
  );

/** Names: 1..200 characters, not blank. */
export const EntityName = (): Field =>
  applyDecorators(ApiProperty({ minLength: 1, maxLength: 200 }), IsString(), NotBlank(), Length(1, 200));

export const OptionalEntityName = (): Field =>
  applyDecorators(ApiPropertyOptional({ minLength: 1, maxLength: 200 }), WhenPresent(), IsString(), NotBlank(), Length(1, 200));
