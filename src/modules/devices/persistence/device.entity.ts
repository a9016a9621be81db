import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { MetadataColumn, NameColumn, StatusColumn, TenantIdColumn, TimestampedRow } from '../../../shared/database/columns';

export const DEVICE_STATUSES = ['active', 'disabled', 'retired'] as const;
export type DeviceStatus = (typeof DEVICE_STATUSES)[number];

/** The API record "Device": `devEui` is unique among non-retired devices of all tenants (a partial unique index). */
@Entity({ name: 'devices' })
export class DeviceEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'device_id' })
  deviceId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'device_type_id', type: 'uuid' })
  deviceTypeId!: string;

  @Column({ name: 'dev_eui', type: 'varchar', length: 16 })
  devEui!: string;

  @NameColumn()
  name!: string;

  @MetadataColumn()
  metadata!: Record<string, string>;

  @StatusColumn()
  status!: DeviceStatus;

  @Column({ name: 'retired_at', type: 'timestamptz', precision: 3, nullable: true })
  retiredAt!: Date | null;

  /** Receipt time of the last processed uplink (written by live processing, once per batch); null before the first. */
  @Column({ name: 'last_seen_at', type: 'timestamptz', precision: 3, nullable: true })
  lastSeenAt!: Date | null;
}
