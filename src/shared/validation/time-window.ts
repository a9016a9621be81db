import { ValidateBy } from 'class-validator';

/*
 * Request rules of a `[from, to)` window in the query, shared by every time-windowed read.
 * `range` and `max_span` are reported on `to` and only once both bounds are well-formed (one violation per property).
 */

/**
 * RFC 3339 `date-time` exactly (any offset accepted): `2026-01-02T03:04:05Z`, fraction optional, `T`/`Z`
 * in either case, offset `±hh:mm`. ISO 8601-only forms (week dates, ordinal dates, basic format, no offset) are
 * not date-times here.
 */
const DATE_TIME = /^(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d{1,9})?([Zz]|([+-])(\d\d):(\d\d))$/;

const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month, 0)).getUTCDate();

/** The instants a date-time may name: those written in UTC with a four-digit year (0001 to 9999), as every answer writes them. */
const FIRST_INSTANT = Date.parse('0001-01-01T00:00:00Z');
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z');

/**
 * The instant of a well-formed date-time on a real calendar day, else null. Any offset RFC 3339 allows
 * (up to ±23:59) is taken; an instant an offset moves before year 0001 or after year 9999 is not a date-time
 * here, as no answer could write it back.
 */
export function instantOf(value: unknown): number | null {
  if (typeof value !== 'string') return null;
  const match = DATE_TIME.exec(value);
  if (!match) return null;
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number);
  const [offsetHours, offsetMinutes] = [Number(match[10] ?? 0), Number(match[11] ?? 0)];
  if (year < 1 || month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  if (hour > 23 || minute > 59 || second > 59 || offsetHours > 23 || offsetMinutes > 59) return null;
  const ms = Date.parse(value.toUpperCase());
  return Number.isNaN(ms) || !isWritableInstant(ms) ? null : ms;
}

/** Whether an instant (ms) can be written as an RFC 3339 date-time in UTC: years 0001 to 9999. */
export function isWritableInstant(ms: number): boolean {
  return ms >= FIRST_INSTANT && ms <= LAST_INSTANT;
}

/**
 * A valid date-time in UTC (`Z`) with its fraction digits kept, else null: the form to hand to PostgreSQL,
 * which refuses offsets beyond ±15:59 that RFC 3339 allows.
 */
export function utcDateTimeOf(value: unknown): string | null {
  if (instantOf(value) === null) return null;
  const text = (value as string).toUpperCase();
  const fraction = DATE_TIME.exec(text)![7] ?? '';
  const whole = Date.parse(fraction ? text.replace(fraction, '') : text);
  return `${new Date(whole).toISOString().slice(0, 19)}${fraction}Z`;
}

/** The object's `from` and `to` as instants, when both are well-formed. */
export function windowOf(object: object | undefined): [number, number] | null {
  const { from, to } = (object ?? {}) as { from?: unknown; to?: unknown };
  const [start, end] = [instantOf(from), instantOf(to)];
  return start === null || end === null ? null : [start, end];
}

export const DateTimeFormat = (): PropertyDecorator =>
  ValidateBy({
    name: 'format',
    validator: {
      validate: (value: unknown) => instantOf(value) !== null,
      defaultMessage: () => 'Must be an RFC 3339 date-time with an offset, e.g. 2026-01-02T03:04:05.678Z.',
    },
  });

/** On `to`: `range` unless it is after `from`. */
export const AfterFrom = (): PropertyDecorator =>
  ValidateBy({
    name: 'range',
    validator: {
      validate: (_value: unknown, args) => {
        const window = windowOf(args?.object);
        return !window || window[0] < window[1];
      },
      defaultMessage: () => '`to` must be after `from`.',
    },
  });

/** On `to`: `max_span` when the window is longer than `limitOf(object)` allows. */
export const MaxSpan = (limitOf: (object: object) => { ms: number; message: string }): PropertyDecorator =>
  ValidateBy({
    name: 'max_span',
    validator: {
      validate: (_value: unknown, args) => {
        const window = windowOf(args?.object);
        return !window || !args || window[1] - window[0] <= limitOf(args.object).ms;
      },
      defaultMessage: (args) => (args ? limitOf(args.object).message : 'The window is too long.'),
    },
  });
