import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export type OrganizationUnitStatus = 'active' | 'disabled';

/** A node of a tenant's tree; `ancestorIds` is its materialized path (root first, self excluded). */
@Entity({ name: 'organization_units' })
export class OrganizationUnitEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'organization_unit_id' })
  organizationUnitId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'parent_organization_unit_id', type: 'uuid', nullable: true })
  parentOrganizationUnitId!: string | null;

  @Column({ name: 'ancestor_ids', type: 'uuid', array: true, default: () => "'{}'" })
  ancestorIds!: string[];

  @Column({ type: 'smallint' })
  depth!: number;

  @Column({ type: 'varchar', length: 64 })
  key!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'jsonb', default: () => "'{}'::jsonb" })
  metadata!: Record<string, string>;

  @Column({ type: 'varchar', length: 16, default: 'active' })
  status!: OrganizationUnitStatus;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
