import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { KeyColumn, MetadataColumn, NameColumn, StatusColumn, TenantIdColumn, TimestampedRow } from '../../../shared/database/columns';

export type OrganizationUnitStatus = 'active' | 'disabled';

/** A node of a tenant's tree; `ancestorIds` is its materialized path (root first, self excluded). */
@Entity({ name: 'organization_units' })
export class OrganizationUnitEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'organization_unit_id' })
  organizationUnitId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'parent_organization_unit_id', type: 'uuid', nullable: true })
  parentOrganizationUnitId!: string | null;

  @Column({ name: 'ancestor_ids', type: 'uuid', array: true, default: () => "'{}'" })
  ancestorIds!: string[];

  @Column({ type: 'smallint' })
  depth!: number;

  @KeyColumn()
  key!: string;

  @NameColumn()
  name!: string;

  @MetadataColumn()
  metadata!: Record<string, string>;

  @StatusColumn()
  status!: OrganizationUnitStatus;
}
