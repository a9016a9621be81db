import type { SchemaRef } from '../../device-types/domain/device-field-definition.entity';

/** Design §5.9 bucket widths, in seconds: fixed durations, so `1d` is 24 h whatever the session time zone. */
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
     WHERE j.device_id = $1 AND j.field_no = ${alias}.field_no AND j.observed_at = ${time}) END`;

/**
 * Raw points, (observedAt, fieldKey) ascending. One index-only range scan per (field, visible interval), each
 * stopped after `take` rows from the cursor on, then a sort of at most fields × intervals × take index entries;
 * only the page's non-number rows are read from the heap. The cost follows the page size, not the table, the
 * window or the device's history.
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
  let after = '';
  if (query.after) {
    params.push(query.after.time, query.after.key);
    after = `AND m.observed_at >= $7::timestamptz AND (m.observed_at > $7::timestamptz OR ${KEY} > $8::text COLLATE "C")`;
  }
  const sql = `
    SELECT p.key, p.observed_at, to_char(p.observed_at AT TIME ZONE 'UTC', ${US_TEXT}) AS position, p.value_num,
           ${JSON_OF_ROW('p', 'p.observed_at')} AS value_json
      FROM (
        SELECT f.key, f.field_no, m.observed_at, m.value_num
          FROM unnest($2::int[], $3::text[]) AS f(field_no, key)
         CROSS JOIN unnest($4::timestamptz[], $5::timestamptz[]) AS v(lo, hi)
         CROSS JOIN LATERAL (
           SELECT m.observed_at, m.value_num
             FROM measurements m
            WHERE m.device_id = $1 AND m.field_no = f.field_no AND m.observed_at >= v.lo AND m.observed_at < v.hi ${after}
            ORDER BY m.observed_at
            LIMIT $6
         ) m
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

/**
 * Buckets of `bucket` width aligned to the UTC epoch, (bucketStart, fieldKey) ascending, aggregated in SQL over
 * the visible points only. Per field one index range scan of the device's points from the cursor's bucket on;
 * a bucket holds the points of [bucketStart, bucketStart + width) ∩ [from, to).
 */
export function bucketedPageSql(query: MeasurementQuery, bucket: Bucket, aggregation: Aggregation): SqlStatement {
  const first = query.intervals[0];
  const last = query.intervals.at(-1);
  if (!first || !last) throw new Error('bucketedPageSql: no visible interval');
  const params: unknown[] = [
    query.deviceId,
    query.fields.map((field) => field.fieldNo),
    query.fields.map((field) => field.key),
    `${BUCKET_SECONDS[bucket]} seconds`,
    first.from.toISOString(),
    last.to.toISOString(),
    query.take,
  ];
  let lower = '$5::timestamptz';
  if (query.after) {
    params.push(query.after.time, query.after.key);
    // Buckets are aligned, so "after (bucket b, key k)" is: from b for keys after k, from the next bucket otherwise.
    lower = `GREATEST($5::timestamptz, CASE WHEN ${KEY} > $9::text COLLATE "C" THEN $8::timestamptz ELSE $8::timestamptz + $4::interval END)`;
  }
  let visible = '';
  if (query.intervals.length > 1) {
    const ranges = query.intervals.map((interval) => {
      params.push(interval.from.toISOString(), interval.to.toISOString());
      return `(m.observed_at >= $${params.length - 1}::timestamptz AND m.observed_at < $${params.length}::timestamptz)`;
    });
    visible = `AND (${ranges.join(' OR ')})`;
  }
  const valueJson = aggregation === 'last' ? JSON_OF_ROW('b', 'b.last_at') : 'NULL::jsonb';
  const sql = `
    SELECT f.key, b.bucket_start, to_char(b.bucket_start AT TIME ZONE 'UTC', ${US_TEXT}) AS position,
           b.value_num, ${valueJson} AS value_json, b.count
      FROM unnest($2::int[], $3::text[]) AS f(field_no, key)
     CROSS JOIN LATERAL (
       SELECT date_bin($4::interval, m.observed_at, TIMESTAMPTZ '1970-01-01 00:00:00+00') AS bucket_start,
              ${AGGREGATE_SQL[aggregation]} AS value_num, max(m.observed_at) AS last_at, f.field_no, count(*)::int AS count
         FROM measurements m
        WHERE m.device_id = $1 AND m.field_no = f.field_no
          AND m.observed_at >= ${lower} AND m.observed_at < $6::timestamptz ${visible}
        GROUP BY 1
        ORDER BY 1
        LIMIT $7
     ) b
     ORDER BY b.bucket_start, ${KEY}
     LIMIT $7`;
  return { sql, params };
}
