import type { SelectQueryBuilder } from 'typeorm';
import { AppConfig } from '../../config/app-config';
import { ValidationFailedError } from '../errors/domain-error';
import { CursorCodec } from './cursor-codec';
import { KeysetPaginator, PageRequest } from './keyset-paginator';

interface Row {
  id: string;
}

/** Records what the paginator asks of the query builder and answers with `rows` (already in key order). */
function fakeQuery(rows: Row[], total = rows.length) {
  const calls: { andWhere: [string, Record<string, unknown>][]; limit: number[]; orderBy: string[] } = {
    andWhere: [],
    limit: [],
    orderBy: [],
  };
  const builder = {
    clone: () => builder,
    getCount: async () => total,
    addSelect: () => builder,
    orderBy: (expression: string) => {
      calls.orderBy.push(expression);
      return builder;
    },
    addOrderBy: (expression: string) => {
      calls.orderBy.push(expression);
      return builder;
    },
    limit: (limit: number) => {
      calls.limit.push(limit);
      return builder;
    },
    andWhere: (sql: string, params: Record<string, unknown>) => {
      calls.andWhere.push([sql, params]);
      return builder;
    },
    getRawAndEntities: async () => {
      const limit = calls.limit.at(-1) ?? rows.length;
      const page = rows.slice(0, limit);
      return {
        entities: page,
        raw: page.map((row, index) => ({ keyset_created_at: `2026-01-01T00:00:00.00000${index}Z`, keyset_id: row.id })),
      };
    },
  };
  return { query: builder as unknown as SelectQueryBuilder<Row>, calls };
}

const rowsOf = (count: number): Row[] => Array.from({ length: count }, (_, index) => ({ id: `id-${index}` }));
const KEYS = { createdAt: 'u.created_at', id: 'u.user_id' };
const REQUEST: PageRequest = { actorId: 'actor', scope: 'users', filters: { status: null }, limit: 25 };

describe('KeysetPaginator.ascending', () => {
  const codec = new CursorCodec(AppConfig.fromEnv({}, { cursorSecret: 'k'.repeat(32) }));
  const paginator = new KeysetPaginator(codec);

  it('orders by (createdAt, id) and reads one row more than the page', async () => {
    const { query, calls } = fakeQuery(rowsOf(3));
    await paginator.ascending(query, KEYS, REQUEST);
    expect(calls.orderBy).toEqual(['u.created_at', 'u.user_id']);
    expect(calls.limit).toEqual([26]);
    expect(calls.andWhere).toEqual([]);
  });

  it('answers the last page without nextCursor', async () => {
    const { query } = fakeQuery(rowsOf(25), 25);
    await expect(paginator.ascending(query, KEYS, REQUEST)).resolves.toEqual({ items: rowsOf(25), totalCount: 25 });
  });

  it('answers a full page with a cursor at its last row, which continues after that row', async () => {
    const first = fakeQuery(rowsOf(30), 30);
    const page = await paginator.ascending(first.query, KEYS, REQUEST);
    expect(page.items).toHaveLength(25);
    expect(page.totalCount).toBe(30);
    expect(page.nextCursor).toEqual(expect.any(String));
    expect(codec.decode(page.nextCursor!, REQUEST)).toEqual(['2026-01-01T00:00:00.0000024Z', 'id-24']);

    const next = fakeQuery(rowsOf(5), 30);
    await paginator.ascending(next.query, KEYS, { ...REQUEST, cursor: page.nextCursor });
    expect(next.calls.andWhere).toEqual([
      [
        '(u.created_at, u.user_id) > (CAST(:keysetAfterCreatedAt AS timestamptz), :keysetAfterId)',
        { keysetAfterCreatedAt: '2026-01-01T00:00:00.0000024Z', keysetAfterId: 'id-24' },
      ],
    ]);
  });

  it('rejects a cursor of another binding before reading anything', async () => {
    const cursor = codec.encode(REQUEST, ['2026-01-01T00:00:00.000000Z', 'id-0']);
    const { query, calls } = fakeQuery(rowsOf(1));
    await expect(paginator.ascending(query, KEYS, { ...REQUEST, limit: 50, cursor })).rejects.toMatchObject({
      fields: [{ path: 'query.cursor', rule: 'cursor_mismatch' }],
    });
    expect(calls.limit).toEqual([]);
  });

  it('rejects a genuine cursor whose position has another shape as cursor_invalid', () => {
    const cursor = codec.encode(REQUEST, [7, 'id-0', 'extra']);
    expect(() => paginator.verify({ ...REQUEST, cursor })).toThrow(ValidationFailedError);
    try {
      paginator.verify({ ...REQUEST, cursor });
    } catch (error) {
      expect((error as ValidationFailedError).fields).toEqual([expect.objectContaining({ rule: 'cursor_invalid' })]);
    }
  });

  it('accepts a request without a cursor in verify', () => {
    expect(() => paginator.verify(REQUEST)).not.toThrow();
  });
});
