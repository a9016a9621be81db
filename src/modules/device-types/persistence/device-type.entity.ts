import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const DEVICE_TYPE_STATUSES = ['active', 'disabled'] as const;
export type DeviceTypeStatus = (typeof DEVICE_TYPE_STATUSES)[number];

/** A tenant's device type; mutations go through `If-Match` on `lockVersion`. */
@Entity({ name: 'device_types' })
export class DeviceTypeEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'device_type_id' })
  deviceTypeId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  description!: string;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: DeviceTypeStatus;

  @Column({ name: 'lock_version', type: 'int', default: 1 })
  lockVersion!: number;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
