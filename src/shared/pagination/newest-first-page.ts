import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TransformType } from 'class-transformer';
import { IsDefined, IsInt, IsOptional, IsString, Max, Min, ValidateIf } from 'class-validator';
import { MaxLength } from '../validation/text-length';
import { AfterFrom, DateTimeFormat, instantOf, MaxSpan } from '../validation/time-window';
import { MAX_CURSOR_LENGTH } from './cursor-codec';

/** The "Newest-first" list family: page sizes 1..100, default 25. */
export const MAX_NEWEST_FIRST_LIMIT = 100;
export const DEFAULT_NEWEST_FIRST_LIMIT = 25;
/** A time window spans at most 31 days. */
export const MAX_WINDOW_SPAN_MS = 31 * 24 * 60 * 60 * 1000;

/**
 * A validated time window: both bounds, or neither. Instants as ISO 8601 text; `to` is exclusive.
 * Neither: the `defaultHours` before the anchor (null: unbounded below, as dead letters are).
 */
export interface TimeWindow {
  from: string | null;
  to: string | null;
}

/** One page of a "Newest-first" list: no total. */
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

const pairPresent = (object: object): boolean => {
  const { from, to } = object as { from?: string; to?: string };
  return from !== undefined || to !== undefined;
};

export const THIRTY_ONE_DAYS = { ms: MAX_WINDOW_SPAN_MS, message: 'The window from `from` to `to` spans at most 31 days.' };

/**
 * Base of time-windowed "Newest-first" lists: `from`/`to` as a pair, `[from, to)`, at most 31 days;
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
  @AfterFrom()
  @MaxSpan(() => THIRTY_ONE_DAYS)
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
