import { Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DescriptionColumn, KeyColumn, NameColumn, StatusColumn, TenantIdColumn, VersionedRow } from '../../../shared/database/columns';

export const DEVICE_TYPE_STATUSES = ['active', 'disabled'] as const;
export type DeviceTypeStatus = (typeof DEVICE_TYPE_STATUSES)[number];

/** A tenant's device type; mutations go through `If-Match` on `lockVersion`. */
@Entity({ name: 'device_types' })
export class DeviceTypeEntity extends VersionedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'device_type_id' })
  deviceTypeId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @KeyColumn()
  key!: string;

  @NameColumn()
  name!: string;

  @DescriptionColumn()
  description!: string;

  @StatusColumn()
  status!: DeviceTypeStatus;
}
