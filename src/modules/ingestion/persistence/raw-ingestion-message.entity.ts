import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TenantIdColumn } from '../../../shared/database/columns';

export const INGEST_SOURCES = ['chirpstack', 'tts', 'http', 'mqtt'] as const;
export type IngestSource = (typeof INGEST_SOURCES)[number];
export const PROCESSING_STATUSES = ['pending', 'processed', 'unrouted', 'rejected', 'skipped'] as const;
export type ProcessingStatus = (typeof PROCESSING_STATUSES)[number];

/** One stored uplink: the exact request bytes plus what was mapped from them. */
@Entity({ name: 'raw_ingestion_messages' })
export class RawIngestionMessageEntity {
  @PrimaryColumn('uuid', { name: 'raw_ingestion_message_id' })
  rawIngestionMessageId!: string;

  @Column({ name: 'received_at', type: 'timestamptz', precision: 3 })
  receivedAt!: Date;

  @Column({ type: 'varchar', length: 16 })
  source!: IngestSource;

  @Column({ type: 'varchar', length: 32 })
  event!: string;

  @Column({ name: 'credential_id', type: 'uuid', nullable: true })
  credentialId!: string | null;

  @TenantIdColumn({ nullable: true })
  tenantId!: string | null;

  @Column({ name: 'dedup_scope', type: 'varchar', length: 64, nullable: true })
  dedupScope!: string | null;

  @Column({ name: 'dedup_key', type: 'varchar', length: 300, nullable: true })
  dedupKey!: string | null;

  @Column({ name: 'dev_eui', type: 'char', length: 16, nullable: true })
  devEui!: string | null;

  @Column({ name: 'observed_at', type: 'timestamptz', precision: 3, nullable: true })
  observedAt!: Date | null;

  @Column({ name: 'raw_payload', type: 'jsonb', nullable: true })
  rawPayload!: { encoding: string; data: string } | null;

  @Column({ name: 'connection_data', type: 'jsonb', nullable: true })
  connectionData!: Record<string, unknown> | null;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128, nullable: true })
  correlationId!: string | null;

  @Column({ name: 'content_type', type: 'varchar', length: 200 })
  contentType!: string;

  @Column({ type: 'bytea', select: false })
  body!: Buffer;

  @Column({ name: 'size_bytes', type: 'int' })
  sizeBytes!: number;

  @Column({ name: 'processing_status', type: 'varchar', length: 16 })
  processingStatus!: ProcessingStatus;

  @Column({ name: 'processing_reason', type: 'varchar', length: 64, nullable: true })
  processingReason!: string | null;

  @Column({ name: 'flow_execution_id', type: 'uuid', nullable: true })
  flowExecutionId!: string | null;

  @Column({ name: 'device_id', type: 'uuid', nullable: true })
  deviceId!: string | null;

  @Column({ type: 'boolean', default: false })
  pinned!: boolean;
}
