// bench:telemetry-layout: what storing a batch's time series and current values costs PostgreSQL as the tables are
// laid out today (a row per field: `measurements`, `device_current_values`) against one row per uplink and one per
// device (the fields' numbers and values in arrays), on a throw-away database, side by side in one run.
//
// Writes: BENCH_ROUNDS batches (default 400) of 140 uplinks with 4 number fields over 2,000 devices, each batch
// written by both layouts (the order swapped each round) in the statement shape of TelemetryWriter (unnest of
// column arrays, upserts in key order); the CPU of each layout's own backend is read from /proc (a local server only).
// Both layouts keep the contract's rules field by field: a packed row that exists is merged with the incoming one
// (each field keeps the newer value), never replaced whole. Every uplink of the benchmark carries all four fields and
// a batch has one uplink per device, so the packed current values take the newest uplink of a device as it comes.
// Reads, on one device with BENCH_POINTS uplinks (default 50,000) in both layouts: a day of hourly averages of one
// field, and a page of 100 raw points of two fields. Prints figures, never fails on them. A decision
// record for the layout the ingestion-throughput work would move to.
const { Client } = require('pg');
const { randomUUID } = require('node:crypto');
const { backendCpuSeconds, fail, throwAwayDatabase } = require('./support');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 400);
const POINTS = Number(process.env.BENCH_POINTS ?? 50_000);
const BATCH = 140;
const FIELDS = 4;
const DEVICES = 2_000;
const READS = 200;
const say = (line) => process.stdout.write(`${line}\n`);

const SCHEMA = [
  // Today's tables, as the migrations create them.
  `CREATE TABLE m_rows (device_id uuid NOT NULL, field_no int NOT NULL, observed_at timestamptz NOT NULL, raw_received_at timestamptz NOT NULL,
     value_num float8, value_json jsonb, CHECK ((value_num IS NULL) <> (value_json IS NULL)),
     PRIMARY KEY (device_id, observed_at, field_no) INCLUDE (value_num))`,
  `CREATE TABLE cv_rows (device_id uuid NOT NULL, field_no int NOT NULL, value jsonb NOT NULL, observed_at timestamptz NOT NULL,
     raw_received_at timestamptz NOT NULL, updated_at timestamptz NOT NULL DEFAULT clock_timestamp(), PRIMARY KEY (device_id, field_no))`,
  // One row per uplink: its fields' numbers, numbers and JSON values in parallel arrays, and each field's
  // rawReceivedAt (a later message of the same instant may carry only some of the fields).
  `CREATE TABLE m_packed (device_id uuid NOT NULL, observed_at timestamptz NOT NULL, field_nos int[] NOT NULL, value_nums float8[] NOT NULL,
     value_jsons jsonb[] NULL, raw_received_ats timestamptz[] NOT NULL, PRIMARY KEY (device_id, observed_at))`,
  // One row per device: the newest value of each field, with that value's observedAt and rawReceivedAt.
  `CREATE TABLE cv_packed (device_id uuid PRIMARY KEY, field_nos int[] NOT NULL, values jsonb NOT NULL, observed_ats timestamptz[] NOT NULL,
     raw_received_ats timestamptz[] NOT NULL, updated_at timestamptz NOT NULL DEFAULT clock_timestamp())`,
];

const UPLINKS = `uplinks AS MATERIALIZED (
    SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::timestamptz[]) WITH ORDINALITY AS u(device_id, observed_at, raw_received_at, n))`;
const WRITE_SQL = {
  rows: `WITH ${UPLINKS},
    input AS MATERIALIZED (
      SELECT u.device_id, v.field_no, u.observed_at, u.raw_received_at, v.value_num
        FROM unnest($4::int[], $5::int[], $6::float8[]) AS v(uplink, field_no, value_num) JOIN uplinks u ON u.n = v.uplink),
    series AS (
      INSERT INTO m_rows AS m (device_id, field_no, observed_at, raw_received_at, value_num)
      SELECT device_id, field_no, observed_at, raw_received_at, value_num FROM input ORDER BY device_id, observed_at, field_no
      ON CONFLICT (device_id, observed_at, field_no) DO UPDATE SET raw_received_at = excluded.raw_received_at, value_num = excluded.value_num
       WHERE excluded.raw_received_at > m.raw_received_at
      RETURNING 1),
    current AS (
      INSERT INTO cv_rows AS cv (device_id, field_no, value, observed_at, raw_received_at)
      SELECT device_id, field_no, to_jsonb(value_num), observed_at, raw_received_at FROM input ORDER BY device_id, field_no
      ON CONFLICT (device_id, field_no) DO UPDATE
         SET value = excluded.value, observed_at = excluded.observed_at, raw_received_at = excluded.raw_received_at, updated_at = clock_timestamp()
       WHERE (excluded.observed_at, excluded.raw_received_at) >= (cv.observed_at, cv.raw_received_at)
      RETURNING 1)
    SELECT (SELECT count(*) FROM series) AS series, (SELECT count(*) FROM current) AS current`,
  // The same rules as today's rows, field by field: a stored row is merged with the incoming one (each field keeps
  // the newer of the two: the later rawReceivedAt for a point, the later (observedAt, rawReceivedAt) for a current
  // value, an equal one replacing), so a message that carries only some fields, or arrives late, changes only those.
  packed: `WITH ${UPLINKS},
    input AS MATERIALIZED (
      SELECT u.device_id, u.observed_at, array_agg(v.field_no ORDER BY v.field_no) AS field_nos,
             array_agg(v.value_num ORDER BY v.field_no) AS value_nums, array_agg(u.raw_received_at ORDER BY v.field_no) AS raw_received_ats
        FROM unnest($4::int[], $5::int[], $6::float8[]) AS v(uplink, field_no, value_num) JOIN uplinks u ON u.n = v.uplink
       GROUP BY u.n, u.device_id, u.observed_at),
    series AS (
      INSERT INTO m_packed AS m (device_id, observed_at, field_nos, value_nums, raw_received_ats)
      SELECT device_id, observed_at, field_nos, value_nums, raw_received_ats FROM input ORDER BY device_id, observed_at
      ON CONFLICT (device_id, observed_at) DO UPDATE
         SET (field_nos, value_nums, raw_received_ats) = (
               SELECT array_agg(f ORDER BY f), array_agg(v ORDER BY f), array_agg(r ORDER BY f)
                 FROM (SELECT DISTINCT ON (f) f, v, r
                         FROM (SELECT s.f, s.v, s.r, 0 AS incoming FROM unnest(m.field_nos, m.value_nums, m.raw_received_ats) AS s(f, v, r)
                               UNION ALL
                               SELECT e.f, e.v, e.r, 1 FROM unnest(excluded.field_nos, excluded.value_nums, excluded.raw_received_ats) AS e(f, v, r)) x
                        ORDER BY f, r DESC, incoming) newest)
      RETURNING 1),
    current AS (
      INSERT INTO cv_packed AS cv (device_id, field_nos, values, observed_ats, raw_received_ats)
      SELECT DISTINCT ON (device_id) device_id, field_nos, to_jsonb(value_nums), array_fill(observed_at, ARRAY[cardinality(field_nos)]), raw_received_ats
        FROM input ORDER BY device_id, observed_at DESC, raw_received_ats[1] DESC
      ON CONFLICT (device_id) DO UPDATE
         SET (field_nos, values, observed_ats, raw_received_ats, updated_at) = (
               SELECT array_agg(f ORDER BY f), jsonb_agg(v ORDER BY f), array_agg(o ORDER BY f), array_agg(r ORDER BY f), clock_timestamp()
                 FROM (SELECT DISTINCT ON (f) f, v, o, r
                         FROM (SELECT s.f, s.v, s.o, s.r, 0 AS incoming
                                 FROM unnest(cv.field_nos, ARRAY(SELECT jsonb_array_elements(cv.values)), cv.observed_ats, cv.raw_received_ats) AS s(f, v, o, r)
                               UNION ALL
                               SELECT e.f, e.v, e.o, e.r, 1
                                 FROM unnest(excluded.field_nos, ARRAY(SELECT jsonb_array_elements(excluded.values)), excluded.observed_ats, excluded.raw_received_ats) AS e(f, v, o, r)) x
                        ORDER BY f, o DESC, r DESC, incoming DESC) newest)
      RETURNING 1)
    SELECT (SELECT count(*) FROM series) AS series, (SELECT count(*) FROM current) AS current`,
};

const HOURLY_SQL = {
  rows: `SELECT date_bin('1 hour', observed_at, TIMESTAMPTZ '1970-01-01Z') AS bucket, avg(value_num) FROM m_rows
          WHERE device_id = $1 AND field_no = $2 AND observed_at >= $3 AND observed_at < $4 GROUP BY 1 ORDER BY 1`,
  packed: `SELECT date_bin('1 hour', observed_at, TIMESTAMPTZ '1970-01-01Z') AS bucket, avg(value_nums[array_position(field_nos, $2)]) FROM m_packed
          WHERE device_id = $1 AND $2 = ANY (field_nos) AND observed_at >= $3 AND observed_at < $4 GROUP BY 1 ORDER BY 1`,
};
const PAGE_SQL = {
  rows: `SELECT observed_at, field_no, value_num FROM m_rows
          WHERE device_id = $1 AND field_no = ANY ($2::int[]) AND observed_at >= $3 AND observed_at < $4 ORDER BY observed_at, field_no LIMIT 100`,
  packed: `SELECT m.observed_at, x.field_no, x.value_num FROM m_packed m CROSS JOIN LATERAL unnest(m.field_nos, m.value_nums) AS x(field_no, value_num)
          WHERE m.device_id = $1 AND m.observed_at >= $3 AND m.observed_at < $4 AND x.field_no = ANY ($2::int[]) ORDER BY m.observed_at, x.field_no LIMIT 100`,
};

const literal = (values) => `{${values.join(',')}}`;

function batchParams(deviceOf, startMs) {
  const devices = [], instants = [], uplinks = [], fieldNos = [], values = [];
  for (let n = 0; n < BATCH; n++) {
    devices.push(deviceOf(n));
    instants.push(new Date(startMs + n * 10).toISOString());
    for (let field = 1; field <= FIELDS; field++) {
      uplinks.push(n + 1);
      fieldNos.push(field);
      values.push((Math.random() * 100).toFixed(3));
    }
  }
  return [literal(devices), literal(instants), literal(instants), literal(uplinks), literal(fieldNos), literal(values)];
}

async function main() {
  const database = await throwAwayDatabase('layout');
  const connect = async () => {
    const client = new Client({ connectionString: database.url });
    await client.connect();
    return client;
  };
  const setup = await connect();
  const clients = { rows: await connect(), packed: await connect() };
  try {
    for (const statement of SCHEMA) await setup.query(statement);
    const devices = Array.from({ length: DEVICES }, () => randomUUID());
    const cpu = { rows: 0, packed: 0 };
    const wall = { rows: 0, packed: 0 };
    let clock = Date.parse('2026-01-01T00:00:00Z');
    for (let round = 0; round < ROUNDS; round++) {
      const params = batchParams((n) => devices[(round * BATCH + n) % DEVICES], clock);
      clock += BATCH * 10;
      for (const kind of round % 2 ? ['rows', 'packed'] : ['packed', 'rows']) {
        const client = clients[kind];
        const before = backendCpuSeconds(client);
        const started = performance.now();
        await client.query({ name: `write-${kind}`, text: WRITE_SQL[kind], values: params });
        wall[kind] += performance.now() - started;
        cpu[kind] += backendCpuSeconds(client) - before;
      }
    }
    const uplinks = ROUNDS * BATCH;
    say(`writes: ${ROUNDS} batches of ${BATCH} uplinks x ${FIELDS} number fields over ${DEVICES} devices, both layouts`);
    for (const kind of ['rows', 'packed']) {
      say(`  ${kind.padEnd(6)} backend CPU ${((cpu[kind] * 1e6) / uplinks).toFixed(1)} us per uplink, statement ${((wall[kind] * 1e3) / uplinks).toFixed(1)} us per uplink (wall)`);
    }
    say(`  packed / rows: CPU ${(cpu.packed / cpu.rows).toFixed(2)}x, wall ${(wall.packed / wall.rows).toFixed(2)}x`);
    const { rows: sizes } = await setup.query(
      `SELECT relname, pg_total_relation_size(oid)::bigint AS bytes FROM pg_class WHERE relname IN ('m_rows', 'cv_rows', 'm_packed', 'cv_packed') ORDER BY relname`,
    );
    // The series grows per uplink; the current values are a fixed set per device.
    const per = (row) => (row.relname.startsWith('m_') ? `${(Number(row.bytes) / uplinks).toFixed(0)} bytes per uplink` : `${(Number(row.bytes) / DEVICES).toFixed(0)} bytes per device`);
    say(`  stored (table and indexes): ${sizes.map((row) => `${row.relname} ${per(row)}`).join(', ')}`);

    // One device with a long history in both layouts, a point every 10 s.
    const hot = randomUUID();
    const first = Date.parse('2025-01-01T00:00:00Z');
    const history = `FROM generate_series(0, $2 - 1) AS s(i) CROSS JOIN LATERAL (SELECT $3::timestamptz + s.i * interval '10 s' AS at) t`;
    await setup.query(
      `INSERT INTO m_rows (device_id, field_no, observed_at, raw_received_at, value_num)
       SELECT $1, f, t.at, t.at, random() * 100 ${history} CROSS JOIN generate_series(1, ${FIELDS}) AS f`,
      [hot, POINTS, new Date(first).toISOString()],
    );
    await setup.query(
      `INSERT INTO m_packed (device_id, observed_at, field_nos, value_nums, raw_received_ats)
       SELECT $1, t.at, (SELECT array_agg(f) FROM generate_series(1, ${FIELDS}) f),
              (SELECT array_agg(random() * 100 + f * 0) FROM generate_series(1, ${FIELDS}) f), array_fill(t.at, ARRAY[${FIELDS}]) ${history}`,
      [hot, POINTS, new Date(first).toISOString()],
    );
    await setup.query('VACUUM ANALYZE m_rows');
    await setup.query('VACUUM ANALYZE m_packed');
    const span = POINTS * 10_000;
    say(`reads: one device with ${POINTS} uplinks, ${READS} reads each at random days`);
    for (const [label, sql, fields] of [
      ['a day of hourly averages, one field', HOURLY_SQL, 2],
      ['a page of 100 raw points, two fields', PAGE_SQL, [1, 3]],
    ]) {
      const cost = { rows: { cpu: 0, wall: 0 }, packed: { cpu: 0, wall: 0 } };
      for (let read = 0; read < READS; read++) {
        const from = first + Math.floor(Math.random() * Math.max(1, span - 86_400_000));
        const values = [hot, Array.isArray(fields) ? literal(fields) : fields, new Date(from).toISOString(), new Date(from + 86_400_000).toISOString()];
        // The same window for both layouts, the order swapped each read.
        for (const kind of read % 2 ? ['rows', 'packed'] : ['packed', 'rows']) {
          const client = clients[kind];
          const before = backendCpuSeconds(client);
          const started = performance.now();
          await client.query({ name: `${label}-${kind}`, text: sql[kind], values });
          cost[kind].wall += performance.now() - started;
          cost[kind].cpu += backendCpuSeconds(client) - before;
        }
      }
      say(
        `  ${label}: rows ${((cost.rows.wall * 1e3) / READS).toFixed(0)} us, packed ${((cost.packed.wall * 1e3) / READS).toFixed(0)} us per read (wall); ` +
          `backend CPU ${((cost.rows.cpu * 1e6) / READS).toFixed(0)} / ${((cost.packed.cpu * 1e6) / READS).toFixed(0)} us`,
      );
    }
  } finally {
    for (const client of [setup, clients.rows, clients.packed]) await client.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch(fail('bench:telemetry-layout'));
