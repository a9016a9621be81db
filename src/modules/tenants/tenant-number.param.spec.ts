import { ValidationFailedError } from '../../shared/errors/domain-error';
import { parseTenantNumber } from './tenant-number.param';

function ruleOf(value: unknown): string | undefined {
  try {
    parseTenantNumber(value);
  } catch (error) {
    if (!(error instanceof ValidationFailedError)) throw error;
    expect(error.fields).toHaveLength(1);
    expect(error.fields[0]?.path).toBe('params.tenantNumber');
    return error.fields[0]?.rule;
  }
  return undefined;
}

describe('parseTenantNumber', () => {
  it.each([
    ['1', 1],
    ['42', 42],
    ['2147483647', 2147483647],
  ])('reads %s as %d', (text, number) => {
    expect(parseTenantNumber(text)).toBe(number);
  });

  it.each([
    ['0', 'minimum'],
    ['-1', 'minimum'],
    ['2147483648', 'maximum'],
    ['123456789012345678901234567890', 'maximum'],
    ['', 'type'],
    ['1.0', 'type'],
    ['1e3', 'type'],
    ['0x10', 'type'],
    [' 1', 'type'],
    ['one', 'type'],
  ])('rejects %j with %s', (text, rule) => {
    expect(ruleOf(text)).toBe(rule);
  });

  it('rejects a value that is not text', () => {
    expect(ruleOf(undefined)).toBe('type');
    expect(ruleOf(5)).toBe('type');
  });
});
