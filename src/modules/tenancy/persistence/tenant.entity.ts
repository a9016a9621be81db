import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type TenantStatus = 'active' | 'disabled';

@Entity({ name: 'tenants' })
export class TenantEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'tenant_id' })
  tenantId!: string;

  /** Assigned by `tenant_number_seq`, ascending from 1; never written by the application. */
  @Column({ name: 'tenant_number', type: 'int', insert: false, update: false })
  tenantNumber!: number;

  @Column({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  metadata!: Record<string, string>;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: TenantStatus;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
