import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, ValidateBy, ValidateIf } from 'class-validator';
import { FIELD_KEY_PATTERN } from '../../device-types';
import { ChronologicalPageParams } from '../../../shared/pagination/page';
import { AfterFrom, DateTimeFormat, MaxSpan } from '../../../shared/validation/time-window';
import { BUCKETS, Bucket, AGGREGATIONS, Aggregation } from '../domain/measurement-query';

const DAY_MS = 24 * 60 * 60 * 1000;
/** A raw read spans at most 31 days, a bucketed one at most 366. */
export const MAX_RAW_SPAN_MS = 31 * DAY_MS;
export const MAX_BUCKETED_SPAN_MS = 366 * DAY_MS;
export const MAX_FIELD_KEYS = 50;

const rule = (name: string, validate: (value: unknown) => boolean, message: string): PropertyDecorator =>
  ValidateBy({ name, validator: { validate, defaultMessage: () => message } });

const bucketed = (object: object): boolean => (object as { bucket?: unknown }).bucket !== undefined;

const keysOf = (value: unknown): string[] => (typeof value === 'string' ? value.split(',') : []);

/**
 * The measurements query. `from`/`to` required, `[from, to)`; `from >= to`: `range` on `query.to`; a span
 * over 31 days (366 with `bucket`): `max_span` on `query.to`. `aggregation` without `bucket`: `required` on
 * `query.bucket`. Whether each key names a timeseries field of the device's type is checked by the handler.
 */
export class ListMeasurementsParams extends ChronologicalPageParams {
  @ApiProperty({ format: 'date-time', description: 'Inclusive; any offset.' })
  @IsDefined()
  @IsString()
  @DateTimeFormat()
  from!: string;

  @ApiProperty({ format: 'date-time', description: 'Exclusive; at most 31 days after `from` (366 with `bucket`).' })
  @IsDefined()
  @IsString()
  @DateTimeFormat()
  @AfterFrom()
  @MaxSpan((object) =>
    bucketed(object)
      ? { ms: MAX_BUCKETED_SPAN_MS, message: 'With `bucket`, the window from `from` to `to` spans at most 366 days.' }
      : { ms: MAX_RAW_SPAN_MS, message: 'Without `bucket`, the window from `from` to `to` spans at most 31 days.' },
  )
  to!: string;

  @ApiPropertyOptional({
    description: `Comma-separated field keys, 1..${MAX_FIELD_KEYS}, each a timeseries field of the device's type (deprecated ones allowed). Default: every timeseries field.`,
    example: 'temperature,humidity',
  })
  @IsOptional()
  @IsString()
  @rule('min_items', (value) => keysOf(value).some((key) => key.length > 0), 'Name at least one field key.')
  @rule('max_items', (value) => keysOf(value).length <= MAX_FIELD_KEYS, `At most ${MAX_FIELD_KEYS} field keys.`)
  @rule('pattern', (value) => value === '' || keysOf(value).every((key) => FIELD_KEY_PATTERN.test(key)), `Each key must match ${FIELD_KEY_PATTERN.source}.`)
  @rule('unique', (value) => new Set(keysOf(value)).size === keysOf(value).length, 'A field key is named twice.')
  fieldKeys?: string;

  @ApiPropertyOptional({ enum: BUCKETS, description: 'Aggregate into buckets of this width, aligned to the UTC epoch. Required with `aggregation`.' })
  @ValidateIf((object: ListMeasurementsParams) => object.bucket !== undefined || object.aggregation !== undefined)
  @IsDefined({ message: '`aggregation` needs `bucket`.' })
  @IsString()
  @IsIn([...BUCKETS])
  bucket?: Bucket;

  @ApiPropertyOptional({
    enum: AGGREGATIONS,
    default: 'avg',
    description: 'With `bucket` only. Non-number fields allow `count` and `last` only (400 `aggregation_not_applicable`).',
  })
  @IsOptional()
  @IsString()
  @IsIn([...AGGREGATIONS])
  aggregation?: Aggregation;

  /** The field keys as given (order kept), or null for the default set. */
  keys(): string[] | null {
    return this.fieldKeys === undefined ? null : keysOf(this.fieldKeys);
  }
}
