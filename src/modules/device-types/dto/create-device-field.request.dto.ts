import { ApiProperty } from '@nestjs/swagger';
import { IsIn, IsString, Matches } from 'class-validator';
import { EntityName } from '../../../shared/validation/fields';
import {
  FIELD_KEY_PATTERN,
  MEASUREMENT_TYPES,
  MeasurementType,
  SCHEMA_REFS,
  SchemaRef,
  StorageTarget,
} from '../persistence/device-field-definition.entity';
import { OptionalDescription, OptionalUnit, StorageTargets } from './device-type.fields';

/** The API record "Device field definition": the client's part of it. */
export class CreateDeviceFieldRequest {
  @ApiProperty({ pattern: FIELD_KEY_PATTERN.source, description: 'Unique in the device type, deprecated fields included; immutable.' })
  @IsString()
  @Matches(FIELD_KEY_PATTERN, { message: `key must match ${FIELD_KEY_PATTERN.source}` })
  key!: string;

  @EntityName()
  name!: string;

  @OptionalDescription()
  description?: string;

  @ApiProperty({ enum: SCHEMA_REFS, description: 'Immutable.' })
  @IsString()
  @IsIn([...SCHEMA_REFS])
  schemaRef!: SchemaRef;

  @OptionalUnit()
  unit?: string | null;

  @StorageTargets(true)
  storageTargets!: StorageTarget[];

  @ApiProperty({ enum: MEASUREMENT_TYPES, description: 'Immutable.' })
  @IsString()
  @IsIn([...MEASUREMENT_TYPES])
  measurementType!: MeasurementType;
}
