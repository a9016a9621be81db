import 'reflect-metadata';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { toFieldViolations } from '../validation/validation-rules';
import { AscendingPageParams } from './page';

async function check(query: Record<string, unknown>) {
  const params = plainToInstance(AscendingPageParams, query);
  const errors = await validate(params, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  return { params, violations: toFieldViolations(errors, 'query') };
}

describe('AscendingPageParams', () => {
  it('defaults limit to 25', async () => {
    const { params, violations } = await check({});
    expect(violations).toEqual([]);
    expect(params.limit).toBe(25);
    expect(params.cursor).toBeUndefined();
  });

  it.each(['25', '50', '100'])('accepts limit=%s as a number', async (limit) => {
    const { params, violations } = await check({ limit });
    expect(violations).toEqual([]);
    expect(params.limit).toBe(Number(limit));
  });

  it.each([
    ['10', 'enum'],
    ['1000', 'enum'],
    ['abc', 'type'],
    ['25.5', 'type'],
  ])('rejects limit=%s with rule %s', async (limit, rule) => {
    const { violations } = await check({ limit });
    expect(violations).toEqual([expect.objectContaining({ path: 'query.limit', rule })]);
  });

  it('rejects a cursor over 512 characters with max_length', async () => {
    const { violations } = await check({ cursor: 'A'.repeat(513) });
    expect(violations).toEqual([expect.objectContaining({ path: 'query.cursor', rule: 'max_length' })]);
  });

  it('rejects a repeated cursor parameter as a type problem', async () => {
    const { violations } = await check({ cursor: ['a', 'b'] });
    expect(violations).toEqual([expect.objectContaining({ path: 'query.cursor', rule: 'type' })]);
  });
});
