import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const DEVICE_STATUSES = ['active', 'disabled', 'retired'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** The API record "Device": `devEui` is unique among non-retired devices of all tenants (a partial unique index). */
@Entity({ name: 'devices' })
export class DeviceEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'device_id' })
  deviceId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'device_type_id', type: 'uuid' })
  deviceTypeId!: string;

  @Column({ name: 'dev_eui', type: 'varchar', length: 16 })
  devEui!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  metadata!: Record<string, string>;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: DeviceStatus;

  @Column({ name: 'retired_at', type: 'timestamptz', precision: 3, nullable: true })
  retiredAt!: Date | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
