import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, ArrayUnique, IsArray, IsOptional, IsUUID } from 'class-validator';
import { MAX_FIXTURES_PER_FLOW } from '../domain/fixture-input';

export class RunFixturesRequest {
  @ApiProperty({ format: 'uuid', description: 'A version of this flow in any status.' })
  @IsUUID()
  flowVersionId!: string;

  @ApiPropertyOptional({ type: [String], format: 'uuid', minItems: 1, maxItems: MAX_FIXTURES_PER_FLOW, uniqueItems: true, description: 'Fixtures of this flow to run (default: all of them).' })
  @IsOptional()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(MAX_FIXTURES_PER_FLOW)
  @ArrayUnique()
  @IsUUID('all', { each: true })
  fixtureIds?: string[];
}
