import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { DescriptionColumn, NameColumn, TenantIdColumn, TimestampedRow } from '../../../shared/database/columns';

export const FLOW_BLOCK_SCOPES = ['global', 'tenant'] as const;
export type FlowBlockScope = (typeof FLOW_BLOCK_SCOPES)[number];

/** A custom script block: global (no tenant; platform administrators write it) or one tenant's. */
@Entity({ name: 'flow_blocks' })
export class FlowBlockEntity extends TimestampedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'flow_block_id' })
  flowBlockId!: string;

  @Column({ type: 'varchar', length: 8 })
  scope!: FlowBlockScope;

  @TenantIdColumn({ nullable: true })
  tenantId!: string | null;

  @Column({ type: 'varchar', length: 128 })
  key!: string;

  @NameColumn()
  name!: string;

  @DescriptionColumn()
  description!: string;
}
