import type { SchemaRef } from '../../device-types';

/** Bucket widths, in seconds: fixed durations, so `1d` is 24 h whatever the session time zone. */
export const BUCKET_SECONDS = { '1m': 60, '5m': 300, '15m': 900, '1h': 3600, '6h': 21600, '1d': 86400 } as const;
export type Bucket = keyof typeof BUCKET_SECONDS;
export const BUCKETS = Object.keys(BUCKET_SECONDS) as Bucket[];

export const AGGREGATIONS = ['avg', 'min', 'max', 'sum', 'count', 'last'] as const;
export type Aggregation = (typeof AGGREGATIONS)[number];
export const DEFAULT_AGGREGATION: Aggregation = 'avg';

/** Aggregations any field allows; the others need numbers (else `aggregation_not_applicable`). */
const ANY_KIND: ReadonlySet<Aggregation> = new Set(['count', 'last']);

export function aggregationApplies(aggregation: Aggregation, schemaRef: SchemaRef): boolean {
  return ANY_KIND.has(aggregation) || schemaRef === 'platform://schemas/number/v1';
}

/** A field to read, by its storage number and the key the response names it by. */
export interface FieldRef {
  fieldNo: number;
  key: string;
}

/** Where the previous page ended: its last row's time (PostgreSQL text, microseconds) and field key. */
export interface ChronologicalPosition {
  time: string;
  key: string;
}

export interface MeasurementQuery {
  deviceId: string;
  fields: readonly FieldRef[];
  /** The visible parts of [from, to), sorted, non-overlapping, non-empty. */
  intervals: readonly { from: Date; to: Date }[];
  /** Rows wanted: the page size plus one to know whether another page follows. */
  take: number;
  after: ChronologicalPosition | null;
}

export interface SqlStatement {
  sql: string;
  params: unknown[];
}

const US_TEXT = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;
/** Field keys are ASCII (FIELD_KEY_PATTERN); "C" makes SQL order them exactly as the cursor compares them. */
const KEY = `f.key COLLATE "C"`;

/**
 * Non-number values live only in the heap (value_num is INCLUDEd in the primary key, value_json is not). A page
 * is first chosen from the index alone, then only its non-number rows visit the heap: one primary-key lookup each.
 */
const JSON_OF_ROW = (alias: string, time: string) =>
  `CASE WHEN ${alias}.value_num IS NULL THEN (SELECT j.value_json FROM measurements j
     WHERE j.device_id = $1 AND j.observed_at = ${time} AND j.field_no = ${alias}.field_no) END`;

/**
 * Raw points, (observedAt, fieldKey) ascending. Per visible interval one index-only range scan in the primary key's
 * (observed_at, field_no) order, stopped after `take` rows plus two per field: a timestamp holds at most one row per
 * field, so that covers the page's last timestamp and the rows of the cursor's timestamp that the key comparison
 * drops. Then a sort of those few rows by (time, key); only the page's non-number rows are read from the heap. The
 * cost follows the page size, not the table, the window or the device's history.
 */
export function rawPageSql(query: MeasurementQuery): SqlStatement {
  const params: unknown[] = [
    query.deviceId,
    query.fields.map((field) => field.fieldNo),
    query.fields.map((field) => field.key),
    query.intervals.map((interval) => interval.from.toISOString()),
    query.intervals.map((interval) => interval.to.toISOString()),
    query.take,
  ];
  let afterTime = '';
  let afterKey = '';
  if (query.after) {
    params.push(query.after.time, query.after.key);
    afterTime = 'AND m.observed_at >= $7::timestamptz';
    afterKey = `AND (m.observed_at > $7::timestamptz OR ${KEY} > $8::text COLLATE "C")`;
  }
  const sql = `
    SELECT p.key, p.field_no, p.observed_at, to_char(p.observed_at AT TIME ZONE 'UTC', ${US_TEXT}) AS position, p.value_num,
           ${JSON_OF_ROW('p', 'p.observed_at')} AS value_json
      FROM (
        SELECT f.key, m.field_no, m.observed_at, m.value_num
          FROM unnest($4::timestamptz[], $5::timestamptz[]) AS v(lo, hi)
         CROSS JOIN LATERAL (
           SELECT m.field_no, m.observed_at, m.value_num
             FROM measurements m
            WHERE m.device_id = $1 AND m.observed_at >= v.lo AND m.observed_at < v.hi AND m.field_no = ANY ($2::int[]) ${afterTime}
            ORDER BY m.observed_at, m.field_no
            LIMIT $6 + 2 * cardinality($2::int[])
         ) m
          JOIN unnest($2::int[], $3::text[]) AS f(field_no, key) ON f.field_no = m.field_no
         WHERE TRUE ${afterKey}
         ORDER BY m.observed_at, ${KEY}
         LIMIT $6
      ) p
     ORDER BY p.observed_at, p.key COLLATE "C"`;
  return { sql, params };
}

/**
 * Each aggregate over the index's columns only (an index-only scan): numbers in `value_num`. `last` also yields
 * the time of the bucket's last point, whose heap row is read only for a non-number field.
 */
const AGGREGATE_SQL: Record<Aggregation, string> = {
  avg: 'avg(m.value_num)',
  min: 'min(m.value_num)',
  max: 'max(m.value_num)',
  sum: 'sum(m.value_num)',
  count: 'count(*)::float8',
  last: '(array_agg(m.value_num ORDER BY m.observed_at DESC))[1]',
};

/** A time window [from, to) of a bucketed read: whole buckets, except where it meets the query's own bounds. */
export interface BucketWindow {
  from: Date;
  to: Date;
}

/**
 * The window a bucketed page starts with: from `start` (the query's `from`, or the cursor's bucket) over at most
 * `take` buckets, which hold at least `take` (bucket, field) groups when the points are dense. Reading a page thus
 * scans at most `take` buckets of the device's points, however long the query's span.
 */
export function firstBucketWindow(start: Date, end: Date, bucket: Bucket, take: number): BucketWindow {
  const width = BUCKET_SECONDS[bucket] * 1000;
  const aligned = Math.floor(start.getTime() / width) * width;
  return { from: start, to: new Date(Math.min(end.getTime(), aligned + take * width)) };
}

/** Appends the visible intervals as an OR of ranges when there are several (one is already the query's bounds). */
function visibleRanges(query: MeasurementQuery, params: unknown[]): string {
  if (query.intervals.length <= 1) return '';
  const ranges = query.intervals.map((interval) => {
    params.push(interval.from.toISOString(), interval.to.toISOString());
    return `(m.observed_at >= $${params.length - 1}::timestamptz AND m.observed_at < $${params.length}::timestamptz)`;
  });
  return `AND (${ranges.join(' OR ')})`;
}

/**
 * Buckets of `bucket` width aligned to the UTC epoch, (bucketStart, fieldKey) ascending, aggregated in SQL over
 * the visible points of `window` only (a bucket holds the points of [bucketStart, bucketStart + width) ∩ [from,
 * to)). One index-only range scan of the window, hashed by (bucket, field); the cursor drops what earlier pages
 * showed. The handler moves the window forward over gaps in the data (`nextPointSql`) until the page is full.
 */
export function bucketedPageSql(query: MeasurementQuery, bucket: Bucket, aggregation: Aggregation, window: BucketWindow): SqlStatement {
  const params: unknown[] = [
    query.deviceId,
    query.fields.map((field) => field.fieldNo),
    query.fields.map((field) => field.key),
    `${BUCKET_SECONDS[bucket]} seconds`,
    window.from.toISOString(),
    window.to.toISOString(),
    query.take,
  ];
  let after = '';
  if (query.after) {
    params.push(query.after.time, query.after.key);
    after = `AND (b.bucket_start > $8::timestamptz OR (b.bucket_start = $8::timestamptz AND ${KEY} > $9::text COLLATE "C"))`;
  }
  const visible = visibleRanges(query, params);
  const valueJson = aggregation === 'last' ? JSON_OF_ROW('b', 'b.last_at') : 'NULL::jsonb';
  const sql = `
    SELECT f.key, b.bucket_start, to_char(b.bucket_start AT TIME ZONE 'UTC', ${US_TEXT}) AS position,
           b.value_num, ${valueJson} AS value_json, b.count
      FROM (
        SELECT m.field_no, date_bin($4::interval, m.observed_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS bucket_start,
               ${AGGREGATE_SQL[aggregation]} AS value_num, max(m.observed_at) AS last_at, count(*)::int AS count
          FROM measurements m
         WHERE m.device_id = $1 AND m.observed_at >= $5::timestamptz AND m.observed_at < $6::timestamptz
           AND m.field_no = ANY ($2::int[]) ${visible}
         GROUP BY 1, 2
      ) b
      JOIN unnest($2::int[], $3::text[]) AS f(field_no, key) ON f.field_no = b.field_no
     WHERE TRUE ${after}
     ORDER BY b.bucket_start, ${KEY}
     LIMIT $7`;
  return { sql, params };
}

/** The time of the device's first visible point of the query's fields in [from, to): where the next window starts. */
export function nextPointSql(query: MeasurementQuery, from: Date, to: Date): SqlStatement {
  const params: unknown[] = [query.deviceId, query.fields.map((field) => field.fieldNo), from.toISOString(), to.toISOString()];
  const visible = visibleRanges(query, params);
  const sql = `
    SELECT m.observed_at AS next_at
      FROM measurements m
     WHERE m.device_id = $1 AND m.observed_at >= $3::timestamptz AND m.observed_at < $4::timestamptz
       AND m.field_no = ANY ($2::int[]) ${visible}
     ORDER BY m.observed_at
     LIMIT 1`;
  return { sql, params };
}
