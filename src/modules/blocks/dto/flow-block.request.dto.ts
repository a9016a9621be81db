import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsOptional, IsString, Matches } from 'class-validator';
import { AscendingPageParams } from '../../../shared/pagination/page';
import { EntityName, OptionalEntityName } from '../../../shared/validation/fields';
import { MinProperties } from '../../../shared/validation/min-properties';
import { Length, MaxLength } from '../../../shared/validation/text-length';
import { OptionalDescription } from '../../device-types';
import { FLOW_BLOCK_KEY_PATTERN } from './flow-block.response.dto';

export class CreateFlowBlockRequest {
  @ApiProperty({ pattern: FLOW_BLOCK_KEY_PATTERN.source, minLength: 1, maxLength: 128, description: 'Unique in its scope; immutable.' })
  @IsString()
  @Length(1, 128)
  @Matches(FLOW_BLOCK_KEY_PATTERN, { message: 'key must match ^[a-z0-9][a-z0-9._-]{0,127}$' })
  key!: string;

  @EntityName()
  name!: string;

  @OptionalDescription()
  description?: string;
}

/** At least one property; `key` and `scope` are immutable. */
@MinProperties(1)
export class UpdateFlowBlockRequest {
  @OptionalEntityName()
  name?: string;

  @OptionalDescription('Absent: unchanged.')
  description?: string;
}

export class ListFlowBlocksParams extends AscendingPageParams {
  @ApiPropertyOptional({ maxLength: 100, description: 'Case-insensitive substring of key or name.' })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  q?: string;
}

