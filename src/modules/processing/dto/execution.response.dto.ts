import { ApiProperty } from '@nestjs/swagger';
import { NewestFirstPageResponse } from '../../../shared/pagination/newest-first-page';
import type { FlowGraphNode, JsonObject } from '../../flows/engine';
import { ActionRequestResponse, ExecutionErrorResponse, NodeTraceResponse } from '../../flows';
import { expandTrace } from '../domain/execution-trace';
import { EXECUTION_MODES, EXECUTION_STATUSES, ExecutionRecordMode, ExecutionStatus, FlowExecutionEntity } from '../persistence/flow-execution.entity';

/** One execution as lists show it: no input, outputs or trace. */
export class ExecutionResponse {
  @ApiProperty({ format: 'uuid' })
  flowExecutionId!: string;

  @ApiProperty({ format: 'uuid' })
  flowId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  flowVersionId!: string;

  @ApiProperty({ type: 'integer', minimum: 1 })
  versionNumber!: number;

  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({ enum: EXECUTION_MODES })
  mode!: ExecutionRecordMode;

  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'Set exactly when `mode` is `replay`.' })
  replayId!: string | null;

  @ApiProperty({ type: String, format: 'uuid', nullable: true })
  rawIngestionMessageId!: string | null;

  @ApiProperty({ format: 'date-time' })
  rawReceivedAt!: string;

  @ApiProperty({ format: 'date-time' })
  observedAt!: string;

  @ApiProperty({ maxLength: 128, description: 'The ingest request’s correlation id.' })
  correlationId!: string;

  @ApiProperty({ enum: EXECUTION_STATUSES })
  status!: ExecutionStatus;

  @ApiProperty({ format: 'date-time' })
  startedAt!: string;

  @ApiProperty({ minimum: 0 })
  durationMs!: number;

  @ApiProperty({ type: ExecutionErrorResponse, nullable: true, description: 'Set exactly when `status` is `failed`.' })
  error!: ExecutionErrorResponse | null;

  static of(row: FlowExecutionEntity): ExecutionResponse {
    return {
      flowExecutionId: row.flowExecutionId,
      flowId: row.flowId,
      tenantId: row.tenantId,
      flowVersionId: row.flowVersionId,
      versionNumber: row.versionNumber,
      deviceId: row.deviceId,
      mode: row.mode,
      replayId: row.replayId,
      rawIngestionMessageId: row.rawIngestionMessageId,
      rawReceivedAt: row.rawReceivedAt.toISOString(),
      observedAt: row.observedAt.toISOString(),
      correlationId: row.correlationId,
      status: row.status,
      startedAt: row.startedAt.toISOString(),
      durationMs: row.durationMs,
      error: row.error === null ? null : { nodeId: row.error.nodeId ?? null, code: row.error.code, message: row.error.message },
    };
  }
}

export class ExecutionPayloadResponse {
  @ApiProperty({ enum: ['base64', 'hex', 'utf8', 'json'] })
  encoding!: string;

  @ApiProperty()
  data!: string;
}

/** The input envelope the execution ran on, rebuilt from its raw message and its stored parameters. */
export class ExecutionInputResponse {
  @ApiProperty({ enum: EXECUTION_MODES })
  mode!: ExecutionRecordMode;

  @ApiProperty({ type: ExecutionPayloadResponse, nullable: true, description: 'Null once the raw message is past retention.' })
  rawPayload!: ExecutionPayloadResponse | null;

  @ApiProperty({ format: 'date-time' })
  observedAt!: string;

  @ApiProperty({ format: 'date-time' })
  rawReceivedAt!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({ format: 'uuid' })
  deviceTypeId!: string;

  @ApiProperty({ maxLength: 128 })
  correlationId!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'Network metadata of the uplink; null once the raw message is past retention.' })
  connectionData!: Record<string, unknown> | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The parameter values the execution resolved (device > device type > tenant override > default).' })
  parameters!: JsonObject;
}

/** What the detail needs beside the execution row. */
export interface ExecutionDetailSources {
  deviceTypeId: string;
  /** The raw message, or null once it is past retention. */
  raw: { rawPayload: { encoding: string; data: string } | null; connectionData: Record<string, unknown> | null } | null;
  /** The version's graph nodes: the stored trace names only node ids. */
  nodes: readonly Pick<FlowGraphNode, 'nodeId' | 'kind' | 'block'>[];
  /** The e-mail deliveries of the execution's requests. */
  deliveries: readonly EmailDeliveryLinkResponse[];
}

/** An e-mail delivery of the execution (one per recipient of each request); details at `/v1/email-deliveries/{id}`. */
export class EmailDeliveryLinkResponse {
  @ApiProperty({ format: 'uuid' })
  emailDeliveryId!: string;

  @ApiProperty({ nullable: true, type: String })
  nodeId!: string | null;

  @ApiProperty({ format: 'email' })
  recipientEmail!: string;

  @ApiProperty({ enum: ['queued', 'held', 'sent', 'suppressed', 'failed', 'dead_lettered'] })
  status!: string;

  @ApiProperty({ nullable: true, type: String })
  suppressionReason!: string | null;
}

/** One execution with its input, outputs and per-node trace. */
export class ExecutionDetailResponse extends ExecutionResponse {
  @ApiProperty({ type: ExecutionInputResponse })
  input!: ExecutionInputResponse;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Current values written, by field key (empty unless `succeeded`).' })
  current!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Time-series points written at `observedAt`, by field key (empty unless `succeeded`).' })
  timeseries!: Record<string, unknown>;

  @ApiProperty({ type: [ActionRequestResponse], description: 'E-mail requests of the execution (live only; replays never send e-mail).' })
  actions!: ActionRequestResponse[];

  @ApiProperty({
    type: [NodeTraceResponse],
    description: 'One entry per node in execution order. Node outputs are kept for failed executions and for live executions recorded during a debug capture of the flow; otherwise `output` is null.',
  })
  trace!: NodeTraceResponse[];

  @ApiProperty({
    type: [EmailDeliveryLinkResponse],
    description: 'The e-mail deliveries the requests became (live only; empty until the request is expanded, shortly after commit).',
  })
  emailDeliveries!: EmailDeliveryLinkResponse[];

  static detail(row: FlowExecutionEntity, sources: ExecutionDetailSources): ExecutionDetailResponse {
    const summary = ExecutionResponse.of(row);
    return {
      ...summary,
      input: {
        mode: row.mode,
        rawPayload: sources.raw?.rawPayload ?? null,
        observedAt: summary.observedAt,
        rawReceivedAt: summary.rawReceivedAt,
        tenantId: row.tenantId,
        deviceId: row.deviceId,
        deviceTypeId: sources.deviceTypeId,
        correlationId: row.correlationId,
        connectionData: sources.raw ? (sources.raw.connectionData ?? {}) : null,
        parameters: row.parameters,
      },
      current: row.current,
      timeseries: row.timeseries,
      actions: row.actions.map(({ nodeId, emailTemplateId }) => ({ nodeId, emailTemplateId })),
      trace: expandTrace(row.trace, sources.nodes).map((node) => NodeTraceResponse.of(node)),
      emailDeliveries: [...sources.deliveries],
    };
  }
}

export class ExecutionPage extends NewestFirstPageResponse(ExecutionResponse) {}
