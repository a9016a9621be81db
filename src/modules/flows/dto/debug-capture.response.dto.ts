import { ApiProperty } from '@nestjs/swagger';

/** A flow's debug capture: whether its live executions keep each node's output in their trace, and for how long. */
export class FlowDebugCaptureResponse {
  @ApiProperty({ format: 'uuid' })
  flowId!: string;

  @ApiProperty({ description: 'True until `endsAt` passes, `remainingExecutions` reaches 0 or the capture is ended (DELETE).' })
  active!: boolean;

  @ApiProperty({ format: 'date-time', nullable: true, type: String, description: 'When the latest capture started; null when the flow never had one.' })
  startedAt!: string | null;

  @ApiProperty({
    format: 'date-time',
    nullable: true,
    type: String,
    description: 'When the capture ends (or ended: set to the moment of a DELETE); null when the flow never had one.',
  })
  endsAt!: string | null;

  @ApiProperty({ type: 'integer', nullable: true, minimum: 1, maximum: 1000, description: 'The `maxExecutions` it was started with; null when the flow never had one.' })
  maxExecutions!: number | null;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1000, description: 'Executions it may still capture; 0 once it is not active.' })
  remainingExecutions!: number;

  @ApiProperty({ type: 'integer', minimum: 0, maximum: 1000, description: 'Live executions captured so far (exact, across workers and replicas).' })
  capturedExecutions!: number;
}
