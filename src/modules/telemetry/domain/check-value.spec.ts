import { checkValue } from './check-value';

describe('checkValue', () => {
  it('accepts values of the schema and reports type_mismatch otherwise', () => {
    const number = 'platform://schemas/number/v1';
    const string = 'platform://schemas/string/v1';
    const json = 'platform://schemas/json/v1';
    expect(checkValue(number, 1.5)).toEqual({ ok: true });
    expect(checkValue(number, Number.NaN)).toMatchObject({ ok: false, code: 'type_mismatch' });
    expect(checkValue(number, Infinity)).toMatchObject({ ok: false, code: 'type_mismatch' });
    expect(checkValue(number, '1')).toMatchObject({ ok: false, code: 'type_mismatch' });
    expect(checkValue(string, 'x'.repeat(4096))).toEqual({ ok: true });
    expect(checkValue(string, 'x'.repeat(4097))).toMatchObject({ ok: false });
    expect(checkValue('platform://schemas/boolean/v1', false)).toEqual({ ok: true });
    expect(checkValue('platform://schemas/boolean/v1', 0)).toMatchObject({ ok: false });
    expect(checkValue(json, { a: [1, 'b'] })).toEqual({ ok: true });
    expect(checkValue(json, 'x'.repeat(16 * 1024 - 2))).toEqual({ ok: true });
    expect(checkValue(json, 'x'.repeat(16 * 1024 - 1))).toMatchObject({ ok: false });
    expect(checkValue(json, null)).toMatchObject({ ok: false });
  });
});
