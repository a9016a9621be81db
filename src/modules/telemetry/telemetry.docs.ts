import { defineDocs, EXISTENCE_404, lines } from '../../shared/http/route-docs';

/** Summary, description and declared errors of each operation of this controller; the access rule is generated. */
export const TELEMETRY_DOCS = defineDocs({
  currentValues_get: {
    summary: 'Get a device’s current values',
    description: lines(
      'One entry per active field of the device type, in field `createdAt` order: its `definition`, `currentValue` and that value’s `observedAt` (both null until the first value is stored), so the age of a value is visible without a measurements query. Deprecated fields are omitted.',
      EXISTENCE_404,
    ),
  },
  measurements_list: {
    summary: 'Query a device’s measurements',
    description: lines(
      '`from` and `to` are required (RFC 3339, half-open `[from, to)`): span ≤ 31 days raw, ≤ 366 days with `bucket`, else 400 `query.to` `max_span`; `from >= to` is `query.to` `range`. `fieldKeys`: comma-separated, 1..50 timeseries fields (default all, deprecated included); a field without the timeseries target is 400 `not_timeseries_field`. `bucket` (`1m`, `5m`, `15m`, `1h`, `6h`, `1d`) returns buckets with `aggregation` (`avg` default, `min`, `max`, `sum`, `count`, `last`; non-numeric fields allow `count` and `last` only, else `aggregation_not_applicable`); `aggregation` without `bucket` is 400 `query.bucket` `required`.',
      '**Paging** (chronological family): ordered by (`observedAt` or `bucketStart`, `fieldKey`); `limit` 1..1000 (default 100); `items` and `nextCursor` (omitted on the last page), no total. Continuations repeat the same query.',
      EXISTENCE_404,
    ),
  },
});
