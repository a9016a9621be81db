import { Injectable } from '@nestjs/common';
import type { ObjectLiteral, SelectQueryBuilder } from 'typeorm';
import { CursorCodec, cursorInvalid } from './cursor-codec';
import type { PageRequest } from './keyset-paginator';
import type { NewestFirstPage, TimeWindow } from './newest-first-page';

/** SQL expressions of a time-windowed list's sort key, e.g. `{ time: 'a.occurred_at', id: 'a.audit_log_id' }`. */
export interface NewestFirstKeys {
  time: string;
  id: string;
}

export type { TimeWindow } from './newest-first-page';

export interface WindowedPageRequest extends PageRequest {
  window: TimeWindow;
  /** Length of the window when the caller gave neither bound; null for no lower bound. */
  defaultHours?: number | null;
}

const POSITION_ANCHOR = 'keyset_anchor';
const POSITION_TIME = 'keyset_time';
const POSITION_ID = 'keyset_id';
const US_TEXT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
const DEFAULT_HOURS = 24;

interface Position {
  anchor: string;
  time: string;
  id: string;
}

/**
 * Keyset pagination of the "Newest-first" list family for time-windowed lists (audit, raw messages,
 * executions, dead letters): (time, id) descending, no total, a signed cursor carrying the window's upper anchor
 * `min(to, now)` fixed by page 1 and the last row's key. `now` is the database's statement time, the clock that
 * stamps the rows, so a row written after page 1 is never on a later page. Times travel as PostgreSQL text with
 * microseconds so the continuation compares exactly.
 */
@Injectable()
export class NewestFirstPaginator {
  constructor(private readonly codec: CursorCodec) {}

  /**
   * One page of `query`, which carries the list's filters and must yield one row per entity. Throws
   * VALIDATION_FAILED `query.cursor` (`cursor_invalid`, `cursor_mismatch`) before touching the database.
   */
  async timeWindowed<E extends ObjectLiteral>(
    query: SelectQueryBuilder<E>,
    keys: NewestFirstKeys,
    request: WindowedPageRequest,
  ): Promise<NewestFirstPage<E>> {
    const binding = this.bindingOf(request);
    const after = this.positionOf(binding);
    const hours = request.defaultHours === undefined ? DEFAULT_HOURS : request.defaultHours;
    const { from, to } = request.window;
    // Page 1 computes the anchor in SQL; later pages read it from the cursor.
    const anchor = after
      ? 'CAST(:keysetAnchor AS timestamptz)'
      : to === null
        ? 'statement_timestamp()'
        : 'LEAST(CAST(:keysetTo AS timestamptz), statement_timestamp())';
    const pageQuery = query
      .clone()
      .addSelect(`to_char(${anchor} AT TIME ZONE 'UTC', ${US_TEXT})`, POSITION_ANCHOR)
      .addSelect(`to_char(${keys.time} AT TIME ZONE 'UTC', ${US_TEXT})`, POSITION_TIME)
      .addSelect(`CAST(${keys.id} AS text)`, POSITION_ID)
      .orderBy(keys.time, 'DESC')
      .addOrderBy(keys.id, 'DESC')
      .limit(request.limit + 1);
    const params: Record<string, string> = {};
    if (to !== null) params.keysetTo = to;
    if (after) {
      params.keysetAnchor = after.anchor;
      params.keysetAfterTime = after.time;
      params.keysetAfterId = after.id;
      // The last row is below the anchor already, so the row comparison carries the upper bound.
      pageQuery.andWhere(`(${keys.time}, ${keys.id}) < (CAST(:keysetAfterTime AS timestamptz), :keysetAfterId)`);
    } else {
      pageQuery.andWhere(`${keys.time} < ${anchor}`);
    }
    if (from !== null) {
      params.keysetFrom = from;
      pageQuery.andWhere(`${keys.time} >= CAST(:keysetFrom AS timestamptz)`);
    } else if (to === null && hours !== null) {
      pageQuery.andWhere(`${keys.time} >= ${anchor} - make_interval(hours => ${Math.trunc(hours)})`);
    }
    pageQuery.setParameters(params);
    const { entities, raw } = await pageQuery.getRawAndEntities<Record<string, unknown>>();
    if (entities.length <= request.limit) return { items: entities };
    const lastRaw = raw[request.limit - 1];
    const [lastAnchor, lastTime, lastId] = [lastRaw?.[POSITION_ANCHOR], lastRaw?.[POSITION_TIME], lastRaw?.[POSITION_ID]];
    if (typeof lastAnchor !== 'string' || typeof lastTime !== 'string' || typeof lastId !== 'string') {
      throw new Error('NewestFirstPaginator: the page query must select its key columns, one row per entity');
    }
    return { items: entities.slice(0, request.limit), nextCursor: this.codec.encode(binding, [lastAnchor, lastTime, lastId]) };
  }

  /** Checks a cursor without reading a page (e.g. before the tenant lookup: validation comes first). */
  verify(request: WindowedPageRequest): void {
    this.positionOf(this.bindingOf(request));
  }

  /** The window is part of every binding, whatever the list names its filters. */
  private bindingOf(request: WindowedPageRequest): PageRequest {
    const { from, to } = request.window;
    return { ...request, filters: { ...request.filters, 'window.from': from, 'window.to': to } };
  }

  private positionOf(request: PageRequest): Position | null {
    if (request.cursor === undefined) return null;
    const [anchor, time, id, ...rest] = this.codec.decode(request.cursor, request);
    // A signed cursor of this binding always has this shape; anything else is a cursor of another list family.
    if (typeof anchor !== 'string' || typeof time !== 'string' || typeof id !== 'string' || rest.length > 0) {
      throw cursorInvalid();
    }
    return { anchor, time, id };
  }
}
