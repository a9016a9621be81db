import { JsonRows } from './json-rows';

describe('JsonRows', () => {
  const rows = new JsonRows([
    ['id', 'uuid'],
    ['count', 'int'],
    ['details', 'jsonb'],
  ] as const);

  it('reads every column by its position, cast to its type; a JSON null in a jsonb column is SQL NULL', () => {
    expect(rows.names).toBe('id, count, details');
    expect(rows.select).toBe("(e->>0)::uuid AS id, (e->>1)::int AS count, nullif(e->2, 'null'::jsonb) AS details");
    expect(rows.from('$3')).toBe('jsonb_array_elements($3::jsonb) AS e');
  });

  it('sends each row as an array of its values in column order, undefined as null', () => {
    const encoded = rows.encode([
      { details: { a: [1, 'x'] }, count: 2, id: 'u-1' },
      { id: 'u-2', count: undefined, details: null },
    ]);
    expect(JSON.parse(encoded)).toEqual([
      ['u-1', 2, { a: [1, 'x'] }],
      ['u-2', null, null],
    ]);
  });
});
