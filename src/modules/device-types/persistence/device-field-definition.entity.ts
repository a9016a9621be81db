import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DescriptionColumn, NameColumn, StatusColumn, TenantIdColumn, VersionedRow } from '../../../shared/database/columns';

export const SCHEMA_REFS = [
  'platform://schemas/number/v1',
  'platform://schemas/string/v1',
  'platform://schemas/boolean/v1',
  'platform://schemas/json/v1',
] as const;
export type SchemaRef = (typeof SCHEMA_REFS)[number];

export const STORAGE_TARGETS = ['current', 'timeseries'] as const;
export type StorageTarget = (typeof STORAGE_TARGETS)[number];

export const MEASUREMENT_TYPES = ['gauge', 'counter', 'status', 'event'] as const;
export type MeasurementType = (typeof MEASUREMENT_TYPES)[number];

export const FIELD_STATUSES = ['active', 'deprecated'] as const;
export type FieldStatus = (typeof FIELD_STATUSES)[number];

/** The API record "Device field definition" pattern (also the deprecate path's `key`). */
export const FIELD_KEY_PATTERN = /^[a-z][a-z0-9._-]{0,119}$/;

/** Storage targets in the order the database stores them (its CHECK lists exactly these forms). */
export function canonicalTargets(targets: readonly StorageTarget[]): StorageTarget[] {
  return STORAGE_TARGETS.filter((target) => targets.includes(target));
}

/** A device field definition; `fieldNo` is the 4-byte key telemetry rows use (never shown to clients). */
@Entity({ name: 'device_field_definitions' })
export class DeviceFieldDefinitionEntity extends VersionedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'device_field_definition_id' })
  deviceFieldDefinitionId!: string;

  /** GENERATED ALWAYS AS IDENTITY: never written by the application. */
  @Column({ name: 'field_no', type: 'int', insert: false, update: false })
  fieldNo!: number;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'device_type_id', type: 'uuid' })
  deviceTypeId!: string;

  @Column({ type: 'varchar', length: 120 })
  key!: string;

  @NameColumn()
  name!: string;

  @DescriptionColumn()
  description!: string;

  @Column({ name: 'schema_ref', type: 'varchar', length: 64 })
  schemaRef!: SchemaRef;

  @Column({ type: 'varchar', length: 40, nullable: true })
  unit!: string | null;

  @Column({ name: 'storage_targets', type: 'text', array: true })
  storageTargets!: StorageTarget[];

  @Column({ name: 'measurement_type', type: 'varchar', length: 16 })
  measurementType!: MeasurementType;

  @StatusColumn()
  status!: FieldStatus;

  @Column({ name: 'deprecated_at', type: 'timestamptz', precision: 3, nullable: true })
  deprecatedAt!: Date | null;
}
