import { ApiProperty, ApiPropertyOptional, getSchemaPath } from '@nestjs/swagger';
import { MAX_CURSOR_LENGTH } from '../../../shared/pagination/cursor-codec';
import { JSON_VALUE_SCHEMAS } from '../../../shared/validation/json-value-schemas';


/** A stored point (no `bucket`). */
export class MeasurementPoint {
  @ApiProperty()
  fieldKey!: string;

  @ApiProperty({ format: 'date-time' })
  observedAt!: string;

  @ApiProperty({ oneOf: JSON_VALUE_SCHEMAS, description: 'Number, string, boolean or JSON, per the field’s schemaRef.' })
  value!: unknown;
}

/** One bucket of one field (with `bucket`). */
export class MeasurementBucket {
  @ApiProperty()
  fieldKey!: string;

  @ApiProperty({ format: 'date-time', description: 'Start of [bucketStart, bucketStart + bucket), aligned to the UTC epoch.' })
  bucketStart!: string;

  @ApiProperty({ oneOf: JSON_VALUE_SCHEMAS, description: 'The aggregate: a number, except `last` of a non-number field (its last value).' })
  value!: unknown;

  @ApiProperty({ type: 'integer', minimum: 1, description: 'Visible points in the bucket.' })
  count!: number;
}

export type MeasurementItem = MeasurementPoint | MeasurementBucket;

/** A "Chronological" page: (observedAt or bucketStart, fieldKey) ascending. */
export class MeasurementPage {
  @ApiProperty({ format: 'uuid' })
  deviceId!: string;

  @ApiProperty({
    type: 'array',
    items: { oneOf: [{ $ref: getSchemaPath(MeasurementPoint) }, { $ref: getSchemaPath(MeasurementBucket) }] },
    description: 'Points without `bucket`, buckets with it.',
  })
  items!: MeasurementItem[];

  @ApiPropertyOptional({ maxLength: MAX_CURSOR_LENGTH, description: 'Omitted on the last page.' })
  nextCursor?: string;
}
