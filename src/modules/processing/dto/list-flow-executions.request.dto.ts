import { ApiPropertyOptional } from '@nestjs/swagger';
import { IsIn, IsOptional, IsString, IsUUID, Matches } from 'class-validator';
import { CORRELATION_PATTERN } from '../../../shared/context/correlation-id';
import { TimeWindowPageParams } from '../../../shared/pagination/newest-first-page';
import { EXECUTION_MODES, EXECUTION_STATUSES, ExecutionRecordMode, ExecutionStatus } from '../persistence/flow-execution.entity';

/** Filters of a flow's executions: exact matches, the window on `startedAt`. */
export class ListFlowExecutionsParams extends TimeWindowPageParams {
  @ApiPropertyOptional({ format: 'uuid', description: 'A device of the flow’s device type; any other id is 400 `reference_not_found`.' })
  @IsOptional()
  @IsUUID()
  deviceId?: string;

  @ApiPropertyOptional({ enum: EXECUTION_STATUSES })
  @IsOptional()
  @IsString()
  @IsIn([...EXECUTION_STATUSES])
  status?: ExecutionStatus;

  @ApiPropertyOptional({ format: 'uuid', description: 'A version of this flow; any other id is 400 `reference_not_found`.' })
  @IsOptional()
  @IsUUID()
  flowVersionId?: string;

  @ApiPropertyOptional({ enum: EXECUTION_MODES })
  @IsOptional()
  @IsString()
  @IsIn([...EXECUTION_MODES])
  mode?: ExecutionRecordMode;

  @ApiPropertyOptional({ format: 'uuid', description: 'A replay of this flow; any other id is 400 `reference_not_found`.' })
  @IsOptional()
  @IsUUID()
  replayId?: string;

  @ApiPropertyOptional({ pattern: CORRELATION_PATTERN.source, description: 'The ingest request’s correlation id, exact.' })
  @IsOptional()
  @IsString()
  @Matches(CORRELATION_PATTERN)
  correlationId?: string;
}
