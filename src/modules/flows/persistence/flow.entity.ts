import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DescriptionColumn, KeyColumn, NameColumn, TenantIdColumn, VersionedRow } from '../../../shared/database/columns';

/** A device type's single telemetry flow; name and description change through `If-Match` on `lockVersion`. */
@Entity({ name: 'flows' })
export class FlowEntity extends VersionedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'flow_id' })
  flowId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'device_type_id', type: 'uuid' })
  deviceTypeId!: string;

  @KeyColumn()
  key!: string;

  @NameColumn()
  name!: string;

  @DescriptionColumn()
  description!: string;

  @Column({ name: 'active_version_id', type: 'uuid', nullable: true })
  activeVersionId!: string | null;
}
