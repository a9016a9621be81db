import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TransformType } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, Max, MaxLength, Min, ValidateBy, ValidateIf } from 'class-validator';
import { MAX_CURSOR_LENGTH } from './cursor-codec';
import type { TimeWindow } from './newest-first-paginator';

/** Design §4 "Newest-first" family: page sizes 1..100, default 25. */
export const MAX_NEWEST_FIRST_LIMIT = 100;
export const DEFAULT_NEWEST_FIRST_LIMIT = 25;
/** Design §4: a time window spans at most 31 days. */
export const MAX_WINDOW_SPAN_MS = 31 * 24 * 60 * 60 * 1000;

/** One page of a "Newest-first" list: no total (design §4). */
export interface NewestFirstPage<T> {
  items: T[];
  /** Omitted on the last page. */
  nextCursor?: string;
}

/** Base of every "Newest-first" list's query DTO: the list adds its filters. */
export class NewestFirstPageParams {
  @ApiPropertyOptional({ maxLength: MAX_CURSOR_LENGTH, description: '`nextCursor` of the previous page; repeat its filters and limit.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_NEWEST_FIRST_LIMIT, default: DEFAULT_NEWEST_FIRST_LIMIT })
  @IsOptional()
  @TransformType(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_NEWEST_FIRST_LIMIT)
  limit: number = DEFAULT_NEWEST_FIRST_LIMIT;
}

/** RFC 3339 date-time with an offset (design C6: any offset in). */
const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d{1,9})?(Z|[+-]\d\d:\d\d)$/;

/** The instant of a well-formed date-time, else null. */
export function instantOf(value: unknown): number | null {
  if (typeof value !== 'string' || !DATE_TIME.test(value)) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : ms;
}

interface WindowFields {
  from?: string;
  to?: string;
}

/** Both bounds are well-formed: only then are range and span meaningful (one violation per property). */
const bothInstants = (object: object): [number, number] | null => {
  const { from, to } = object as WindowFields;
  const [start, end] = [instantOf(from), instantOf(to)];
  return start === null || end === null ? null : [start, end];
};

const pairPresent = (object: object): boolean => {
  const { from, to } = object as WindowFields;
  return from !== undefined || to !== undefined;
};

const DateTimeFormat = (): PropertyDecorator =>
  ValidateBy({
    name: 'format',
    validator: {
      validate: (value: unknown) => instantOf(value) !== null,
      defaultMessage: () => 'Must be an ISO 8601 date-time with an offset, e.g. 2026-01-02T03:04:05.678Z.',
    },
  });

/**
 * Base of time-windowed "Newest-first" lists (design §4): `from`/`to` as a pair, `[from, to)`, at most 31 days;
 * neither = the last 24 hours. One bound alone: `required` on the other; `from >= to`: `range` on `query.to`;
 * a longer span: `max_span` on `query.to`.
 */
export class TimeWindowPageParams extends NewestFirstPageParams {
  @ApiPropertyOptional({ format: 'date-time', description: 'Inclusive; with `to`. Neither: the last 24 hours.' })
  @ValidateIf(pairPresent)
  @IsDefined()
  @IsString()
  @DateTimeFormat()
  from?: string;

  @ApiPropertyOptional({ format: 'date-time', description: 'Exclusive; with `from`; at most 31 days after it.' })
  @ValidateIf(pairPresent)
  @IsDefined()
  @IsString()
  @DateTimeFormat()
  @ValidateBy({
    name: 'range',
    validator: {
      validate: (_value: unknown, args) => {
        const instants = args && bothInstants(args.object);
        return !instants || instants[0] < instants[1];
      },
      defaultMessage: () => '`to` must be after `from`.',
    },
  })
  @ValidateBy({
    name: 'max_span',
    validator: {
      validate: (_value: unknown, args) => {
        const instants = args && bothInstants(args.object);
        return !instants || instants[1] - instants[0] <= MAX_WINDOW_SPAN_MS;
      },
      defaultMessage: () => 'The window from `from` to `to` spans at most 31 days.',
    },
  })
  to?: string;

  /** The validated window, normalized (UTC, milliseconds) so one instant binds one cursor. */
  window(): TimeWindow {
    const [start, end] = [instantOf(this.from), instantOf(this.to)];
    return {
      from: start === null ? null : new Date(start).toISOString(),
      to: end === null ? null : new Date(end).toISOString(),
    };
  }
}

/** OpenAPI schema of a page of `item` without a total: `export class EventPage extends NewestFirstPageResponse(Event) {}`. */
export function NewestFirstPageResponse<T>(item: Type<T>): Type<NewestFirstPage<T>> {
  class PageOfItems implements NewestFirstPage<T> {
    @ApiProperty({ type: () => [item] })
    items!: T[];

    @ApiPropertyOptional({ maxLength: MAX_CURSOR_LENGTH, description: 'Omitted on the last page.' })
    nextCursor?: string;
  }
  return PageOfItems;
}
