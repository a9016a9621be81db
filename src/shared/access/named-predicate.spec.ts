import { namedPredicate } from './named-predicate';

describe('namedPredicate', () => {
  it('renames positional parameters to prefixed named ones, keeping casts', () => {
    expect(namedPredicate({ sql: '(u.id = ANY($1::uuid[]) OR u.ancestor_ids && $2::uuid[])', params: [['a'], ['b']] }, 'v')).toEqual({
      sql: '(u.id = ANY(:v1::uuid[]) OR u.ancestor_ids && :v2::uuid[])',
      params: { v1: ['a'], v2: ['b'] },
    });
  });

  it('reads parameters numbered after an offset', () => {
    expect(namedPredicate({ sql: 'x = $3 AND y = $4', params: ['c', 'd'] }, 'p', 2)).toEqual({
      sql: 'x = :p3 AND y = :p4',
      params: { p3: 'c', p4: 'd' },
    });
  });

  it('passes constant predicates through', () => {
    expect(namedPredicate({ sql: 'TRUE', params: [] }, 'p')).toEqual({ sql: 'TRUE', params: {} });
  });

  it('refuses a parameter the predicate does not carry', () => {
    expect(() => namedPredicate({ sql: 'x = $2', params: ['a'] }, 'p')).toThrow(/outside/);
  });
});
