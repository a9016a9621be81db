import { Column, Entity, PrimaryGeneratedColumn } from 'typeorm';
import { TenantIdColumn, VersionedRow } from '../../../shared/database/columns';

/** A stored test input of a flow with its assertions; replaced and deleted through `If-Match` on `lockVersion`. */
@Entity({ name: 'flow_fixtures' })
export class FlowFixtureEntity extends VersionedRow {
  @PrimaryGeneratedColumn('uuid', { name: 'fixture_id' })
  fixtureId!: string;

  @TenantIdColumn()
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
}
