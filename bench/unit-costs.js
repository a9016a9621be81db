// bench:unit-costs: what the pieces of a stored uplink cost on this machine, each next to the variant the
// ingestion-throughput work could move to, side by side in one run (variants interleaved, the order swapped each
// round). A decision record: which structural change would pay, measured before anyone builds it.
//
// On a throw-away database (its server on this machine: each figure is the CPU of the measuring connection's own
// backend, read from /proc), migrated by the built service:
// 1. a database round trip: `SELECT 1` (prepared), and BEGIN + COMMIT, backend and client (node-postgres) CPU;
// 2. storing raw rows as the group commit does (5 rows per statement, a 900-byte ChirpStack body): the real table
//    (six indexes, the pending queue kept by its statement trigger) against the queue entries written by the same
//    statement (trigger off), and against a copy of the table with its primary key only;
// 3. recording 216 outcomes (a backlog batch) on pending rows: the real update (its statement trigger takes the rows
//    out of the queue) against the update with the queue entries deleted by the same statement (that trigger off);
// 4. a codec call into an isolated-vm isolate, four ways: async `apply` one at a time, 100 in flight, `applySync`,
//    and one call for a batch of 100 (CPU of this process).
// BENCH_ROUNDS (default 6) rounds per figure. Prints figures, never fails on them.
const { randomUUID } = require('node:crypto');
const { join } = require('node:path');
const { Client } = require('pg');
const { ROOT, backendCpuSeconds, fail, startService, throwAwayDatabase } = require('./support');

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const say = (line) => process.stdout.write(`${line}\n`);
const us = (seconds, count) => ((seconds * 1e6) / count).toFixed(1);

/** A ChirpStack v4 `up` body of about 900 bytes. */
function chirpStackBody(devEui) {
  return Buffer.from(
    JSON.stringify({
      deduplicationId: randomUUID(),
      time: new Date().toISOString(),
      deviceInfo: {
        tenantId: randomUUID(), tenantName: 'Bench', applicationId: randomUUID(), applicationName: 'bench-app',
        deviceProfileId: randomUUID(), deviceProfileName: 'env-sensor', deviceName: `sensor-${devEui}`, devEui, tags: { site: 'north' },
      },
      devAddr: '01a2b3c4', adr: true, dr: 5, fCnt: 42, fPort: 1, confirmed: false, data: 'CQQB9AP2DgE=',
      rxInfo: [{ gatewayId: '0016c001ff10a235', uplinkId: 41234, rssi: -57, snr: 9.5, channel: 2, location: { latitude: 52.1, longitude: 5.1 }, context: 'AAAAAAAAAAA=', metadata: { region_common_name: 'EU868' } }],
      txInfo: { frequency: 868300000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
    }),
  );
}

async function roundTrips(client) {
  const count = 5000;
  const cost = { select: { backend: 0, client: 0 }, transaction: { backend: 0, client: 0 } };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 ? ['select', 'transaction'] : ['transaction', 'select']) {
      const before = backendCpuSeconds(client);
      const started = process.cpuUsage();
      for (let i = 0; i < count; i++) {
        if (kind === 'select') await client.query({ name: 'one', text: 'SELECT 1' });
        else {
          await client.query('BEGIN');
          await client.query('COMMIT');
        }
      }
      const used = process.cpuUsage(started);
      cost[kind].backend += backendCpuSeconds(client) - before;
      cost[kind].client += (used.user + used.system) / 1e6;
    }
  }
  const n = ROUNDS * count;
  say(`1. a round trip: SELECT 1 (prepared) backend ${us(cost.select.backend, n)} us, client ${us(cost.select.client, n)} us;`);
  say(`   BEGIN + COMMIT (two round trips) backend ${us(cost.transaction.backend, n)} us, client ${us(cost.transaction.client, n)} us`);
}

const RAW_COLUMNS = '(raw_ingestion_message_id, received_at, source, event, credential_id, tenant_id, dedup_scope, dedup_key, dev_eui, observed_at, content_type, body, size_bytes)';
const RAW_ROWS =
  `SELECT id, clock_timestamp(), 'chirpstack', 'up', NULL::uuid, NULL::uuid, 'platform', 'chirpstack:' || id, e, clock_timestamp(), 'application/json', b, octet_length(b)
     FROM unnest($1::uuid[], $2::text[], $3::bytea[]) AS x(id, e, b)`;
const INSERT_SQL = {
  trigger: `INSERT INTO raw_ingestion_messages ${RAW_COLUMNS} ${RAW_ROWS}`,
  explicit: `WITH stored AS (INSERT INTO raw_ingestion_messages ${RAW_COLUMNS} ${RAW_ROWS} RETURNING receipt_seq, raw_ingestion_message_id, dev_eui)
             INSERT INTO raw_message_queue (receipt_seq, raw_ingestion_message_id, dev_eui) SELECT * FROM stored`,
  primaryKeyOnly: `WITH stored AS (INSERT INTO raw_pk_only ${RAW_COLUMNS} ${RAW_ROWS} RETURNING receipt_seq, raw_ingestion_message_id, dev_eui)
             INSERT INTO queue_copy (receipt_seq, raw_ingestion_message_id, dev_eui) SELECT * FROM stored`,
};
// The shape of RawMessageOutcomes.record's statement (its tenant is coalesce(new, stored); here there is no new one),
// written out because the second variant adds a CTE to it.
const OUTCOME_SQL = `UPDATE raw_ingestion_messages r SET processing_status = 'processed', device_id = u.device_id, flow_execution_id = u.execution,
           tenant_id = coalesce(NULL::uuid, r.tenant_id)
    FROM unnest($1::uuid[], $2::uuid[], $3::uuid[]) AS u(id, device_id, execution) WHERE r.raw_ingestion_message_id = u.id`;
const OUTCOME_EXPLICIT_SQL = `WITH dequeued AS (DELETE FROM raw_message_queue WHERE receipt_seq = ANY ($4::bigint[])) ${OUTCOME_SQL}`;

/**
 * Turns one of the statement triggers that keep the pending queue on or off, once per variant (an ALTER TABLE
 * between statements would make the next one rebuild the table's cached state and plan again, inside the figure).
 */
async function queueTrigger(client, name, on) {
  await client.query(`ALTER TABLE raw_ingestion_messages ${on ? 'ENABLE' : 'DISABLE'} TRIGGER ${name}`);
}

async function rawRows(client) {
  await client.query(`CREATE TABLE raw_pk_only (LIKE raw_ingestion_messages INCLUDING DEFAULTS INCLUDING CONSTRAINTS INCLUDING IDENTITY) WITH (fillfactor = 50)`);
  await client.query(`ALTER TABLE raw_pk_only ADD PRIMARY KEY (raw_ingestion_message_id)`);
  await client.query(`CREATE TABLE queue_copy (LIKE raw_message_queue INCLUDING ALL)`);
  const devEuis = Array.from({ length: 1000 }, (_, i) => (0x70b3d5e75e000000n + BigInt(i)).toString(16).toUpperCase().padStart(16, '0'));
  const statements = 600;
  const cost = { trigger: 0, explicit: 0, primaryKeyOnly: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    const order = ['trigger', 'explicit', 'primaryKeyOnly'];
    for (const kind of round % 2 ? order.reverse() : order) {
      await queueTrigger(client, 'raw_message_queue_inserted', kind === 'trigger');
      for (let i = 0; i < statements; i++) {
        const eui = Array.from({ length: 5 }, () => devEuis[Math.floor(Math.random() * devEuis.length)]);
        const params = [Array.from({ length: 5 }, () => randomUUID()), eui, eui.map(chirpStackBody)];
        const before = backendCpuSeconds(client);
        await client.query({ name: `raw-${kind}`, text: INSERT_SQL[kind], values: params });
        cost[kind] += backendCpuSeconds(client) - before;
      }
    }
  }
  await queueTrigger(client, 'raw_message_queue_inserted', true);
  const rows = ROUNDS * statements * 5;
  say(`2. storing raw rows, 5 per statement (its own transaction), backend CPU per row: the table as it is ${us(cost.trigger, rows)} us;`);
  say(`   queue entries written by the same statement ${us(cost.explicit, rows)} us; primary key only (no secondary index) ${us(cost.primaryKeyOnly, rows)} us`);
}

async function outcomes(client) {
  const batch = 216;
  const batches = 60;
  const device = randomUUID();
  const cost = { trigger: 0, explicit: 0 };
  for (let round = 0; round < ROUNDS; round++) {
    for (const kind of round % 2 ? ['trigger', 'explicit'] : ['explicit', 'trigger']) {
      await queueTrigger(client, 'raw_message_queue_updated', kind === 'trigger');
      for (let i = 0; i < batches; i++) {
        const ids = Array.from({ length: batch }, () => randomUUID());
        const eui = ids.map(() => 'A84041000181F5F1');
        const { rows } = await client.query(`${INSERT_SQL.trigger} RETURNING receipt_seq`, [ids, eui, eui.map(chirpStackBody)]);
        const params = [ids, ids.map(() => device), ids.map(() => randomUUID())];
        if (kind === 'explicit') params.push(rows.map((row) => row.receipt_seq));
        await client.query('BEGIN');
        const before = backendCpuSeconds(client);
        await client.query({ name: `outcome-${kind}`, text: kind === 'trigger' ? OUTCOME_SQL : OUTCOME_EXPLICIT_SQL, values: params });
        cost[kind] += backendCpuSeconds(client) - before;
        await client.query('COMMIT');
      }
    }
  }
  await queueTrigger(client, 'raw_message_queue_updated', true);
  const { rows: [left] } = await client.query(`SELECT count(*)::int AS n FROM raw_message_queue q JOIN raw_ingestion_messages r USING (receipt_seq) WHERE r.processing_status <> 'pending'`);
  const n = ROUNDS * batches * batch;
  say(`3. recording outcomes, ${batch} per statement, backend CPU per message: the update with its trigger ${us(cost.trigger, n)} us;`);
  say(`   queue entries deleted by the same statement ${us(cost.explicit, n)} us (queue entries of processed rows left: ${left.n})`);
}

async function isolateCalls() {
  const ivm = require(join(ROOT, 'node_modules', 'isolated-vm'));
  const isolate = new ivm.Isolate({ memoryLimit: 64 });
  const context = await isolate.createContext();
  await context.eval(`
    function decodeUplink(input) {
      var b = input.bytes;
      return { data: { temperature: ((b[0] << 8) | b[1]) / 100, humidity: ((b[2] << 8) | b[3]) / 10, pressure: ((b[4] << 8) | b[5]) / 10, battery: ((b[6] << 8) | b[7]) / 1000 } };
    }
    globalThis.one = function (json) { return JSON.stringify(decodeUplink(JSON.parse(json))); };
    globalThis.many = function (json) {
      return JSON.stringify(JSON.parse(json).map(function (input) { try { return decodeUplink(input); } catch (e) { return { errors: [String(e)] }; } }));
    };`);
  const one = await context.global.get('one', { reference: true });
  const many = await context.global.get('many', { reference: true });
  const input = JSON.stringify({ bytes: [9, 4, 1, 244, 3, 246, 14, 1], fPort: 1, recvTime: new Date().toISOString(), variables: {} });
  const batch = `[${Array.from({ length: 100 }, () => input).join(',')}]`;
  const calls = 10_000;
  const ways = {
    'async apply, one at a time': async () => {
      for (let i = 0; i < calls; i++) await one.apply(undefined, [input], { timeout: 50 });
    },
    'async apply, 100 in flight': async () => {
      for (let i = 0; i < calls / 100; i++) await Promise.all(Array.from({ length: 100 }, () => one.apply(undefined, [input], { timeout: 50 })));
    },
    applySync: async () => {
      for (let i = 0; i < calls; i++) one.applySync(undefined, [input], { timeout: 50 });
    },
    'one call per 100': async () => {
      for (let i = 0; i < calls / 100; i++) await many.apply(undefined, [batch], { timeout: 50 });
    },
  };
  const cost = Object.fromEntries(Object.keys(ways).map((way) => [way, 0]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = Object.keys(ways);
    for (const way of round % 2 ? order.reverse() : order) {
      const started = process.cpuUsage();
      await ways[way]();
      const used = process.cpuUsage(started);
      cost[way] += (used.user + used.system) / 1e6;
    }
  }
  isolate.dispose();
  say(`4. a codec call into an isolate, CPU per call (this process and the isolate's threads): ${Object.entries(cost).map(([way, seconds]) => `${way} ${us(seconds, ROUNDS * calls)} us`).join('; ')}`);
}

async function main() {
  const database = await throwAwayDatabase('unit_costs');
  let service = null;
  const client = new Client({ connectionString: database.url });
  try {
    service = await startService(database.url, { env: { PROCESSING_ENABLED: 'false' } }); // migrates the database
    await service.stop();
    service = null;
    await client.connect();
    await client.query(`SET synchronous_commit = off`);
    say(`bench:unit-costs: ${ROUNDS} rounds per figure, variants interleaved`);
    await roundTrips(client);
    await rawRows(client);
    await outcomes(client);
    await isolateCalls();
  } finally {
    await service?.stop();
    await client.end().catch(() => undefined);
    await database.drop();
  }
}

main().catch(fail('bench:unit-costs'));
