import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DescriptionColumn, NameColumn, TimestampedRow } from '../../../shared/database/columns';

/** A flow template: global (no tenant), written by platform administrators, read by every signed-in user. */
@Entity({ name: 'flow_templates' })
export class FlowTemplateEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'flow_template_id' })
  flowTemplateId!: string;

  @Column({ type: 'varchar', length: 128 })
  key!: string;

  @NameColumn()
  name!: string;

  @DescriptionColumn()
  description!: string;
}
