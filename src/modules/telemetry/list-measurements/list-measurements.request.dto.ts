import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsIn, IsOptional, IsString, ValidateBy, ValidateIf, ValidationArguments } from 'class-validator';
import { FIELD_KEY_PATTERN } from '../../device-types/domain/device-field-definition.entity';
import { ChronologicalPageParams } from '../../../shared/pagination/page';
import { instantOf } from '../../../shared/pagination/newest-first-page';
import { BUCKETS, Bucket, AGGREGATIONS, Aggregation } from '../domain/measurement-query';

const DAY_MS = 24 * 60 * 60 * 1000;
/** Design §5.9: a raw read spans at most 31 days, a bucketed one at most 366. */
export const MAX_RAW_SPAN_MS = 31 * DAY_MS;
export const MAX_BUCKETED_SPAN_MS = 366 * DAY_MS;
export const MAX_FIELD_KEYS = 50;

interface Window {
  from?: unknown;
  to?: unknown;
  bucket?: unknown;
}

const instants = (args: ValidationArguments | undefined): [number, number] | null => {
  const { from, to } = (args?.object ?? {}) as Window;
  const [start, end] = [instantOf(from), instantOf(to)];
  return start === null || end === null ? null : [start, end];
};

const rule = (name: string, validate: (value: unknown, args?: ValidationArguments) => boolean, message: string | ((args?: ValidationArguments) => string)): PropertyDecorator =>
  ValidateBy({ name, validator: { validate, defaultMessage: typeof message === 'string' ? () => message : message } });

const DateTime = (): PropertyDecorator =>
  rule('format', (value) => instantOf(value) !== null, 'Must be an ISO 8601 date-time with an offset, e.g. 2026-01-02T03:04:05.678Z.');

const keysOf = (value: unknown): string[] => (typeof value === 'string' ? value.split(',') : []);

/**
 * Design §5.9 measurements query. `from`/`to` required, `[from, to)`; `from >= to`: `range` on `query.to`; a span
 * over 31 days (366 with `bucket`): `max_span` on `query.to`. `aggregation` without `bucket`: `required` on
 * `query.bucket`. Whether each key names a timeseries field of the device's type is checked by the handler.
 */
export class ListMeasurementsParams extends ChronologicalPageParams {
  @ApiProperty({ format: 'date-time', description: 'Inclusive; any offset.' })
  @IsDefined()
  @IsString()
  @DateTime()
  from!: string;

  @ApiProperty({ format: 'date-time', description: 'Exclusive; at most 31 days after `from` (366 with `bucket`).' })
  @IsDefined()
  @IsString()
  @DateTime()
  @ValidateBy({
    name: 'range',
    validator: {
      validate: (_value: unknown, args) => {
        const window = instants(args);
        return !window || window[0] < window[1];
      },
      defaultMessage: () => '`to` must be after `from`.',
    },
  })
  @ValidateBy({
    name: 'max_span',
    validator: {
      validate: (_value: unknown, args) => {
        const window = instants(args);
        const bucketed = (args?.object as Window | undefined)?.bucket !== undefined;
        return !window || window[1] - window[0] <= (bucketed ? MAX_BUCKETED_SPAN_MS : MAX_RAW_SPAN_MS);
      },
      defaultMessage: (args) =>
        (args?.object as Window | undefined)?.bucket !== undefined
          ? 'With `bucket`, the window from `from` to `to` spans at most 366 days.'
          : 'Without `bucket`, the window from `from` to `to` spans at most 31 days.',
    },
  })
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
