import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsBoolean, IsDefined, IsOptional, IsString, IsUUID } from 'class-validator';
import { THIRTY_ONE_DAYS } from '../../../shared/pagination/newest-first-page';
import { AfterFrom, DateTimeFormat, MaxSpan } from '../../../shared/validation/time-window';

export const MAX_REPLAY_DEVICES = 100;

/** What to replay: `[from, to)` on the messages' `observedAt` (at most 31 days), a version, devices, dry run. */
export class CreateReplayRequest {
  @ApiProperty({ format: 'date-time', description: 'Inclusive bound on `observedAt`; any offset.' })
  @IsDefined()
  @IsString()
  @DateTimeFormat()
  from!: string;

  @ApiProperty({ format: 'date-time', description: 'Exclusive bound on `observedAt`; after `from`, at most 31 days after it.' })
  @IsDefined()
  @IsString()
  @DateTimeFormat()
  @AfterFrom()
  @MaxSpan(() => THIRTY_ONE_DAYS)
  to!: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'A released version of this flow (the active one may also be deprecated). Default: the active version.' })
  @IsOptional()
  @IsUUID()
  flowVersionId?: string;

  @ApiPropertyOptional({
    type: [String],
    format: 'uuid',
    minItems: 1,
    maxItems: MAX_REPLAY_DEVICES,
    uniqueItems: true,
    description: 'Only these devices of the flow’s device type. Default: all of them.',
  })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_REPLAY_DEVICES)
  @ArrayUnique((id: unknown) => (typeof id === 'string' ? id.toLowerCase() : id))
  @IsUUID('all', { each: true })
  deviceIds?: string[];

  @ApiPropertyOptional({ default: false, description: 'Run without storing anything or recording executions; a dry run of a version other than the active one reports a diff.' })
  @IsOptional()
  @IsBoolean()
  dryRun?: boolean;
}
