import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';
import { ExecutionErrorResponse } from './execution-result.response.dto';

const ANY_JSON = { oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }] };

export class AssertionResultResponse {
  @ApiProperty({ description: 'Dots and `[n]` into {status, current, timeseries, actions, error}.' })
  path!: string;

  @ApiProperty({ ...ANY_JSON })
  expected!: unknown;

  @ApiProperty({ ...ANY_JSON, description: 'The value found at `path`; null when the path leads nowhere (then the assertion fails).' })
  actual!: unknown;

  @ApiProperty({ description: 'Deep JSON equality of `actual` and `expected`.' })
  passed!: boolean;
}

export class FixtureRunResultResponse {
  @ApiProperty({ format: 'uuid' })
  fixtureId!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  name?: string | null;

  @ApiProperty({ description: 'Every assertion passed (without assertions: the execution did not fail).' })
  passed!: boolean;

  @ApiProperty({ enum: ['succeeded', 'failed', 'filtered'] })
  status!: 'succeeded' | 'failed' | 'filtered';

  @ApiProperty({ type: [AssertionResultResponse] })
  assertions!: AssertionResultResponse[];

  @ApiProperty({ type: ExecutionErrorResponse, nullable: true })
  error!: ExecutionErrorResponse | null;
}

/** The outcome of running fixtures against one flow version (not stored). */
export class FixtureRunResponse {
  @ApiProperty({ format: 'uuid' })
  flowVersionId!: string;

  @ApiProperty({ type: 'integer', minimum: 0 })
  total!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  passed!: number;

  @ApiProperty({ type: 'integer', minimum: 0 })
  failed!: number;

  @ApiProperty({ type: [FixtureRunResultResponse], description: 'In the order of `fixtureIds`, else in fixture creation order.' })
  results!: FixtureRunResultResponse[];
}
