import { Injectable } from '@nestjs/common';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CursorBinding, CursorCodec, cursorInvalid } from './cursor-codec';
import type { Page } from './page';

export interface PageRequest extends CursorBinding {
  cursor?: string;
}

/** SQL expressions of an "Ascending" list's sort key, e.g. `{ createdAt: 'u.created_at', id: 'u.user_id' }`. */
export interface AscendingKeys {
  createdAt: string;
  id: string;
}

const POSITION_CREATED_AT = 'keyset_created_at';
const POSITION_ID = 'keyset_id';

/**
 * Keyset pagination of the "Ascending" list family: (createdAt, id) ascending, `limit` rows per page, an
 * exact `totalCount`, and a signed cursor (CursorCodec) carrying the last row's key. The created_at of that row
 * travels as PostgreSQL's own text with microseconds, so the continuation compares exactly (a JavaScript Date
 * would round to milliseconds and skip or repeat rows).
 */
@Injectable()
export class KeysetPaginator {
  constructor(private readonly codec: CursorCodec) {}

  /**
   * One page of `query`, which carries the list's filters and must yield one row per entity (no to-many joins).
   * Throws VALIDATION_FAILED `query.cursor` (`cursor_invalid`, `cursor_mismatch`) before touching the database.
   */
  async ascending<E extends ObjectLiteral>(
    query: SelectQueryBuilder<E>,
    keys: AscendingKeys,
    request: PageRequest,
  ): Promise<Page<E>> {
    this.positionOf(request); // a bad cursor is a 400 before any query
    const totalCount = await query.clone().getCount();
    return { ...(await this.page(query, keys, request)), totalCount };
  }

  /**
   * One page of the "Chronological" list family (measurements): (time, key) ascending, e.g.
   * `{ createdAt: 'm.observed_at', id: 'm.field_key' }`, no total. The list validates `limit` (1..1000).
   */
  async chronological<E extends ObjectLiteral>(
    query: SelectQueryBuilder<E>,
    keys: AscendingKeys,
    request: PageRequest,
  ): Promise<{ items: E[]; nextCursor?: string }> {
    return this.page(query, keys, request);
  }

  private async page<E extends ObjectLiteral>(
    query: SelectQueryBuilder<E>,
    keys: AscendingKeys,
    request: PageRequest,
  ): Promise<{ items: E[]; nextCursor?: string }> {
    const after = this.positionOf(request);

    const pageQuery = query
      .clone()
      .addSelect(`to_char(${keys.createdAt} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`, POSITION_CREATED_AT)
      .addSelect(`CAST(${keys.id} AS text)`, POSITION_ID)
      .orderBy(keys.createdAt, 'ASC')
      .addOrderBy(keys.id, 'ASC')
      .limit(request.limit + 1);
    if (after) {
      pageQuery.andWhere(`(${keys.createdAt}, ${keys.id}) > (CAST(:keysetAfterCreatedAt AS timestamptz), :keysetAfterId)`, {
        keysetAfterCreatedAt: after.createdAt,
        keysetAfterId: after.id,
      });
    }
    const { entities, raw } = await pageQuery.getRawAndEntities<Record<string, unknown>>();
    if (entities.length <= request.limit) return { items: entities };

    const items = entities.slice(0, request.limit);
    const lastRaw = raw[request.limit - 1];
    const lastCreatedAt = lastRaw?.[POSITION_CREATED_AT];
    const lastId = lastRaw?.[POSITION_ID];
    if (typeof lastCreatedAt !== 'string' || typeof lastId !== 'string') {
      throw new Error('KeysetPaginator: the page query must select its key columns, one row per entity');
    }
    return { items, nextCursor: this.codec.encode(request, [lastCreatedAt, lastId]) };
  }

  /** Checks a cursor without reading a page, for lists that are known to be empty. */
  verify(request: PageRequest): void {
    this.positionOf(request);
  }

  private positionOf(request: PageRequest): { createdAt: string; id: string } | null {
    if (request.cursor === undefined) return null;
    const [createdAt, id, ...rest] = this.codec.decode(request.cursor, request);
    // A signed cursor of this binding always has this shape; anything else is a cursor of another list family.
    if (typeof createdAt !== 'string' || typeof id !== 'string' || rest.length > 0) {
      throw cursorInvalid();
    }
    return { createdAt, id };
  }
}
