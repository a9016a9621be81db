import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';

/** A stored test input of a flow with its assertions; replaced and deleted through `If-Match` on `lockVersion`. */
@Entity({ name: 'flow_fixtures' })
export class FlowFixtureEntity {
  @PrimaryGeneratedColumn('uuid', { name: 'fixture_id' })
  fixtureId!: string;

  @Column({ name: 'tenant_id', type: 'uuid' })
  tenantId!: string;

  @Column({ name: 'flow_id', type: 'uuid' })
  flowId!: string;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'jsonb' })
  input!: Record<string, unknown>;

  @Column({ name: 'raw_ingestion_message_id', type: 'uuid', nullable: true })
  rawIngestionMessageId!: string | null;

  @Column({ name: 'raw_received_at', type: 'timestamptz', precision: 3, nullable: true })
  rawReceivedAt!: Date | null;

  @Column({ name: 'raw_retention_extended', type: 'boolean', default: false })
  rawRetentionExtended!: boolean;

  @Column({ type: 'jsonb', default: () => `'[]'::jsonb` })
  assertions!: { path: string; expected: unknown }[];

  @Column({ name: 'lock_version', type: 'int', default: 1 })
  lockVersion!: number;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  createdAt!: Date;

  @Column({ name: 'updated_at', type: 'timestamptz', precision: 3, default: () => 'clock_timestamp()' })
  updatedAt!: Date;
}
