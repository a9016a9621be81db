/** What may stand unquoted in an array literal: uuids, ISO 8601 instants, decimal and exponent numbers. */
const PLAIN_ELEMENT = /^[0-9A-Za-z:.+-]+$/;

/**
 * The PostgreSQL array literal (`{a,b,NULL}`) of elements that need no quoting, for a parameter cast to an array
 * type (`$1::uuid[]`, `$2::timestamptz[]`, `$3::float8[]`). The pg driver quotes and escapes every element of an
 * array parameter one by one (about 5% of the processing pipeline's CPU on its column arrays of thousands of uuids,
 * instants and numbers); these need neither. Anything else (an empty string, a string PostgreSQL would read as NULL
 * or that holds a separator, quote or space, a non-finite number) is refused, so an element can never change the
 * literal's shape: pass such values as a normal array parameter instead.
 */
export function plainArrayLiteral(values: readonly (string | number | null)[]): string {
  let text = '{';
  for (let index = 0; index < values.length; index += 1) {
    const value = values[index];
    if (index > 0) text += ',';
    if (value === null) text += 'NULL';
    else if (typeof value === 'number') {
      if (!Number.isFinite(value)) throw new TypeError(`plainArrayLiteral: ${value} is not a finite number`);
      text += String(value);
    } else if (!PLAIN_ELEMENT.test(value) || (value.length === 4 && value.toUpperCase() === 'NULL')) {
      throw new TypeError(`plainArrayLiteral: ${JSON.stringify(value)} needs quoting`);
    } else text += value;
  }
  return `${text}}`;
}
