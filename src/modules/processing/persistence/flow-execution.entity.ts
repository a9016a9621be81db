import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ActionRequest, JsonObject } from '../../flows/engine';
import type { CompactNodeTrace } from '../domain/execution-trace';
import { TenantIdColumn } from '../../../shared/database/columns';

export const EXECUTION_MODES = ['live', 'replay'] as const;
export type ExecutionRecordMode = (typeof EXECUTION_MODES)[number];
export const EXECUTION_STATUSES = ['succeeded', 'failed', 'filtered'] as const;
export type ExecutionStatus = (typeof EXECUTION_STATUSES)[number];

/**
 * One live or replayed run of a flow version on one raw message (input rebuilt from the message on read). The
 * outputs, parameters and trace are read only by the detail (`addSelect`), never by the list.
 */
@Entity({ name: 'flow_executions' })
export class FlowExecutionEntity {
  @PrimaryColumn('uuid', { name: 'flow_execution_id' })
  flowExecutionId!: string;

  @TenantIdColumn()
  tenantId!: string;

  @Column({ name: 'flow_id', type: 'uuid' })
  flowId!: string;

  @Column({ name: 'flow_version_id', type: 'uuid' })
  flowVersionId!: string;

  @Column({ name: 'version_number', type: 'int' })
  versionNumber!: number;

  @Column({ name: 'device_id', type: 'uuid' })
  deviceId!: string;

  @Column({ type: 'varchar', length: 8 })
  mode!: ExecutionRecordMode;

  @Column({ name: 'replay_id', type: 'uuid', nullable: true })
  replayId!: string | null;

  @Column({ name: 'raw_ingestion_message_id', type: 'uuid', nullable: true })
  rawIngestionMessageId!: string | null;

  @Column({ name: 'raw_received_at', type: 'timestamptz', precision: 3 })
  rawReceivedAt!: Date;

  @Column({ name: 'observed_at', type: 'timestamptz', precision: 3 })
  observedAt!: Date;

  @Column({ name: 'correlation_id', type: 'varchar', length: 128 })
  correlationId!: string;

  @Column({ type: 'varchar', length: 16 })
  status!: ExecutionStatus;

  @Column({ name: 'started_at', type: 'timestamptz', precision: 3 })
  startedAt!: Date;

  @Column({ name: 'duration_ms', type: 'real' })
  durationMs!: number;

  @Column({ type: 'jsonb', nullable: true })
  error!: { nodeId: string | null; code: string; message: string } | null;

  @Column({ type: 'jsonb', select: false })
  parameters!: JsonObject;

  @Column({ type: 'jsonb', select: false })
  current!: JsonObject;

  @Column({ type: 'jsonb', select: false })
  timeseries!: JsonObject;

  @Column({ type: 'jsonb', select: false })
  actions!: ActionRequest[];

  @Column({ type: 'jsonb', select: false })
  trace!: CompactNodeTrace[];
}
