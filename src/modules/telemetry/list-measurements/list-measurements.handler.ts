import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { CursorBinding, CursorCodec, cursorInvalid } from '../../../shared/pagination/cursor-codec';
import { clip, DeviceReader } from '../../devices';
import {
  Aggregation,
  aggregationApplies,
  Bucket,
  bucketedPageSql,
  ChronologicalPosition,
  DEFAULT_AGGREGATION,
  firstBucketWindow,
  MeasurementQuery,
  nextPointSql,
  rawPageSql,
  SqlStatement,
} from '../domain/measurement-query';
import { TelemetryField, TelemetryFieldReader } from '../persistence/telemetry-field.reader';
import { ListMeasurementsQuery } from './list-measurements.query';
import type { MeasurementItem, MeasurementPage } from '../dto/measurement-page.response.dto';

interface PageRow {
  key: string;
  observed_at?: Date;
  bucket_start?: Date;
  position: string;
  value_num: number | null;
  value_json: unknown;
  count?: number;
  next_at?: Date;
}

/**
 * Measurements, a "Chronological" list: raw points or SQL-aggregated buckets, keyset-paginated on
 * (time, fieldKey) with a signed cursor binding the caller, the device and every filter. Visibility:
 * only points observed during the visible parts of the device's history count, for raw and bucketed reads.
 * Check order: query validation and the cursor, then the device's 404, the permission, the field keys.
 */
@QueryHandler(ListMeasurementsQuery)
export class ListMeasurementsHandler implements IQueryHandler<ListMeasurementsQuery, MeasurementPage> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly devices: DeviceReader,
    private readonly fieldReader: TelemetryFieldReader,
    private readonly codec: CursorCodec,
  ) {}

  async execute({ caller, deviceId, params }: ListMeasurementsQuery): Promise<MeasurementPage> {
    const from = new Date(params.from);
    const to = new Date(params.to);
    const bucket = params.bucket ?? null;
    const aggregation: Aggregation | null = bucket ? (params.aggregation ?? DEFAULT_AGGREGATION) : null;
    const keys = params.keys();
    const binding: CursorBinding = {
      actorId: caller.principal.userId,
      scope: `devices/${deviceId}/measurements`,
      filters: { from: from.toISOString(), to: to.toISOString(), fieldKeys: keys?.join(',') ?? null, bucket, aggregation },
      limit: params.limit,
    };
    const after = this.positionOf(params.cursor, binding);

    const { access, device, current } = await this.devices.resolve(caller.principal, deviceId);
    access.require(caller.permission, this.devices.target(current));

    const fields = this.selectFields(await this.fieldReader.byKey(device.deviceTypeId), keys, aggregation);
    const intervals = clip(await this.devices.visibleHistory(access, caller.permission, deviceId), from, to);
    if (fields.length === 0 || intervals.length === 0) return { deviceId, items: [] };

    const query: MeasurementQuery = { deviceId, fields, intervals, take: params.limit + 1, after };
    const rows = bucket && aggregation ? await this.bucketedRows(query, bucket, aggregation) : await this.rows(rawPageSql(query));

    const page = rows.slice(0, params.limit);
    const items = page.map((row): MeasurementItem => {
      const value = row.value_num ?? row.value_json;
      return row.bucket_start
        ? { fieldKey: row.key, bucketStart: row.bucket_start.toISOString(), value: aggregation === 'count' ? row.count : value, count: row.count ?? 0 }
        : { fieldKey: row.key, observedAt: (row.observed_at as Date).toISOString(), value };
    });
    const last = page.at(-1);
    if (rows.length <= params.limit || !last) return { deviceId, items };
    return { deviceId, items, nextCursor: this.codec.encode(binding, [last.position, last.key]) };
  }

  private rows(statement: SqlStatement): Promise<PageRow[]> {
    return this.dataSource.query(statement.sql, statement.params);
  }

  /**
   * A bucketed page, window by window: each window spans at most `take` buckets (so one read is bounded whatever
   * the span), and when a window leaves the page short, the next one starts at the next point, skipping any gap.
   * Windows end on bucket boundaries, so no bucket is split between two of them.
   */
  private async bucketedRows(query: MeasurementQuery, bucket: Bucket, aggregation: Aggregation): Promise<PageRow[]> {
    const from = query.intervals[0]!.from;
    const to = query.intervals.at(-1)!.to;
    const rows: PageRow[] = [];
    let start = query.after && new Date(query.after.time) > from ? new Date(query.after.time) : from;
    while (rows.length < query.take && start < to) {
      const window = firstBucketWindow(start, to, bucket, query.take);
      rows.push(...(await this.rows(bucketedPageSql({ ...query, take: query.take - rows.length }, bucket, aggregation, window))));
      if (rows.length >= query.take || window.to >= to) break;
      const [next] = await this.rows(nextPointSql(query, window.to, to));
      if (!next?.next_at) break;
      start = next.next_at;
    }
    return rows;
  }

  /** The cursor's position, checked before any lookup (a bad cursor is a 400 whatever the device). */
  private positionOf(cursor: string | undefined, binding: CursorBinding): ChronologicalPosition | null {
    if (cursor === undefined) return null;
    const [time, key, ...rest] = this.codec.decode(cursor, binding);
    if (typeof time !== 'string' || typeof key !== 'string' || rest.length > 0) throw cursorInvalid();
    return { time, key };
  }

  /**
   * Named keys: each a field of the type (else `reference_not_found`) with timeseries storage (else
   * `not_timeseries_field`), deprecated ones included, and every one fit for the aggregation (else
   * `aggregation_not_applicable`). No keys: every timeseries field, narrowed to number fields for a numeric
   * aggregation (the default set never turns a valid query into an error).
   */
  private selectFields(byKey: Map<string, TelemetryField>, keys: string[] | null, aggregation: Aggregation | null): TelemetryField[] {
    if (keys === null) {
      return [...byKey.values()].filter(
        (field) => field.storageTargets.includes('timeseries') && (!aggregation || aggregationApplies(aggregation, field.schemaRef)),
      );
    }
    return keys.map((key) => {
      const field = byKey.get(key);
      if (!field) throw ValidationFailedError.single('query.fieldKeys', 'reference_not_found', `The device type has no field "${key}".`);
      if (!field.storageTargets.includes('timeseries')) {
        throw ValidationFailedError.single('query.fieldKeys', 'not_timeseries_field', `The field "${key}" is not stored as a timeseries.`);
      }
      if (aggregation && !aggregationApplies(aggregation, field.schemaRef)) {
        throw ValidationFailedError.single(
          'query.aggregation',
          'aggregation_not_applicable',
          `The field "${key}" is not a number: only count and last apply.`,
        );
      }
      return field;
    });
  }
}
