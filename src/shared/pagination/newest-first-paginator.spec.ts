import type { SelectQueryBuilder } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ValidationFailedError } from '../errors/domain-error';
import { CursorCodec } from './cursor-codec';
import { NewestFirstPaginator, WindowedPageRequest } from './newest-first-paginator';

interface Row {
  id: string;
}

const ANCHOR = '2026-01-02T00:00:00.000000Z';

/** Records what the paginator asks of the query builder and answers with `rows` (already in key order). */
function fakeQuery(rows: Row[]) {
  const calls = { andWhere: [] as string[], limit: [] as number[], orderBy: [] as [string, string][], selects: [] as string[], params: {} as Record<string, unknown> };
  const builder = {
    clone: () => builder,
    addSelect: (expression: string) => {
      calls.selects.push(expression);
      return builder;
    },
    orderBy: (expression: string, order: string) => {
      calls.orderBy.push([expression, order]);
      return builder;
    },
    addOrderBy: (expression: string, order: string) => {
      calls.orderBy.push([expression, order]);
      return builder;
    },
    limit: (limit: number) => {
      calls.limit.push(limit);
      return builder;
    },
    andWhere: (sql: string) => {
      calls.andWhere.push(sql);
      return builder;
    },
    setParameters: (params: Record<string, unknown>) => {
      Object.assign(calls.params, params);
      return builder;
    },
    getRawAndEntities: async () => {
      const page = rows.slice(0, calls.limit.at(-1) ?? rows.length);
      return {
        entities: page,
        raw: page.map((row, index) => ({ keyset_anchor: ANCHOR, keyset_time: `2026-01-01T23:00:00.00000${index}Z`, keyset_id: row.id })),
      };
    },
  };
  return { query: builder as unknown as SelectQueryBuilder<Row>, calls };
}

const rowsOf = (count: number): Row[] => Array.from({ length: count }, (_, index) => ({ id: `id-${index}` }));
const KEYS = { time: 'a.occurred_at', id: 'a.audit_log_id' };
const NO_WINDOW = { from: null, to: null };
const REQUEST: WindowedPageRequest = { actorId: 'actor', scope: 'audit-logs', filters: { action: null }, limit: 2, window: NO_WINDOW };

describe('NewestFirstPaginator.timeWindowed', () => {
  const codec = new CursorCodec(AppConfig.fromEnv({}, { cursorSecret: 'k'.repeat(32) }));
  const paginator = new NewestFirstPaginator(codec);
  const binding = (request: WindowedPageRequest) => ({
    ...request,
    filters: { ...request.filters, 'window.from': request.window.from, 'window.to': request.window.to },
  });

  it('orders by (time, id) descending, reads one row more, and bounds page 1 by the statement time and the last 24 hours', async () => {
    const { query, calls } = fakeQuery(rowsOf(1));
    await expect(paginator.timeWindowed(query, KEYS, REQUEST)).resolves.toEqual({ items: rowsOf(1) });
    expect(calls.orderBy).toEqual([
      ['a.occurred_at', 'DESC'],
      ['a.audit_log_id', 'DESC'],
    ]);
    expect(calls.limit).toEqual([3]);
    expect(calls.andWhere).toEqual([
      'a.occurred_at < statement_timestamp()',
      'a.occurred_at >= statement_timestamp() - make_interval(hours => 24)',
    ]);
  });

  it('anchors page 1 of an explicit window at min(to, now) and keeps from as the lower bound', async () => {
    const { query, calls } = fakeQuery(rowsOf(1));
    const window = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-03T00:00:00.000Z' };
    await paginator.timeWindowed(query, KEYS, { ...REQUEST, window });
    expect(calls.andWhere).toEqual([
      'a.occurred_at < LEAST(CAST(:keysetTo AS timestamptz), statement_timestamp())',
      'a.occurred_at >= CAST(:keysetFrom AS timestamptz)',
    ]);
    expect(calls.params).toEqual({ keysetTo: window.to, keysetFrom: window.from });
  });

  it('leaves the window unbounded below when the list has no default span', async () => {
    const { query, calls } = fakeQuery(rowsOf(1));
    await paginator.timeWindowed(query, KEYS, { ...REQUEST, defaultHours: null });
    expect(calls.andWhere).toEqual(['a.occurred_at < statement_timestamp()']);
  });

  it('answers a full page with a cursor of the anchor and the last row, and continues below that row in the same window', async () => {
    const first = fakeQuery(rowsOf(5));
    const page = await paginator.timeWindowed(first.query, KEYS, REQUEST);
    expect(page.items).toEqual(rowsOf(2));
    expect(Object.keys(page)).toEqual(['items', 'nextCursor']);
    expect(codec.decode(page.nextCursor!, binding(REQUEST))).toEqual([ANCHOR, '2026-01-01T23:00:00.000001Z', 'id-1']);
    const next = fakeQuery(rowsOf(1));
    await paginator.timeWindowed(next.query, KEYS, { ...REQUEST, cursor: page.nextCursor });
    expect(next.calls.andWhere).toEqual([
      '(a.occurred_at, a.audit_log_id) < (CAST(:keysetAfterTime AS timestamptz), :keysetAfterId)',
      // The default window stays the one page 1 fixed: 24 hours before its anchor, not before now.
      'a.occurred_at >= CAST(:keysetAnchor AS timestamptz) - make_interval(hours => 24)',
    ]);
    expect(next.calls.params).toEqual({ keysetAnchor: ANCHOR, keysetAfterTime: '2026-01-01T23:00:00.000001Z', keysetAfterId: 'id-1' });
  });

  it('binds the window into the cursor, whatever the list calls its filters', async () => {
    const window = { from: '2026-01-01T00:00:00.000Z', to: '2026-01-03T00:00:00.000Z' };
    const { nextCursor } = await paginator.timeWindowed(fakeQuery(rowsOf(5)).query, KEYS, { ...REQUEST, window });
    const other = fakeQuery(rowsOf(1));
    await expect(
      paginator.timeWindowed(other.query, KEYS, { ...REQUEST, window: { ...window, to: '2026-01-04T00:00:00.000Z' }, cursor: nextCursor }),
    ).rejects.toMatchObject({ fields: [{ path: 'query.cursor', rule: 'cursor_mismatch' }] });
    await expect(paginator.timeWindowed(other.query, KEYS, { ...REQUEST, cursor: nextCursor })).rejects.toMatchObject({
      fields: [{ path: 'query.cursor', rule: 'cursor_mismatch' }],
    });
    expect(other.calls.limit).toEqual([]);
  });

  it('rejects a genuine cursor of another shape (an ascending list\'s) as cursor_invalid in verify', () => {
    const cursor = codec.encode(binding(REQUEST), ['2026-01-01T00:00:00.000000Z', 'id-0']);
    expect(() => paginator.verify({ ...REQUEST, cursor })).toThrow(ValidationFailedError);
    try {
      paginator.verify({ ...REQUEST, cursor });
    } catch (error) {
      expect((error as ValidationFailedError).fields).toEqual([expect.objectContaining({ rule: 'cursor_invalid' })]);
    }
    expect(() => paginator.verify(REQUEST)).not.toThrow();
  });
});
