import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A device type's single telemetry flow; name and description change through `If-Match` on `lockVersion`. */
@Entity({ name: 'flows' })
export class FlowEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'flow_id' })
  flowId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'device_type_id', type: 'uuid' })
  deviceTypeId!: string;

  @Column({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  description!: string;

  @Column({ name: 'lock_version', type: 'int', default: 1 })
  lockVersion!: number;

  @Column({ name: 'active_version_id', type: 'uuid', nullable: true })
  activeVersionId!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
