import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ReplayDiff } from '../domain/replay-diff';
import { TenantIdColumn } from '../../../shared/database/columns';

export const REPLAY_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
export type ReplayStatus = (typeof REPLAY_STATUSES)[number];

/** The (observedAt, rawReceivedAt, id) of the last message whose results are committed. */
export interface ReplayPosition {
  observedAt: string;
  receivedAt: string;
  rawIngestionMessageId: string;
}

export interface ReplayError {
  code: string;
  message: string;
}

/** A request to run a flow version again over stored uplinks, and its progress. */
@Entity({ name: 'flow_replays' })
export class FlowReplayEntity {
  @PrimaryColumn('uuid', { name: 'replay_id' })
  replayId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'flow_id', type: 'uuid' })
  flowId!: string;

  @Column({ name: 'flow_version_id', type: 'uuid' })
  flowVersionId!: string;

  /** The active version a dry run of another version is compared with; null otherwise. */
  @Column({ name: 'compared_with_version_id', type: 'uuid', nullable: true })
  comparedWithVersionId!: string | null;

  @Column({ name: 'range_from', type: 'timestamptz', precision: 3 })
  rangeFrom!: Date;

  @Column({ name: 'range_to', type: 'timestamptz', precision: 3 })
  rangeTo!: Date;

  @Column({ name: 'device_ids', type: 'uuid', array: true, nullable: true })
  deviceIds!: string[] | null;

  @Column({ name: 'dry_run', type: 'boolean' })
  dryRun!: boolean;

  @Column({ type: 'varchar', length: 16 })
  status!: ReplayStatus;

  @Column({ name: 'total_messages', type: 'int', nullable: true })
  totalMessages!: number | null;

  @Column({ name: 'processed_messages', type: 'int' })
  processedMessages!: number;

  @Column({ type: 'int' })
  succeeded!: number;

  @Column({ type: 'int' })
  failed!: number;

  @Column({ type: 'int' })
  filtered!: number;

  @Column({ type: 'jsonb', nullable: true })
  error!: ReplayError | null;

  @Column({ type: 'jsonb', nullable: true })
  diff!: ReplayDiff | null;

  @Column({ name: 'resume_after', type: 'jsonb', nullable: true })
  resumeAfter!: ReplayPosition | null;

  @Column({ name: 'requested_by', type: 'uuid', nullable: true })
  requestedBy!: string | null;

  @Column({ name: 'created_at', type: 'timestamptz', precision: 3 })
  createdAt!: Date;

  @Column({ name: 'started_at', type: 'timestamptz', precision: 3, nullable: true })
  startedAt!: Date | null;

  @Column({ name: 'finished_at', type: 'timestamptz', precision: 3, nullable: true })
  finishedAt!: Date | null;
}
