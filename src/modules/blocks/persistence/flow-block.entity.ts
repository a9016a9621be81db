import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

export const FLOW_BLOCK_SCOPES = ['global', 'tenant'] as const;
export type FlowBlockScope = (typeof FLOW_BLOCK_SCOPES)[number];

/** A custom script block: global (no tenant; platform administrators write it) or one tenant's. */
@Entity({ name: 'flow_blocks' })
export class FlowBlockEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'flow_block_id' })
  flowBlockId!: string;

  @Column({ type: 'varchar', length: 8 })
  scope!: FlowBlockScope;

  @Column({ name: 'tenant_id', type: 'uuid', nullable: true })
  tenantId!: string | null;

  @Column({ type: 'varchar', length: 128 })
  key!: string;

  @Column({ type: 'varchar', length: 200 })
  name!: string;

  @Column({ type: 'varchar', length: 500, default: '' })
  description!: string;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
