/*
 * `npm run bench:ingest-ack`: acknowledged ChirpStack v4 `up` webhooks per second into the durable raw store (group
 * commit; the service's processing is off: bench:ingest measures both halves), from BENCH_CONNECTIONS (50)
 * connections for BENCH_DURATION (10) seconds, each request a distinct uplink of one of 1,000 devices, on a
 * throw-away database (DATABASE_URL's server, else an embedded PostgreSQL). Prints acks/s, ack p50/p99 and the
 * rows verified against the 202s.
 * Prints figures; never fails on a number.
 */
const { createHash, randomBytes } = require('node:crypto');
const { Client } = require('pg');
const { fail, load, startService, throwAwayDatabase } = require('./support');

const connections = Number(process.env.BENCH_CONNECTIONS ?? 50);
const duration = Number(process.env.BENCH_DURATION ?? 10);
const log = (line) => process.stdout.write(`${line}\n`);

function chirpstackUp(n) {
  const devEui = (n % 1000).toString(16).padStart(16, '0');
  return JSON.stringify({
    deduplicationId: `bench-${process.pid}-${n}`,
    time: new Date().toISOString().replace('Z', '123456+00:00'),
    deviceInfo: { tenantName: 'Bench', applicationName: 'meters', deviceProfileName: 'meter', deviceName: `m-${devEui}`, devEui, tags: {} },
    devAddr: '00189440',
    dr: 5,
    fPort: 1,
    fCnt: n,
    data: 'AQIDBA==',
    rxInfo: [{ gatewayId: '0016c001f153a14c', uplinkId: n, rssi: -36, snr: 10.5, context: 'E3OWOQ==', metadata: { region_config_id: 'eu868' } }],
    txInfo: { frequency: 867100000, modulation: { lora: { bandwidth: 125000, spreadingFactor: 7, codeRate: 'CR_4_5' } } },
  });
}

async function main() {
  const database = await throwAwayDatabase('ingest');
  const service = await startService(database.url, { env: { LOG_LEVEL: 'warn', PROCESSING_ENABLED: 'false' } });
  const db = new Client({ connectionString: database.url });
  await db.connect();
  try {
    const token = `uit_${randomBytes(32).toString('base64url')}`;
    await db.query(`INSERT INTO ingestion_credentials (scope, name, token_sha256, token_prefix) VALUES ('platform', 'bench', $1, $2)`, [
      createHash('sha256').update(token).digest(),
      token.slice(0, 12),
    ]);
    let n = 0;
    const options = {
      url: `${service.url}/v1/ingestion/chirpstack?event=up`,
      method: 'POST',
      connections,
      duration,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      requests: [{ setupRequest: (request) => ({ ...request, body: chirpstackUp(n++) }) }],
    };
    await load({ ...options, duration: 3 }); // warm-up
    const before = (await db.query(`SELECT count(*)::int AS n FROM raw_ingestion_messages`)).rows[0].n;
    const result = await load(options);
    const after = (await db.query(`SELECT count(*)::int AS n FROM raw_ingestion_messages`)).rows[0].n;
    const acked = result['2xx'];
    log(`ingest ack (ChirpStack up, ${connections} connections, ${duration} s)`);
    log(`  acknowledged/s      ${Math.round(acked / duration)}`);
    log(`  ack p50 / p99       ${result.latency.p50} ms / ${result.latency.p99} ms`);
    log(`  non-2xx / errors    ${result.non2xx} / ${result.errors}`);
    log(`  rows stored         ${after - before} (acknowledged ${acked}; requests cut at the end may add rows)`);
  } finally {
    await db.end();
    await service.stop();
    await database.drop();
  }
}

main().catch(fail('bench:ingest-ack'));
