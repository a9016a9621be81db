import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import type { FlowFixtureEntity } from '../persistence/flow-fixture.entity';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';

export class RawReferenceResponse {
  @ApiProperty({ format: 'uuid' })
  rawIngestionMessageId!: string;

  @ApiProperty({ format: 'date-time' })
  receivedAt!: string;
}

export class AssertionResponse {
  @ApiProperty({ minLength: 1, maxLength: 500, description: 'Dots and `[n]` into {status, current, timeseries, actions, error}.' })
  path!: string;

  @ApiProperty({ oneOf: [...JSON_VALUE_SCHEMAS, { type: 'null' }], description: 'Any JSON value; compared by deep equality.' })
  expected!: unknown;
}

/** A stored test input of a flow with its assertions. */
export class FixtureResponse {
  @ApiProperty({ format: 'uuid' })
  fixtureId!: string;

  @ApiProperty({ format: 'uuid' })
  flowId!: string;

  @ApiProperty({ format: 'uuid' })
  tenantId!: string;

  @ApiPropertyOptional({ type: 'string', nullable: true })
  name!: string | null;

  @ApiProperty({ type: 'object', additionalProperties: true, description: 'The execution input (`mode` `fixture`).' })
  input!: Record<string, unknown>;

  @ApiProperty({ type: RawReferenceResponse, nullable: true })
  raw!: RawReferenceResponse | null;

  @ApiProperty()
  rawRetentionExtended!: boolean;

  @ApiProperty({ type: [AssertionResponse] })
  assertions!: AssertionResponse[];

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Also the `ETag`.' })
  lockVersion!: number;

  @ApiProperty({ format: 'date-time' })
  createdAt!: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt!: string;

  static of(fixture: FlowFixtureEntity): FixtureResponse {
    return {
      fixtureId: fixture.fixtureId,
      flowId: fixture.flowId,
      tenantId: fixture.tenantId,
      name: fixture.name,
      input: fixture.input,
      raw:
        fixture.rawIngestionMessageId && fixture.rawReceivedAt
          ? { rawIngestionMessageId: fixture.rawIngestionMessageId, receivedAt: fixture.rawReceivedAt.toISOString() }
          : null,
      rawRetentionExtended: fixture.rawRetentionExtended,
      assertions: fixture.assertions,
      lockVersion: fixture.lockVersion,
      createdAt: fixture.createdAt.toISOString(),
      updatedAt: fixture.updatedAt.toISOString(),
    };
  }
}
