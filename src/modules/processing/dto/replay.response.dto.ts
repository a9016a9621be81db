import { ApiProperty } from '@nestjs/swagger';
import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';
import { EXECUTION_STATUSES } from '../persistence/flow-execution.entity';
import { FlowReplayEntity, REPLAY_STATUSES, ReplayStatus } from '../persistence/flow-replay.entity';
import { emptyDiff } from '../domain/replay-diff';

export class ReplayErrorResponse {
  @ApiProperty({ example: 'flow_version_unavailable' })
  code!: string;

  @ApiProperty()
  message!: string;
}

export class ReplayOutputResponse {
  @ApiProperty({ enum: EXECUTION_STATUSES })
  status!: string;

  @ApiProperty({ type: 'object', additionalProperties: true })
  current!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true })
  timeseries!: Record<string, unknown>;
}

export class ReplayDiffExampleResponse {
  @ApiProperty({ format: 'uuid' })
  rawIngestionMessageId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({ format: 'date-time' })
  observedAt!: string;

  @ApiProperty({ type: ReplayOutputResponse, description: 'What the active version produces.' })
  active!: ReplayOutputResponse;

  @ApiProperty({ type: ReplayOutputResponse, description: 'What the replayed version produces.' })
  candidate!: ReplayOutputResponse;
}

export interface ReplayFieldDiffResponse {
  changed: number;
  maxAbsDelta: number | null;
}

export class ReplayDiffResponse {
  @ApiProperty({ format: 'uuid', description: 'The active version the replayed one is compared with.' })
  comparedWith!: string;

  @ApiProperty({ type: 'integer', minimum: 0, description: '`identical` + `changed` + `newlyFailing` + `newlySucceeding`.' })
  messagesCompared!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Same status and the same current values and time series; both failed counts here.' })
  identical!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'Neither failed, and the status or the outputs differ.' })
  changed!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The active version did not fail, the replayed one does.' })
  newlyFailing!: number;

  @ApiProperty({ type: 'integer', minimum: 0, description: 'The active version failed, the replayed one does not.' })
  newlySucceeding!: number;

  @ApiProperty({
    type: 'object',
    additionalProperties: {
      type: 'object',
      required: ['changed', 'maxAbsDelta'],
      properties: {
        changed: { type: 'integer', minimum: 0, description: 'Messages whose value for the field differs (current value or time series).' },
        maxAbsDelta: { type: 'number', nullable: true, minimum: 0, description: 'The largest absolute change among changed values that are numbers on both sides; null when there was none.' },
      },
    },
    description: 'By field key, the fields that changed in at least one message.',
  })
  fields!: Record<string, ReplayFieldDiffResponse>;

  @ApiProperty({ type: [ReplayDiffExampleResponse], maxItems: 20, description: 'The first (at most 20) messages that are not identical, in replay order, with both outputs.' })
  examples!: ReplayDiffExampleResponse[];
}

/** A replay and its progress. */
export class ReplayResponse {
  @ApiProperty({ format: 'uuid' })
  replayId!: string;

  @ApiProperty({ format: 'uuid' })
  flowId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid', description: 'The version replayed.' })
  flowVersionId!: string;

  @ApiProperty({ format: 'date-time', description: 'Inclusive bound on the messages’ `observedAt`.' })
  from!: string;

  @ApiProperty({ format: 'date-time', description: 'Exclusive bound on the messages’ `observedAt`.' })
  to!: string;

  @ApiProperty({ type: [String], format: 'uuid', nullable: true, description: 'Only these devices; null: every device of the flow’s device type.' })
  deviceIds!: string[] | null;

  @ApiProperty()
  dryRun!: boolean;

  @ApiProperty({ enum: REPLAY_STATUSES })
  status!: ReplayStatus;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 0, description: 'Messages selected; known once the replay has started.' })
  totalMessages!: number | null;

  @ApiProperty({ type: 'integer', minimum: 0, description: '`succeeded` + `failed` + `filtered`; grows while the replay runs.' })
  processedMessages!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  succeeded!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  failed!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  filtered!: number;

  @ApiProperty({ type: ReplayErrorResponse, nullable: true, description: 'Set exactly when `status` is `failed`.' })
  error!: ReplayErrorResponse | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'The user who asked for the replay.' })
  requestedBy!: string | null;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  startedAt!: string | null;

  @ApiProperty({ type: String, format: 'date-time', nullable: true })
  finishedAt!: string | null;

  @ApiProperty({
    type: ReplayDiffResponse,
    nullable: true,
    description: 'Dry runs of a version other than the active one: how its outputs differ from the active version’s, message by message (grows while the replay runs). Null otherwise.',
  })
  diff!: ReplayDiffResponse | null;

  static of(row: FlowReplayEntity): ReplayResponse {
    return {
      replayId: row.replayId,
      flowId: row.flowId,
      tenantId: row.tenantId,
      flowVersionId: row.flowVersionId,
      from: row.rangeFrom.toISOString(),
      to: row.rangeTo.toISOString(),
      deviceIds: row.deviceIds,
      dryRun: row.dryRun,
      status: row.status,
      totalMessages: row.totalMessages,
      processedMessages: row.processedMessages,
      succeeded: row.succeeded,
      failed: row.failed,
      filtered: row.filtered,
      error: row.error,
      requestedBy: row.requestedBy,
      createdAt: row.createdAt.toISOString(),
      startedAt: row.startedAt?.toISOString() ?? null,
      finishedAt: row.finishedAt?.toISOString() ?? null,
      diff: row.comparedWithVersionId === null ? null : (row.diff ?? emptyDiff(row.comparedWithVersionId)),
    };
  }
}

export class ReplayPage extends NewestFirstPageResponse(ReplayResponse) {}
