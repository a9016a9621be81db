import { ApiProperty } from '@nestjs/swagger';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';
import type { ExecutionResult, NodeTrace } from '../engine';

const NODE_ERROR_CODES = ['script_error', 'timeout', 'memory_limit', 'invalid_output', 'output_too_large', 'type_mismatch', 'decode_error', 'parameter_error', 'block_unavailable'];
const ANY_JSON = { oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }] };

export class NodeErrorResponse {
  @ApiProperty({ enum: NODE_ERROR_CODES })
  code!: string;

  @ApiProperty()
  message!: string;
}

export class ExecutionErrorResponse extends NodeErrorResponse {
  @ApiProperty({ type: 'string', nullable: true, description: 'The failing node; null when the raw payload itself does not decode.' })
  nodeId!: string | null;
}

export class ActionRequestResponse {
  @ApiProperty()
  nodeId!: string;

  @ApiProperty({ format: 'uuid' })
  emailTemplateId!: string;
}

/** What one node did in one execution. */
export class NodeTraceResponse {
  @ApiProperty()
  nodeId!: string;

  @ApiProperty({ enum: ['block', 'current-output', 'timeseries-output'] })
  kind!: string;

  @ApiProperty({ type: 'object', additionalProperties: true, nullable: true, description: 'The node\'s block reference; null on output nodes.' })
  block!: Record<string, unknown> | null;

  @ApiProperty({ enum: ['succeeded', 'failed', 'filtered', 'skipped'] })
  status!: string;

  @ApiProperty({ type: 'string', nullable: true, description: 'The port the node emitted on (`out`; `filter`: `pass` or `reject`).' })
  port!: string | null;

  @ApiProperty({ minimum: 0, description: 'Milliseconds from the start of the execution.' })
  startedAtOffsetMs!: number;

  @ApiProperty({ minimum: 0 })
  durationMs!: number;

  @ApiProperty({ ...ANY_JSON, description: 'The message after the node ({payload, values}; an output node: the values it wrote); beyond 4 KiB of JSON, the first 4 KiB of its JSON text.' })
  output!: unknown;

  @ApiProperty()
  outputTruncated!: boolean;

  @ApiProperty({ type: [String], description: 'At most 20 lines of at most 500 characters; warnings start with `warning: `.' })
  logs!: string[];

  @ApiProperty({ type: NodeErrorResponse, nullable: true })
  error!: NodeErrorResponse | null;

  static of(trace: NodeTrace): NodeTraceResponse {
    return {
      nodeId: trace.nodeId,
      kind: trace.kind,
      block: trace.block as Record<string, unknown> | null,
      status: trace.status,
      port: trace.port,
      startedAtOffsetMs: trace.startedAtOffsetMs,
      durationMs: trace.durationMs,
      output: trace.output,
      outputTruncated: trace.outputTruncated,
      logs: trace.logs,
      error: trace.error,
    };
  }
}

/** One execution of a flow version: the writes and e-mail requests it would make (as data) and its trace. */
export class ExecutionResultResponse {
  @ApiProperty({ enum: ['succeeded', 'failed', 'filtered'] })
  status!: 'succeeded' | 'failed' | 'filtered';

  @ApiProperty({ format: 'uuid' })
  flowVersionId!: string;

  @ApiProperty({ minimum: 0 })
  durationMs!: number;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Current values the execution would write, by field key (empty unless `succeeded`).' })
  current!: Record<string, unknown>;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'Time-series points the execution would write at `observedAt`, by field key (empty unless `succeeded`).' })
  timeseries!: Record<string, unknown>;

  @ApiProperty({ type: [ActionRequestResponse], description: 'E-mail requests (never sent by a preview or fixture run).' })
  actions!: ActionRequestResponse[];

  @ApiProperty({ type: ExecutionErrorResponse, nullable: true })
  error!: ExecutionErrorResponse | null;

  @ApiProperty({ type: [NodeTraceResponse], description: 'One entry per node in execution order.' })
  trace!: NodeTraceResponse[];

  static of(result: ExecutionResult): ExecutionResultResponse {
    return {
      status: result.status,
      flowVersionId: result.flowVersionId,
      durationMs: result.durationMs,
      current: result.current,
      timeseries: result.timeseries,
      actions: result.actions.map(({ nodeId, emailTemplateId }) => ({ nodeId, emailTemplateId })),
      error: result.error === null ? null : { nodeId: result.error.nodeId, code: result.error.code, message: result.error.message },
      trace: result.trace.map((trace) => NodeTraceResponse.of(trace)),
    };
  }
}
