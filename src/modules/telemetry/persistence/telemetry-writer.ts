import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { plainArrayLiteral } from '../../../shared/database/array-literal';
import { FieldContract, fieldContractVersionSql, FieldContractReader } from '../../device-types';
import { jsonText, TelemetryValue } from '../domain/check-value';

/** One value of one field of one device, as a flow execution stores it. */
export interface TelemetryRow {
  deviceId: string;
  /** The field definition's `fieldNo` (see TelemetryFieldReader). */
  fieldNo: number;
  observedAt: Date;
  rawReceivedAt: Date;
  value: TelemetryValue;
}

/** What a batch changed: rows inserted or replaced; the rest were older or identical re-sends. */
export interface WriteResult {
  written: number;
}

/** A batch the writer refuses as a whole: nothing of it is stored. */
export class TelemetryWriteRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TelemetryWriteRefusedError';
  }
}

/** Storage targets as bits: a row's targets, a field's storage. */
const SERIES = 1;
const CURRENT = 2;

/**
 * One statement writes a batch's time series points and current values: the input is parsed, the devices looked
 * up and the values checked once for both tables. Input: the batch's uplinks ($1..$3: device, observedAt,
 * rawReceivedAt; one per message, so its instants are parsed once) and its values ($4..$8: uplink number from 1,
 * field number, number or JSON, targets). A value sent to both tables is one input row with both target bits.
 *
 * Checks, in the same statement as the write: every (device, field) pair must name a field of the device's type
 * with each target's storage, and each value must sit in the column its schema expects (numbers in value_num).
 * The telemetry tables have no foreign keys (migration comment); this is their integrity check. It looks up each
 * distinct device once and matches the rows against the fields ($9..$12: number, device type, schemaRef, storage
 * bits) taken from the cached field contracts, whose versions ($13, $14) it checks against the devices' types: a
 * contract that moved makes the statement write nothing and report `stale` (the writer reads the contract again
 * and retries). A failing batch writes nothing; the statement reports the first offending pair and its targets.
 * `bad` is planned on its own (MATERIALIZED, no LIMIT inside): with a LIMIT the planner expects an early match and
 * picks a nested loop over input x devices, while a valid batch has none (measured: 250 uplinks, 498,000 row pairs).
 *
 * Rows go in key order: neighbouring index entries are written together, and two concurrent batches sharing keys
 * lock them in the same order (no deadlock between them). Time series: upsert on (device, field, observedAt), a
 * later rawReceivedAt replacing the point (`replaces` is `>=` for a replay's rows). Current values: upsert on
 * (device, field), replaced unless the stored (observedAt, rawReceivedAt) is newer.
 */
const valuesSql = (replaces: '>' | '>=') => `
  WITH uplinks AS MATERIALIZED (
    SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS u(device_id, observed_at, raw_received_at, n)
  ),
  input AS MATERIALIZED (
    SELECT u.device_id, v.field_no, u.observed_at, u.raw_received_at, v.value_num, v.value_json, v.targets
      FROM unnest($4::int[], $5::int[], $6::float8[], $7::jsonb[], $8::int[]) AS v(uplink, field_no, value_num, value_json, targets)
      JOIN uplinks u ON u.n = v.uplink
  ),
  batch_devices AS MATERIALIZED (
    SELECT dv.device_id, dv.device_type_id, ${fieldContractVersionSql('dv.device_type_id')} AS contract_version
      FROM devices dv WHERE dv.device_id IN (SELECT device_id FROM uplinks)
  ),
  batch_fields AS MATERIALIZED (
    SELECT * FROM unnest($9::int[], $10::uuid[], $11::varchar[], $12::int[]) AS f(field_no, device_type_id, schema_ref, storage)
  ),
  stale AS (
    SELECT 1 FROM batch_devices d JOIN unnest($13::uuid[], $14::text[]) AS c(device_type_id, version) ON c.device_type_id = d.device_type_id
     WHERE d.contract_version IS DISTINCT FROM c.version
     LIMIT 1
  ),
  bad AS MATERIALIZED (
    SELECT i.device_id, i.field_no, CASE WHEN m.missing <> 0 THEN m.missing ELSE i.targets END AS targets
      FROM input i
      LEFT JOIN batch_devices d ON d.device_id = i.device_id
      LEFT JOIN batch_fields f ON f.field_no = i.field_no AND f.device_type_id = d.device_type_id
     CROSS JOIN LATERAL (SELECT i.targets & ~coalesce(f.storage, 0) AS missing) m
     WHERE m.missing <> 0
        OR NOT coalesce(CASE f.schema_ref
             WHEN 'platform://schemas/number/v1' THEN i.value_num IS NOT NULL
             WHEN 'platform://schemas/string/v1' THEN jsonb_typeof(i.value_json) = 'string'
             WHEN 'platform://schemas/boolean/v1' THEN jsonb_typeof(i.value_json) = 'boolean'
             WHEN 'platform://schemas/json/v1' THEN true
           END, false)
  ),
  series_written AS (
    INSERT INTO measurements AS m (device_id, field_no, observed_at, raw_received_at, value_num, value_json)
    SELECT device_id, field_no, observed_at, raw_received_at, value_num, value_json FROM input
     WHERE targets & ${SERIES} <> 0 AND NOT EXISTS (SELECT 1 FROM bad) AND NOT EXISTS (SELECT 1 FROM stale)
     ORDER BY device_id, observed_at, field_no
    ON CONFLICT (device_id, observed_at, field_no) DO UPDATE
       SET raw_received_at = excluded.raw_received_at, value_num = excluded.value_num, value_json = excluded.value_json
     WHERE excluded.raw_received_at ${replaces} m.raw_received_at
    RETURNING 1
  ),
  current_written AS (
    INSERT INTO device_current_values AS cv (device_id, field_no, value, observed_at, raw_received_at)
    SELECT device_id, field_no, coalesce(to_jsonb(value_num), value_json), observed_at, raw_received_at FROM input
     WHERE targets & ${CURRENT} <> 0 AND NOT EXISTS (SELECT 1 FROM bad) AND NOT EXISTS (SELECT 1 FROM stale)
     ORDER BY device_id, field_no
    ON CONFLICT (device_id, field_no) DO UPDATE
       SET value = excluded.value, observed_at = excluded.observed_at, raw_received_at = excluded.raw_received_at,
           updated_at = clock_timestamp()
     WHERE (excluded.observed_at, excluded.raw_received_at) >= (cv.observed_at, cv.raw_received_at)
    RETURNING 1
  )
  SELECT (SELECT count(*)::int FROM series_written) AS series, (SELECT count(*)::int FROM current_written) AS current,
         EXISTS (SELECT 1 FROM stale) AS stale,
         b.device_id AS bad_device_id, b.field_no AS bad_field_no, b.targets AS bad_targets
    FROM (SELECT 1) one LEFT JOIN (SELECT * FROM bad LIMIT 1) b ON true`;
const VALUES_SQL = valuesSql('>');
const REPLAYED_VALUES_SQL = valuesSql('>=');

interface StatementResult {
  series: number;
  current: number;
  stale: boolean;
  bad_device_id: string | null;
  bad_field_no: number | null;
  bad_targets: number | null;
}

/** A batch of values for both tables; a row object in both lists is sent once, with both targets. */
export interface TelemetryBatch {
  series?: readonly TelemetryRow[];
  current?: readonly TelemetryRow[];
}

/** Rows inserted or replaced per table; the rest were older or identical re-sends. */
export interface BatchWriteResult {
  series: number;
  current: number;
}

/** The batch's statement parameters: uplinks ($1..$3), values ($4..$8). */
interface Columns {
  deviceIds: string[];
  observedAt: string[];
  rawReceivedAt: string[];
  uplinks: number[];
  fieldNos: number[];
  numbers: (number | null)[];
  json: (string | null)[];
  targets: number[];
}

/**
 * The telemetry write API, called by flow executions inside their transaction (the
 * EntityManager passed in). Each call is one statement whatever the batch size: `INSERT … SELECT FROM unnest`
 * of column arrays with an upsert into each table. Values are expected to be checked already (`checkValue`); the
 * writer still refuses anything that would corrupt data (non-finite numbers, values of the wrong kind, unknown pairs).
 */
@Injectable()
export class TelemetryWriter {
  constructor(private readonly contracts: FieldContractReader) {}

  /**
   * Time series points and current values in one statement, all or nothing (see `writeMeasurements` and
   * `writeCurrentValues` for each table's rules). `replay`: the series rows are a replay's.
   */
  async writeValues(manager: EntityManager, batch: TelemetryBatch, options: { replay?: boolean } = {}): Promise<BatchWriteResult> {
    const series = dedupe(batch.series ?? [], measurementKey, (kept, candidate) => candidate.rawReceivedAt > kept.rawReceivedAt);
    const current = dedupe(batch.current ?? [], currentKey, (kept, candidate) => compareRecency(candidate, kept) >= 0);
    if (series.length === 0 && current.length === 0) return { series: 0, current: 0 };
    const targets = new Map<TelemetryRow, number>();
    for (const row of series) targets.set(row, SERIES);
    for (const row of current) targets.set(row, (targets.get(row) ?? 0) | CURRENT);
    return this.run(manager, options.replay ? REPLAYED_VALUES_SQL : VALUES_SQL, toColumns(targets));
  }

  /**
   * Timeseries upsert on (device, field, observedAt): a later rawReceivedAt replaces the stored point, an equal
   * or older one changes nothing (re-sending a row is a no-op). Duplicate keys in one batch keep the row with
   * the latest rawReceivedAt (the first of equals), as if sent one by one. `replay`: the rows are a replay's,
   * recomputed from the same raw messages, so an equal rawReceivedAt replaces the stored point too (an older one
   * still does not: a later message's point at the same instant stays).
   */
  async writeMeasurements(manager: EntityManager, rows: readonly TelemetryRow[], options: { replay?: boolean } = {}): Promise<WriteResult> {
    return { written: (await this.writeValues(manager, { series: rows }, options)).series };
  }

  /**
   * Current value upsert on (device, field): replaced only if the new observedAt, then rawReceivedAt, is not
   * older than the stored one. In a batch the newest (observedAt, rawReceivedAt) of a pair wins (the last of
   * equals, as `>=` makes a later equal write replace an earlier one).
   */
  async writeCurrentValues(manager: EntityManager, rows: readonly TelemetryRow[]): Promise<WriteResult> {
    return { written: (await this.writeValues(manager, { current: rows })).current };
  }

  private async run(manager: EntityManager, sql: string, columns: Columns): Promise<BatchWriteResult> {
    const fieldNos = [...new Set(columns.fieldNos)];
    // A contract that moved since it was cached is read again: at most once per statement in practice, since the
    // fresh copy is read after the version the retry checks (a field change committed in between is one more).
    for (let attempt = 1; ; attempt += 1) {
      const contracts = await this.contracts.ofFieldNos(fieldNos, manager);
      const fields = fieldStorage(contracts, new Set(fieldNos));
      const [result] = (await manager.query(sql, [
        plainArrayLiteral(columns.deviceIds),
        plainArrayLiteral(columns.observedAt),
        plainArrayLiteral(columns.rawReceivedAt),
        plainArrayLiteral(columns.uplinks),
        plainArrayLiteral(columns.fieldNos),
        plainArrayLiteral(columns.numbers),
        columns.json,
        plainArrayLiteral(columns.targets),
        fields.fieldNos,
        fields.deviceTypeIds,
        fields.schemaRefs,
        fields.storage,
        contracts.map((contract) => contract.deviceTypeId),
        contracts.map((contract) => contract.version),
      ])) as StatementResult[];
      if (!result) throw new Error('TelemetryWriter: the write statement returned no row');
      if (result.stale) {
        this.contracts.forget(contracts.map((contract) => contract.deviceTypeId));
        if (attempt < MAX_ATTEMPTS) continue;
        throw new Error('TelemetryWriter: the field contracts kept changing during the write');
      }
      if (result.bad_device_id !== null) {
        const target = (result.bad_targets ?? 0) & SERIES ? 'timeseries' : 'current';
        throw new TelemetryWriteRefusedError(
          `Device ${result.bad_device_id} has no ${target} field ${result.bad_field_no} of that value kind; nothing of the batch was written.`,
        );
      }
      return { series: result.series, current: result.current };
    }
  }
}

/** Statements tried while the contracts read keep moving under the write. */
const MAX_ATTEMPTS = 5;

/** The fields among `wanted` with their storage bits, as the statement's column arrays. */
function fieldStorage(contracts: readonly FieldContract[], wanted: ReadonlySet<number>) {
  const fields = { fieldNos: [] as number[], deviceTypeIds: [] as string[], schemaRefs: [] as string[], storage: [] as number[] };
  for (const contract of contracts) {
    for (const field of contract.fields) {
      if (!wanted.has(field.fieldNo)) continue;
      fields.fieldNos.push(field.fieldNo);
      fields.deviceTypeIds.push(field.deviceTypeId);
      fields.schemaRefs.push(field.schemaRef);
      fields.storage.push((field.storageTargets.includes('timeseries') ? SERIES : 0) | (field.storageTargets.includes('current') ? CURRENT : 0));
    }
  }
  return fields;
}

const measurementKey = (row: TelemetryRow) => `${row.deviceId}|${row.fieldNo}|${row.observedAt.getTime()}`;
const currentKey = (row: TelemetryRow) => `${row.deviceId}|${row.fieldNo}`;

function compareRecency(a: TelemetryRow, b: TelemetryRow): number {
  return a.observedAt.getTime() - b.observedAt.getTime() || a.rawReceivedAt.getTime() - b.rawReceivedAt.getTime();
}

/** ON CONFLICT cannot touch one row twice in a statement: keep one row per key, `replaces` deciding. */
function dedupe(
  rows: readonly TelemetryRow[],
  keyOf: (row: TelemetryRow) => string,
  replaces: (kept: TelemetryRow, candidate: TelemetryRow) => boolean,
): readonly TelemetryRow[] {
  if (rows.length <= 1) return rows;
  const byKey = new Map<string, TelemetryRow>();
  for (const row of rows) {
    const key = keyOf(row);
    const kept = byKey.get(key);
    if (!kept || replaces(kept, row)) byKey.set(key, row);
  }
  return byKey.size === rows.length ? rows : [...byKey.values()];
}

/**
 * The statement's columns. Consecutive rows of one device with the same two Date objects (the values of one
 * message share them) are one uplink: its instants are checked and turned into text once.
 */
function toColumns(targets: ReadonlyMap<TelemetryRow, number>): Columns {
  const columns: Columns = { deviceIds: [], observedAt: [], rawReceivedAt: [], uplinks: [], fieldNos: [], numbers: [], json: [], targets: [] };
  let deviceId: string | null = null;
  let observed: Date | null = null;
  let received: Date | null = null;
  for (const [row, rowTargets] of targets) {
    if (!Number.isInteger(row.fieldNo)) throw new TelemetryWriteRefusedError(`fieldNo ${String(row.fieldNo)} is not an integer`);
    if (row.deviceId !== deviceId || row.observedAt !== observed || row.rawReceivedAt !== received) {
      if (!isInstant(row.observedAt) || !isInstant(row.rawReceivedAt)) {
        throw new TelemetryWriteRefusedError(`A row of device ${row.deviceId} has an invalid observedAt or rawReceivedAt`);
      }
      columns.deviceIds.push(row.deviceId);
      columns.observedAt.push(row.observedAt.toISOString());
      columns.rawReceivedAt.push(row.rawReceivedAt.toISOString());
      deviceId = row.deviceId;
      observed = row.observedAt;
      received = row.rawReceivedAt;
    }
    columns.uplinks.push(columns.deviceIds.length);
    columns.fieldNos.push(row.fieldNo);
    columns.targets.push(rowTargets);
    if (typeof row.value === 'number') {
      // PostgreSQL would store NaN and ±Infinity happily, and every aggregate over them would be wrong.
      if (!Number.isFinite(row.value)) throw new TelemetryWriteRefusedError(`Field ${row.fieldNo} of device ${row.deviceId}: ${row.value} is not finite`);
      columns.numbers.push(row.value);
      columns.json.push(null);
    } else {
      const text = row.value === null || row.value === undefined ? null : jsonText(row.value);
      if (text === null) throw new TelemetryWriteRefusedError(`Field ${row.fieldNo} of device ${row.deviceId}: the value is not storable JSON`);
      columns.numbers.push(null);
      columns.json.push(text);
    }
  }
  return columns;
}

function isInstant(value: unknown): value is Date {
  return value instanceof Date && !Number.isNaN(value.getTime());
}
