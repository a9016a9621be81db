import type { Type } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type as TransformType } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { MaxLength } from '../validation/text-length';
import { MAX_CURSOR_LENGTH } from './cursor-codec';

/** The "Ascending" list family: page sizes and the default. */
export const ASCENDING_PAGE_LIMITS = [25, 50, 100] as const;
export const DEFAULT_ASCENDING_LIMIT = 25;

/** One page of an "Ascending" list. */
export interface Page<T> {
  items: T[];
  /** Omitted on the last page. */
  nextCursor?: string;
  /** Exact, for the same scope and filters. */
  totalCount: number;
}

/** Base of every "Ascending" list's query DTO: the list adds its filters. */
export class AscendingPageParams {
  @ApiPropertyOptional({ maxLength: MAX_CURSOR_LENGTH, description: '`nextCursor` of the previous page; repeat its filters and limit.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', enum: ASCENDING_PAGE_LIMITS, default: DEFAULT_ASCENDING_LIMIT })
  @IsOptional()
  @TransformType(() => Number)
  @IsInt()
  @IsIn([...ASCENDING_PAGE_LIMITS])
  limit: number = DEFAULT_ASCENDING_LIMIT;
}

/** The "Chronological" list family (measurements): limit 1..1000, default 100. */
export const MAX_CHRONOLOGICAL_LIMIT = 1000;
export const DEFAULT_CHRONOLOGICAL_LIMIT = 100;

/** Base of a "Chronological" list's query DTO. */
export class ChronologicalPageParams {
  @ApiPropertyOptional({ maxLength: MAX_CURSOR_LENGTH, description: '`nextCursor` of the previous page; repeat its filters and limit.' })
  @IsOptional()
  @IsString()
  @MaxLength(MAX_CURSOR_LENGTH)
  cursor?: string;

  @ApiPropertyOptional({ type: 'integer', minimum: 1, maximum: MAX_CHRONOLOGICAL_LIMIT, default: DEFAULT_CHRONOLOGICAL_LIMIT })
  @IsOptional()
  @TransformType(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_CHRONOLOGICAL_LIMIT)
  limit: number = DEFAULT_CHRONOLOGICAL_LIMIT;
}

/** OpenAPI schema of a page of `item`: `export class UserPage extends PageResponse(UserResponse) {}`. */
export function PageResponse<T>(item: Type<T>): Type<Page<T>> {
  class PageOfItems implements Page<T> {
    @ApiProperty({ type: () => [item] })
    items!: T[];

    @ApiPropertyOptional({ maxLength: MAX_CURSOR_LENGTH, description: 'Omitted on the last page.' })
    nextCursor?: string;

    @ApiProperty({ type: 'integer', minimum: 0, description: 'Exact, for the same filters.' })
    totalCount!: number;
  }
  return PageOfItems;
}
