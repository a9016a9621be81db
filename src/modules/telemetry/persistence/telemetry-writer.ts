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

type Target = 'timeseries' | 'current';

/** Column arrays of one batch, sent as one `unnest` (one statement, one round trip). */
interface Columns {
  deviceIds: string[];
  fieldNos: number[];
  observedAt: string[];
  rawReceivedAt: string[];
  numbers: (number | null)[];
  json: (string | null)[];
}

/**
 * Per batch, in the same statement as the write: every (device, field) pair must name a field of the device's
 * type with the target's storage, and each value must sit in the column its schema expects (numbers in
 * value_num). The telemetry tables have no foreign keys (migration comment); this is their integrity check. It
 * looks up each distinct device once ($7) and matches the rows against the fields of the target ($8..$10: number,
 * device type, schemaRef) taken from the cached field contracts, whose versions ($11, $12) it checks against the
 * devices' types: a contract that moved makes the statement write nothing and report `stale` (the writer reads
 * the contract again and retries). A failing batch writes nothing; the statement reports the first offending pair.
 */
const CHECKED_INPUT = `
  input AS (
    SELECT * FROM unnest($1::uuid[], $2::int[], $3::timestamptz[], $4::timestamptz[], $5::float8[], $6::jsonb[])
      AS r(device_id, field_no, observed_at, raw_received_at, value_num, value_json)
  ),
  batch_devices AS MATERIALIZED (
    SELECT dv.device_id, dv.device_type_id, ${fieldContractVersionSql('dv.device_type_id')} AS contract_version
      FROM devices dv WHERE dv.device_id = ANY ($7::uuid[])
  ),
  batch_fields AS MATERIALIZED (SELECT * FROM unnest($8::int[], $9::uuid[], $10::varchar[]) AS f(field_no, device_type_id, schema_ref)),
  stale AS (
    SELECT 1 FROM batch_devices d JOIN unnest($11::uuid[], $12::text[]) AS c(device_type_id, version) ON c.device_type_id = d.device_type_id
     WHERE d.contract_version IS DISTINCT FROM c.version
     LIMIT 1
  ),
  bad AS (
    SELECT i.device_id, i.field_no
      FROM input i
      LEFT JOIN batch_devices d ON d.device_id = i.device_id
      LEFT JOIN batch_fields f ON f.field_no = i.field_no AND f.device_type_id = d.device_type_id
     WHERE NOT coalesce(CASE f.schema_ref
             WHEN 'platform://schemas/number/v1' THEN i.value_num IS NOT NULL
             WHEN 'platform://schemas/string/v1' THEN jsonb_typeof(i.value_json) = 'string'
             WHEN 'platform://schemas/boolean/v1' THEN jsonb_typeof(i.value_json) = 'boolean'
             WHEN 'platform://schemas/json/v1' THEN true
           END, false)
     LIMIT 1
  )`;

// Rows go in key order: neighbouring index entries are written together, and two concurrent batches sharing keys
// lock them in the same order (no deadlock between them).
const measurementsSql = (replaces: '>' | '>=') => `
  WITH ${CHECKED_INPUT},
  written AS (
    INSERT INTO measurements AS m (device_id, field_no, observed_at, raw_received_at, value_num, value_json)
    SELECT device_id, field_no, observed_at, raw_received_at, value_num, value_json FROM input
     WHERE NOT EXISTS (SELECT 1 FROM bad) AND NOT EXISTS (SELECT 1 FROM stale)
     ORDER BY device_id, observed_at, field_no
    ON CONFLICT (device_id, observed_at, field_no) DO UPDATE
       SET raw_received_at = excluded.raw_received_at, value_num = excluded.value_num, value_json = excluded.value_json
     WHERE excluded.raw_received_at ${replaces} m.raw_received_at
    RETURNING 1
  )
  SELECT (SELECT count(*)::int FROM written) AS written, EXISTS (SELECT 1 FROM stale) AS stale,
         (SELECT device_id FROM bad) AS bad_device_id, (SELECT field_no FROM bad) AS bad_field_no`;
const MEASUREMENTS_SQL = measurementsSql('>');
const REPLAYED_MEASUREMENTS_SQL = measurementsSql('>=');

const CURRENT_VALUES_SQL = `
  WITH ${CHECKED_INPUT},
  written AS (
    INSERT INTO device_current_values AS cv (device_id, field_no, value, observed_at, raw_received_at)
    SELECT device_id, field_no, coalesce(to_jsonb(value_num), value_json), observed_at, raw_received_at FROM input
     WHERE NOT EXISTS (SELECT 1 FROM bad) AND NOT EXISTS (SELECT 1 FROM stale)
     ORDER BY device_id, field_no
    ON CONFLICT (device_id, field_no) DO UPDATE
       SET value = excluded.value, observed_at = excluded.observed_at, raw_received_at = excluded.raw_received_at,
           updated_at = clock_timestamp()
     WHERE (excluded.observed_at, excluded.raw_received_at) >= (cv.observed_at, cv.raw_received_at)
    RETURNING 1
  )
  SELECT (SELECT count(*)::int FROM written) AS written, EXISTS (SELECT 1 FROM stale) AS stale,
         (SELECT device_id FROM bad) AS bad_device_id, (SELECT field_no FROM bad) AS bad_field_no`;

interface StatementResult {
  written: number;
  stale: boolean;
  bad_device_id: string | null;
  bad_field_no: number | null;
}

/**
 * The telemetry write API, called by flow executions inside their transaction (the
 * EntityManager passed in). Each call is one statement whatever the batch size: an `INSERT … SELECT FROM unnest`
 * of column arrays with an upsert. Values are expected to be checked already (`checkValue`); the writer still
 * refuses anything that would corrupt data (non-finite numbers, values of the wrong kind, unknown pairs).
 */
@Injectable()
export class TelemetryWriter {
  constructor(private readonly contracts: FieldContractReader) {}

  /**
   * Timeseries upsert on (device, field, observedAt): a later rawReceivedAt replaces the stored point, an equal
   * or older one changes nothing (re-sending a row is a no-op). Duplicate keys in one batch keep the row with
   * the latest rawReceivedAt (the first of equals), as if sent one by one. `replay`: the rows are a replay's,
   * recomputed from the same raw messages, so an equal rawReceivedAt replaces the stored point too (an older one
   * still does not: a later message's point at the same instant stays).
   */
  async writeMeasurements(manager: EntityManager, rows: readonly TelemetryRow[], options: { replay?: boolean } = {}): Promise<WriteResult> {
    const unique = dedupe(rows, measurementKey, (kept, candidate) => candidate.rawReceivedAt > kept.rawReceivedAt);
    return this.run(manager, options.replay ? REPLAYED_MEASUREMENTS_SQL : MEASUREMENTS_SQL, unique, 'timeseries');
  }

  /**
   * Current value upsert on (device, field): replaced only if the new observedAt, then rawReceivedAt, is not
   * older than the stored one. In a batch the newest (observedAt, rawReceivedAt) of a pair wins (the last of
   * equals, as `>=` makes a later equal write replace an earlier one).
   */
  async writeCurrentValues(manager: EntityManager, rows: readonly TelemetryRow[]): Promise<WriteResult> {
    const unique = dedupe(rows, currentKey, (kept, candidate) => compareRecency(candidate, kept) >= 0);
    return this.run(manager, CURRENT_VALUES_SQL, unique, 'current');
  }

  private async run(manager: EntityManager, sql: string, rows: TelemetryRow[], target: Target): Promise<WriteResult> {
    if (rows.length === 0) return { written: 0 };
    const columns = toColumns(rows);
    const fieldNos = [...new Set(columns.fieldNos)];
    // A contract that moved since it was cached is read again: at most once per statement in practice, since the
    // fresh copy is read after the version the retry checks (a field change committed in between is one more).
    for (let attempt = 1; ; attempt += 1) {
      const contracts = await this.contracts.ofFieldNos(fieldNos, manager);
      const fields = fieldsWithTarget(contracts, new Set(fieldNos), target);
      const [result] = (await manager.query(sql, [
        plainArrayLiteral(columns.deviceIds),
        plainArrayLiteral(columns.fieldNos),
        plainArrayLiteral(columns.observedAt),
        plainArrayLiteral(columns.rawReceivedAt),
        plainArrayLiteral(columns.numbers),
        columns.json,
        plainArrayLiteral([...new Set(columns.deviceIds)]),
        fields.fieldNos,
        fields.deviceTypeIds,
        fields.schemaRefs,
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
        throw new TelemetryWriteRefusedError(
          `Device ${result.bad_device_id} has no ${target} field ${result.bad_field_no} of that value kind; nothing of the batch was written.`,
        );
      }
      return { written: result.written };
    }
  }
}

/** Statements tried while the contracts read keep moving under the write. */
const MAX_ATTEMPTS = 5;

/** The fields among `wanted` with the target's storage, as the statement's column arrays. */
function fieldsWithTarget(contracts: readonly FieldContract[], wanted: ReadonlySet<number>, target: Target) {
  const fields = { fieldNos: [] as number[], deviceTypeIds: [] as string[], schemaRefs: [] as string[] };
  for (const contract of contracts) {
    for (const field of contract.fields) {
      if (!wanted.has(field.fieldNo) || !field.storageTargets.includes(target)) continue;
      fields.fieldNos.push(field.fieldNo);
      fields.deviceTypeIds.push(field.deviceTypeId);
      fields.schemaRefs.push(field.schemaRef);
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
): TelemetryRow[] {
  const byKey = new Map<string, TelemetryRow>();
  for (const row of rows) {
    const key = keyOf(row);
    const kept = byKey.get(key);
    if (!kept || replaces(kept, row)) byKey.set(key, row);
  }
  return byKey.size === rows.length ? [...rows] : [...byKey.values()];
}

function toColumns(rows: readonly TelemetryRow[]): Columns {
  const columns: Columns = { deviceIds: [], fieldNos: [], observedAt: [], rawReceivedAt: [], numbers: [], json: [] };
  // The rows of one message share its two Date objects: each is checked and turned into text once.
  let observed: Date | null = null;
  let received: Date | null = null;
  let observedText = '';
  let receivedText = '';
  for (const row of rows) {
    if (!Number.isInteger(row.fieldNo)) throw new TelemetryWriteRefusedError(`fieldNo ${String(row.fieldNo)} is not an integer`);
    if (row.observedAt !== observed || row.rawReceivedAt !== received) {
      if (!isInstant(row.observedAt) || !isInstant(row.rawReceivedAt)) {
        throw new TelemetryWriteRefusedError(`A row of device ${row.deviceId} has an invalid observedAt or rawReceivedAt`);
      }
      if (row.observedAt !== observed) observedText = row.observedAt.toISOString();
      if (row.rawReceivedAt !== received) receivedText = row.rawReceivedAt.toISOString();
      observed = row.observedAt;
      received = row.rawReceivedAt;
    }
    columns.deviceIds.push(row.deviceId);
    columns.fieldNos.push(row.fieldNo);
    columns.observedAt.push(observedText);
    columns.rawReceivedAt.push(receivedText);
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
