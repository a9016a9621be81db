import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { KeyColumn, MetadataColumn, NameColumn, StatusColumn, TimestampedRow } from '../../../shared/database/columns';

export type TenantStatus = 'active' | 'disabled';

@Entity({ name: 'tenants' })
export class TenantEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'tenant_id' })
  tenantId!: string;

  /** Assigned by `tenant_number_seq`, ascending from 1; never written by the application. */
  @Column({ name: 'tenant_number', type: 'int', insert: false, update: false })
  tenantNumber!: number;

  @KeyColumn()
  key!: string;

  @NameColumn()
  name!: string;

  @MetadataColumn()
  metadata!: Record<string, string>;

  @StatusColumn()
  status!: TenantStatus;
}
