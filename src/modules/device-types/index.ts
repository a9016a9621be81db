/*
 * The device-types module's API for other modules: they import from here, never from its files (checked by
 * .dependency-cruiser.js).
 */
export { DeviceTypesModule } from './device-types.module';
export { DeviceFieldResponse } from './dto/device-field.response.dto';
export { OptionalDescription } from './dto/device-type.fields';
export { FIELD_KEY_PATTERN } from './persistence/device-field-definition.entity';
export type { FieldStatus, SchemaRef, StorageTarget } from './persistence/device-field-definition.entity';
export { DeviceTypeBulkStore } from './persistence/device-type-bulk.store';
export type { DeviceTypeKeyRow, NewDeviceType } from './persistence/device-type-bulk.store';
export { DeviceFieldReader } from './persistence/device-field.reader';
export { DeviceTypeEntity } from './persistence/device-type.entity';
export { DeviceTypeReader } from './persistence/device-type.reader';
export type { DeviceFieldDefinitionEntity } from './persistence/device-field-definition.entity';
export { fieldContractVersionSql, FieldContractReader } from './persistence/field-contract.reader';
export type { FieldContract } from './persistence/field-contract.reader';
