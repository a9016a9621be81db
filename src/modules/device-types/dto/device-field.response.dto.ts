import { ApiProperty } from '@nestjs/swagger';
import {
  DeviceFieldDefinitionEntity,
  FIELD_KEY_PATTERN,
  FIELD_STATUSES,
  FieldStatus,
  MEASUREMENT_TYPES,
  MeasurementType,
  SCHEMA_REFS,
  SchemaRef,
  STORAGE_TARGETS,
  StorageTarget,
} from '../persistence/device-field-definition.entity';

/** The API record "Device field definition", exactly; `fieldNo` stays internal. */
export class DeviceFieldResponse {
  @ApiProperty({ format: 'uuid' })
  deviceFieldDefinitionId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceTypeId!: string;

  @ApiProperty({ pattern: FIELD_KEY_PATTERN.source, description: 'Unique in the device type (deprecated keys stay taken); immutable.' })
  key!: string;

  @ApiProperty({ minLength: 1, maxLength: 200 })
  name!: string;

  @ApiProperty({ maxLength: 500 })
  description!: string;

  @ApiProperty({ enum: SCHEMA_REFS })
  schemaRef!: SchemaRef;

  @ApiProperty({ type: String, nullable: true, minLength: 1, maxLength: 40 })
  unit!: string | null;

  @ApiProperty({ enum: STORAGE_TARGETS, isArray: true, minItems: 1, maxItems: 2, uniqueItems: true })
  storageTargets!: StorageTarget[];

  @ApiProperty({ enum: MEASUREMENT_TYPES })
  measurementType!: MeasurementType;

  @ApiProperty({ enum: FIELD_STATUSES })
  status!: FieldStatus;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Also the `ETag`; send it back in `If-Match` to change the field.' })
  lockVersion!: number;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  deprecatedAt!: string | null;

  static of(field: DeviceFieldDefinitionEntity): DeviceFieldResponse {
    return {
      deviceFieldDefinitionId: field.deviceFieldDefinitionId,
      tenantId: field.tenantId,
      deviceTypeId: field.deviceTypeId,
      key: field.key,
      name: field.name,
      description: field.description,
      schemaRef: field.schemaRef,
      unit: field.unit,
      storageTargets: [...field.storageTargets],
      measurementType: field.measurementType,
      status: field.status,
      lockVersion: field.lockVersion,
      createdAt: field.createdAt.toISOString(),
      updatedAt: field.updatedAt.toISOString(),
      deprecatedAt: field.deprecatedAt ? field.deprecatedAt.toISOString() : null,
    };
  }
}
