import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsInt, Max, Min } from 'class-validator';

export const MAX_CAPTURE_MINUTES = 60;
export const MAX_CAPTURE_EXECUTIONS = 1000;

/** How long, and for how many live executions, a debug capture lasts: it ends at whichever runs out first. */
export class StartDebugCaptureRequest {
  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_CAPTURE_MINUTES, description: 'Duration in minutes, 1..60.' })
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(MAX_CAPTURE_MINUTES)
  minutes!: number;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: MAX_CAPTURE_EXECUTIONS, description: 'Live executions to capture, 1..1000.' })
  @IsDefined()
  @IsInt()
  @Min(1)
  @Max(MAX_CAPTURE_EXECUTIONS)
  maxExecutions!: number;
}
