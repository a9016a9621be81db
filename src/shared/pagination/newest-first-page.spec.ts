import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toFieldViolations } from '../validation/validation-rules';
import { NewestFirstPageParams, TimeWindowPageParams } from './newest-first-page';

async function check<T extends object>(type: new () => T, query: Record<string, unknown>) {
  const params = plainToInstance(type, query);
  const errors = await validate(params, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  return { params, violations: toFieldViolations(errors, 'query').map(({ path, rule }) => ({ path, rule })) };
}

describe('NewestFirstPageParams', () => {
  it('defaults limit to 25 and accepts 1..100', async () => {
    expect((await check(NewestFirstPageParams, {})).params.limit).toBe(25);
    for (const limit of ['1', '37', '100']) {
      const { params, violations } = await check(NewestFirstPageParams, { limit });
      expect(violations).toEqual([]);
      expect(params.limit).toBe(Number(limit));
    }
  });

  it.each([
    ['0', 'minimum'],
    ['101', 'maximum'],
    ['x', 'type'],
    ['1.5', 'type'],
  ])('rejects limit=%s with %s', async (limit, rule) => {
    expect((await check(NewestFirstPageParams, { limit })).violations).toEqual([{ path: 'query.limit', rule }]);
  });
});

describe('TimeWindowPageParams', () => {
  const from = '2026-01-01T00:00:00Z';

  it('takes neither bound as the default window', async () => {
    const { params, violations } = await check(TimeWindowPageParams, {});
    expect(violations).toEqual([]);
    expect(params.window()).toEqual({ from: null, to: null });
  });

  it('normalizes both bounds to UTC milliseconds', async () => {
    const { params, violations } = await check(TimeWindowPageParams, { from: '2026-01-01T02:00:00.5+02:00', to: '2026-01-02T00:00:00.123456Z' });
    expect(violations).toEqual([]);
    expect(params.window()).toEqual({ from: '2026-01-01T00:00:00.500Z', to: '2026-01-02T00:00:00.123Z' });
  });

  it('accepts a span of exactly 31 days', async () => {
    expect((await check(TimeWindowPageParams, { from, to: '2026-02-01T00:00:00Z' })).violations).toEqual([]);
  });

  it.each<[string, Record<string, string>, { path: string; rule: string }]>([
    ['from alone', { from }, { path: 'query.to', rule: 'required' }],
    ['to alone', { to: from }, { path: 'query.from', rule: 'required' }],
    ['from = to', { from, to: '2026-01-01T01:00:00+01:00' }, { path: 'query.to', rule: 'range' }],
    ['from > to', { from, to: '2025-12-31T00:00:00Z' }, { path: 'query.to', rule: 'range' }],
    ['31 days and 1 ms', { from, to: '2026-02-01T00:00:00.001Z' }, { path: 'query.to', rule: 'max_span' }],
    ['a date without time', { from: '2026-01-01', to: '2026-01-02T00:00:00Z' }, { path: 'query.from', rule: 'format' }],
    ['no offset', { from, to: '2026-01-02T00:00:00' }, { path: 'query.to', rule: 'format' }],
    ['an impossible month', { from, to: '2026-13-02T00:00:00Z' }, { path: 'query.to', rule: 'format' }],
  ])('reports %s', async (_case, query, violation) => {
    expect((await check(TimeWindowPageParams, query)).violations).toEqual([violation]);
  });

  it('reports a repeated bound as a type problem', async () => {
    expect((await check(TimeWindowPageParams, { from: [from, from], to: from })).violations).toEqual([{ path: 'query.from', rule: 'type' }]);
  });
});
