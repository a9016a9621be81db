import { randomBytes, randomUUID } from 'node:crypto';
import { Logger } from '@nestjs/common';
import { connectAsync, MqttClient } from 'mqtt';
import { Client } from 'pg';
import { MqttSubscriber, POISON_AFTER_REFUSALS } from '../src/modules/ingestion/mqtt/mqtt-subscriber';
import { chirpstackUp, ttsUplink } from './fixtures/ingestion/bodies';
import { loginAdmin } from './support/auth';
import { as } from './support/http';
import { publisherFor, startTestBroker, TestBroker } from './support/mqtt-broker';
import { seedDevice } from './support/devices';
import { seedLiveFlow } from './support/processing';
import { seedTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

interface RawRow {
  source: string;
  event: string;
  credential_id: string | null;
  tenant_id: string | null;
  dedup_scope: string | null;
  dedup_key: string | null;
  dev_eui: string | null;
  observed_at: Date | null;
  content_type: string;
  correlation_id: string;
  processing_status: string;
  processing_reason: string | null;
  connection_data: Record<string, unknown> | null;
  raw_payload: { encoding: string; data: string } | null;
  size_bytes: number;
  received_at: Date;
}

const APPLICATION_ID = '17c82e96-be03-4f38-aef3-f83d48582d97';
const devEui = () => randomBytes(8).toString('hex');
const eventTopic = (eui: string, event: string) => `application/${APPLICATION_ID}/device/${eui}/event/${event}`;
/** A ChirpStack `up` event as its MQTT integration publishes it; indented and with a trailing newline, so "exact bytes" means something. */
const upBody = (eui: string, deduplicationId: string = randomUUID()) => Buffer.from(`${JSON.stringify(chirpstackUp(eui, deduplicationId), null, 1)}\n`);

async function rowsWithBody(t: TestApp | Client, body: Buffer): Promise<RawRow[]> {
  const sql = `SELECT * FROM raw_ingestion_messages WHERE source = 'mqtt' AND body = $1 ORDER BY received_at`;
  return t instanceof Client ? (await t.query<RawRow>(sql, [body])).rows : t.dataSource.query<RawRow[]>(sql, [body]);
}

async function metric(t: TestApp, series: string): Promise<number> {
  const text = (await t.http().get('/metrics')).text;
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? 0 : Number(line.slice(series.length + 1));
}

const mqttTotal = (t: TestApp, status: string) => metric(t, `ingestion_messages_total{source="mqtt",status="${status}"}`);

/** Whether some session of this database waits for a lock (a store blocked behind the test's transaction). */
async function storeWaitsForLock(t: TestApp): Promise<boolean> {
  const [row] = await t.dataSource.query<{ n: number }[]>(
    `SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
  );
  return row!.n > 0;
}

/** A transaction holding the dedup claim of `key`, so the store of a message with that key waits until it ends. */
async function holdDedupClaim(t: TestApp, key: string): Promise<Client> {
  const client = new Client({ connectionString: t.database.url });
  await client.connect();
  await client.query('BEGIN');
  await client.query(
    `INSERT INTO ingestion_dedup_keys (dedup_scope, dedup_key, raw_ingestion_message_id, raw_received_at, expires_at)
     VALUES ('platform', $1, gen_random_uuid(), now(), now() + interval '1 day')`,
    [key],
  );
  return client;
}

// Processing is off: these tests check the stored raw rows before any routing.
describe('MQTT ingestion (ChirpStack)', () => {
  const CLIENT_ID = 'uplink-e2e';
  let broker: TestBroker;
  let t: TestApp;
  let publisher: MqttClient;
  const acked = (body: Buffer) => broker.acked(CLIENT_ID, body);
  const subscribed = () => broker.subscriptions.some((subscription) => subscription.clientId === CLIENT_ID);

  beforeAll(async () => {
    broker = await startTestBroker();
    t = await startTestApp({
      env: { PROCESSING_ENABLED: 'false', MQTT_ENABLED: 'true', MQTT_URL: broker.url, MQTT_CLIENT_ID: CLIENT_ID, MQTT_TOPICS: 'application/+/device/+/event/+' },
    });
    publisher = await publisherFor(broker);
    await waitUntil(subscribed, 10_000, 'subscription');
  });

  afterAll(async () => {
    publisher?.end(true);
    await t?.close();
    await broker?.close();
  });

  it('connects with a persistent session, subscribes at QoS 1 and reports the connection in readiness without deciding it', async () => {
    expect(broker.connects.filter((connect) => connect.clientId === CLIENT_ID)).toEqual([{ clientId: CLIENT_ID, clean: false }]);
    expect(broker.subscriptions.filter((subscription) => subscription.clientId === CLIENT_ID)).toEqual([
      { clientId: CLIENT_ID, topic: 'application/+/device/+/event/+', qos: 1 },
    ]);
    const ready = await t.http().get('/readyz').expect(200);
    expect(ready.body.checks.mqtt).toEqual({ status: 'up', latencyMs: 0 });
    const admin = as(t, (await loginAdmin(t)).accessToken);
    const detail = await admin.get('/v1/diagnostics/readiness').expect(200);
    expect(detail.body.checks.mqtt).toEqual({ status: 'up', latencyMs: 0 });
    expect(await metric(t, 'ingestion_mqtt_connected')).toBe(1);
  });

  it('stores a ChirpStack up event with its exact bytes, source mqtt, pending, and acknowledges it after the commit', async () => {
    const eui = devEui();
    const deduplicationId = randomUUID();
    const body = upBody(eui, deduplicationId);
    await publisher.publishAsync(eventTopic(eui, 'up'), body, { qos: 1 });
    await waitUntil(() => acked(body), 10_000, 'PUBACK');
    // The PUBACK follows the commit, so the row is there the moment the broker has it (no polling).
    const rows = await rowsWithBody(t, body);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      source: 'mqtt',
      event: 'uplink',
      credential_id: null,
      tenant_id: null,
      dedup_scope: 'platform',
      dedup_key: `chirpstack:${deduplicationId}`,
      dev_eui: eui.toUpperCase(),
      observed_at: new Date('2026-03-14T09:34:15.775Z'),
      content_type: 'application/json',
      processing_status: 'pending',
      processing_reason: null,
      raw_payload: { encoding: 'base64', data: 'AQIDBA==' },
      size_bytes: body.length,
    });
    expect(rows[0]!.correlation_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(rows[0]!.connection_data).toMatchObject({ networkServer: 'chirpstack', deduplicationId, fCnt: 0, object: { volume: 1234.5 } });
  });

  it('stores a repeated deduplicationId once (platform scope, as the webhook with a platform credential) and acknowledges both', async () => {
    const eui = devEui();
    const deduplicationId = randomUUID();
    const first = upBody(eui, deduplicationId);
    const again = Buffer.from(JSON.stringify(chirpstackUp(eui, deduplicationId)));
    const duplicatesBefore = await mqttTotal(t, 'duplicate');
    await publisher.publishAsync(eventTopic(eui, 'up'), first, { qos: 1 });
    await publisher.publishAsync(eventTopic(eui, 'up'), again, { qos: 1 });
    await waitUntil(() => acked(first) && acked(again), 10_000, 'PUBACKs');
    const keyed = await t.dataSource.query(`SELECT source FROM raw_ingestion_messages WHERE dedup_key = $1`, [`chirpstack:${deduplicationId}`]);
    expect(keyed).toEqual([{ source: 'mqtt' }]);
    expect(await mqttTotal(t, 'duplicate')).toBe(duplicatesBefore + 1);
  });

  it('acknowledges the other ChirpStack events without storing them', async () => {
    const eui = devEui();
    const ignoredBefore = await mqttTotal(t, 'ignored');
    const join = Buffer.from(JSON.stringify({ deduplicationId: randomUUID(), time: '2026-03-14T09:30:00+00:00', deviceInfo: { devEui: eui }, devAddr: '00189440' }));
    const status = Buffer.from(JSON.stringify({ deduplicationId: randomUUID(), deviceInfo: { devEui: eui }, margin: 7, batteryLevel: 94.5 }));
    await publisher.publishAsync(eventTopic(eui, 'join'), join, { qos: 1 });
    await publisher.publishAsync(eventTopic(eui, 'status'), status, { qos: 1 });
    await waitUntil(() => acked(join) && acked(status), 10_000, 'PUBACKs');
    expect(await t.dataSource.query(`SELECT 1 FROM raw_ingestion_messages WHERE dev_eui = $1`, [eui.toUpperCase()])).toEqual([]);
    expect(await mqttTotal(t, 'ignored')).toBe(ignoredBefore + 2);
  });

  it('stores malformed JSON and a Protobuf body as rejected/malformed_payload, with their exact bytes, and acknowledges them', async () => {
    const eui = devEui();
    const truncated = Buffer.from(`{"deduplicationId":"${randomUUID()}","deviceInfo":{"devEui":"${eui}"`);
    const protobuf = Buffer.concat([Buffer.from([0x0a, 0x24]), Buffer.from(randomUUID()), Buffer.from([0x12, 0x08, 0xff, 0x00])]);
    const noDevEui = Buffer.from(JSON.stringify({ deduplicationId: randomUUID(), data: 'AQID' }));
    for (const body of [truncated, protobuf, noDevEui]) await publisher.publishAsync(eventTopic(eui, 'up'), body, { qos: 1 });
    await waitUntil(() => acked(truncated) && acked(protobuf) && acked(noDevEui), 10_000, 'PUBACKs');
    for (const body of [truncated, protobuf, noDevEui]) {
      const rows = await rowsWithBody(t, body);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ processing_status: 'rejected', processing_reason: 'malformed_payload', dev_eui: null, dedup_key: null, size_bytes: body.length });
    }
  });

  it('sends the PUBACK only once the row is committed', async () => {
    const eui = devEui();
    const deduplicationId = randomUUID();
    const body = upBody(eui, deduplicationId);
    const blocker = await holdDedupClaim(t, `chirpstack:${deduplicationId}`);
    const atAck: { rows?: Promise<RawRow[]> } = {};
    const onAck = (packet: { cmd: string; payload?: Buffer | string }) => {
      // Read in the same turn as the broker receives the PUBACK.
      if (packet.cmd === 'publish' && Buffer.from(packet.payload ?? '').equals(body)) atAck.rows = rowsWithBody(t, body);
    };
    broker.aedes.on('ack', onAck);
    try {
      await publisher.publishAsync(eventTopic(eui, 'up'), body, { qos: 1 });
      await waitUntil(() => storeWaitsForLock(t), 10_000, 'the store waiting for the held claim');
      // The message is in the subscriber and its INSERT is running, but nothing is committed: no PUBACK.
      expect(acked(body)).toBe(false);
      expect(await rowsWithBody(t, body)).toEqual([]);
      await blocker.query('ROLLBACK');
      await waitUntil(() => acked(body), 10_000, 'PUBACK');
      expect(await atAck.rows).toHaveLength(1);
    } finally {
      broker.aedes.removeListener('ack', onAck);
      await blocker.end();
    }
  });

  it('does not acknowledge what it could not store (database refusing writes): the broker redelivers after a reconnect, in order', async () => {
    const eui = devEui();
    const first = upBody(eui);
    const second = upBody(eui);
    const failedBefore = await mqttTotal(t, 'failed');
    const connectsBefore = broker.connects.filter((connect) => connect.clientId === CLIENT_ID).length;
    await t.dataSource.query(`CREATE FUNCTION mqtt_e2e_refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'writes refused by the test'; END $$`);
    await t.dataSource.query(`CREATE TRIGGER mqtt_e2e_refuse BEFORE INSERT ON raw_ingestion_messages FOR EACH ROW EXECUTE FUNCTION mqtt_e2e_refuse()`);
    try {
      await publisher.publishAsync(eventTopic(eui, 'up'), first, { qos: 1 });
      await publisher.publishAsync(eventTopic(eui, 'up'), second, { qos: 1 });
      // Both refused, connection dropped, reconnected (the session resumes), delivered again, refused again.
      await waitUntil(
        async () => (await mqttTotal(t, 'failed')) >= failedBefore + 3 && broker.connects.filter((connect) => connect.clientId === CLIENT_ID).length >= connectsBefore + 1,
        20_000,
        'a redelivery after reconnecting',
      );
      expect(acked(first)).toBe(false);
      expect(acked(second)).toBe(false);
      // The database itself is up: readiness stays ready.
      expect((await t.http().get('/readyz')).status).toBe(200);
    } finally {
      await t.dataSource.query(`DROP TRIGGER mqtt_e2e_refuse ON raw_ingestion_messages`);
      await t.dataSource.query(`DROP FUNCTION mqtt_e2e_refuse()`);
    }
    await waitUntil(() => acked(first) && acked(second), 40_000, 'PUBACKs after the database accepts writes again');
    const [firstRow] = await rowsWithBody(t, first);
    const [secondRow] = await rowsWithBody(t, second);
    expect(firstRow).toMatchObject({ processing_status: 'pending', dev_eui: eui.toUpperCase() });
    expect(secondRow).toMatchObject({ processing_status: 'pending', dev_eui: eui.toUpperCase() });
    expect(await rowsWithBody(t, first)).toHaveLength(1);
    expect(firstRow!.received_at.getTime()).toBeLessThanOrEqual(secondRow!.received_at.getTime());
  });

  it(`stores a message the database keeps refusing as rejected after ${POISON_AFTER_REFUSALS} deliveries, so it cannot stall the topic`, async () => {
    const poisonEui = devEui();
    const poison = upBody(poisonEui);
    const next = upBody(devEui());
    const failedBefore = await mqttTotal(t, 'failed');
    await t.dataSource.query(`ALTER TABLE raw_ingestion_messages ADD CONSTRAINT mqtt_e2e_refuse_one CHECK (dev_eui IS DISTINCT FROM '${poisonEui.toUpperCase()}')`);
    try {
      await publisher.publishAsync(eventTopic(poisonEui, 'up'), poison, { qos: 1 });
      await publisher.publishAsync(eventTopic(poisonEui, 'up'), next, { qos: 1 });
      await waitUntil(() => acked(poison) && acked(next), 40_000, 'PUBACKs');
    } finally {
      await t.dataSource.query(`ALTER TABLE raw_ingestion_messages DROP CONSTRAINT mqtt_e2e_refuse_one`);
    }
    expect(await rowsWithBody(t, poison)).toEqual([
      expect.objectContaining({ processing_status: 'rejected', processing_reason: 'malformed_payload', dev_eui: null, size_bytes: poison.length }),
    ]);
    expect(await rowsWithBody(t, next)).toEqual([expect.objectContaining({ processing_status: 'pending' })]);
    expect(await mqttTotal(t, 'failed')).toBe(failedBefore + POISON_AFTER_REFUSALS);
    // `next` was committed at its first delivery, but PUBACKs go out in the order received: never before the poison's.
    const ackIndex = (body: Buffer) => broker.acks.findIndex((ack) => ack.clientId === CLIENT_ID && ack.payload.equals(body));
    expect(ackIndex(poison)).toBeLessThan(ackIndex(next));
  });

  it('reconnects after a broker restart, logging the outage once; readiness reports the broker down meanwhile but stays ready', async () => {
    const port = broker.port;
    const lines = (spy: jest.SpyInstance, prefix: string) => spy.mock.calls.filter(([message]) => String(message).startsWith(prefix));
    const warn = jest.spyOn(Logger.prototype, 'warn');
    const log = jest.spyOn(Logger.prototype, 'log');
    const debug = jest.spyOn(Logger.prototype, 'debug');
    try {
      publisher.end(true);
      await broker.close();
      await waitUntil(async () => (await t.http().get('/readyz')).body.checks.mqtt.status === 'down', 10_000, 'mqtt reported down');
      const down = await t.http().get('/readyz');
      expect(down.status).toBe(200);
      expect(down.body).toMatchObject({
        status: 'ready',
        checks: { database: { status: 'up' }, mqtt: { status: 'down', latencyMs: 0, message: 'not connected to the broker' } },
      });
      expect(await metric(t, 'ingestion_mqtt_connected')).toBe(0);
      // Let it fail to reconnect twice (after about 1 s, then 2 s more) before the broker comes back.
      await waitUntil(() => lines(debug, 'MQTT reconnect attempt failed').length >= 2, 15_000, 'two failed reconnects');

      broker = await startTestBroker(port);
      publisher = await publisherFor(broker);
      // The new broker has no session: the subscriber subscribes again on connecting.
      await waitUntil(subscribed, 40_000, 'resubscription after the restart');
      expect(lines(warn, 'MQTT disconnected')).toHaveLength(1);
      expect(lines(log, 'MQTT reconnected')).toEqual([[expect.stringMatching(/^MQTT reconnected to mqtt:\/\/127\.0\.0\.1:\d+ after \d+ s \(new session\)$/)]]);
    } finally {
      warn.mockRestore();
      log.mockRestore();
      debug.mockRestore();
    }
    expect((await t.http().get('/readyz')).body.checks.mqtt).toEqual({ status: 'up', latencyMs: 0 });
    const eui = devEui();
    const body = upBody(eui);
    await publisher.publishAsync(eventTopic(eui, 'up'), body, { qos: 1 });
    await waitUntil(() => acked(body), 10_000, 'PUBACK');
    expect(await rowsWithBody(t, body)).toEqual([expect.objectContaining({ processing_status: 'pending', dev_eui: eui.toUpperCase() })]);
  });

  it('counts into ingestion_messages_total with source mqtt', async () => {
    for (const status of ['accepted', 'duplicate', 'rejected', 'ignored', 'failed']) expect(await mqttTotal(t, status)).toBeGreaterThan(0);
  });
});

// Processing is off: these tests check the stored raw rows before any routing.
describe('MQTT ingestion (The Things Stack)', () => {
  const CLIENT_ID = 'uplink-e2e-tts';
  let broker: TestBroker;
  let t: TestApp;
  let publisher: MqttClient;
  const acked = (body: Buffer) => broker.acked(CLIENT_ID, body);

  beforeAll(async () => {
    broker = await startTestBroker();
    t = await startTestApp({
      env: {
        PROCESSING_ENABLED: 'false',
        MQTT_ENABLED: 'true',
        MQTT_URL: broker.url,
        MQTT_CLIENT_ID: CLIENT_ID,
        MQTT_FORMAT: 'tts',
        MQTT_TOPICS: 'v3/+/devices/+/up,v3/+/devices/+/join',
      },
    });
    publisher = await publisherFor(broker);
    await waitUntil(() => broker.subscriptions.filter((subscription) => subscription.clientId === CLIENT_ID).length === 2, 10_000, 'subscriptions');
  });

  afterAll(async () => {
    publisher?.end(true);
    await t?.close();
    await broker?.close();
  });

  it('stores uplink_message messages (dedup by the as:up: correlation id) and acknowledges the others without storing them', async () => {
    const eui = randomBytes(8).toString('hex').toUpperCase();
    const correlation = `as:up:${randomUUID()}`;
    const topic = `v3/water-meters@ttn/devices/eui-${eui.toLowerCase()}/up`;
    const uplink = Buffer.from(JSON.stringify(ttsUplink(eui, correlation)));
    const repeat = Buffer.from(JSON.stringify(ttsUplink(eui, correlation), null, 2));
    const join = Buffer.from(
      JSON.stringify({
        end_device_ids: { device_id: `eui-${eui.toLowerCase()}`, application_ids: { application_id: 'water-meters' }, dev_eui: eui },
        join_accept: { session_key_id: 'AYZ3N5Qx1s3Hc1fQ0q8Xkw==', received_at: '2026-03-14T09:30:00.101Z' },
      }),
    );
    await publisher.publishAsync(topic, uplink, { qos: 1 });
    await publisher.publishAsync(topic, repeat, { qos: 1 });
    await publisher.publishAsync(`v3/water-meters@ttn/devices/eui-${eui.toLowerCase()}/join`, join, { qos: 1 });
    await waitUntil(() => acked(uplink) && acked(repeat) && acked(join), 10_000, 'PUBACKs');
    const rows = await t.dataSource.query<RawRow[]>(`SELECT * FROM raw_ingestion_messages WHERE dev_eui = $1`, [eui]);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      source: 'mqtt',
      event: 'uplink',
      credential_id: null,
      tenant_id: null,
      dedup_scope: 'platform',
      dedup_key: `tts:${correlation}`,
      observed_at: new Date('2026-03-14T09:34:15.703Z'),
      processing_status: 'pending',
      raw_payload: { encoding: 'base64', data: 'AQIDBA==' },
      size_bytes: uplink.length,
    });
    expect(rows[0]!.connection_data).toMatchObject({ networkServer: 'tts', applicationId: 'water-meters', fCnt: 1287 });
    expect(await rowsWithBody(t, uplink)).toHaveLength(1);
  });
});

// Processing is off: these tests check the stored raw rows before any routing.
describe('MQTT ingestion shutdown', () => {
  const CLIENT_ID = 'uplink-e2e-stop';
  let broker: TestBroker;
  let t: TestApp;
  let publisher: MqttClient;

  beforeAll(async () => {
    broker = await startTestBroker();
    t = await startTestApp({ env: { PROCESSING_ENABLED: 'false', MQTT_ENABLED: 'true', MQTT_URL: broker.url, MQTT_CLIENT_ID: CLIENT_ID } });
    publisher = await publisherFor(broker);
    await waitUntil(() => broker.subscriptions.some((subscription) => subscription.clientId === CLIENT_ID), 10_000, 'subscription');
  });

  afterAll(async () => {
    publisher?.end(true);
    await t?.database.drop();
    await broker?.close();
  });

  it('stops taking messages, lets those being stored commit and be acknowledged, and leaves the rest with the broker', async () => {
    const eui = devEui();
    const deduplicationId = randomUUID();
    const blocked = upBody(eui, deduplicationId);
    const behind = upBody(eui);
    const late = upBody(eui);
    const blocker = await holdDedupClaim(t, `chirpstack:${deduplicationId}`);
    try {
      await publisher.publishAsync(eventTopic(eui, 'up'), blocked, { qos: 1 });
      await waitUntil(() => storeWaitsForLock(t), 10_000, 'the store waiting for the held claim');
      // Taken as well, and waiting in the writer behind the blocked commit.
      await publisher.publishAsync(eventTopic(eui, 'up'), behind, { qos: 1 });
      const subscriber = t.app.get(MqttSubscriber);
      await waitUntil(() => subscriber.unacknowledged === 2, 10_000, 'the second message taken');
      const closing = t.app.close();
      await waitUntil(() => subscriber.isStopping, 10_000, 'the subscriber stopping');
      await publisher.publishAsync(eventTopic(eui, 'up'), late, { qos: 1 });
      await blocker.query('ROLLBACK');
      await closing;
      // The broker handles a PUBACK asynchronously; both were sent before the DISCONNECT.
      await waitUntil(() => broker.acked(CLIENT_ID, blocked) && broker.acked(CLIENT_ID, behind), 5_000, 'PUBACKs');
      expect(broker.acked(CLIENT_ID, late)).toBe(false);
      expect(await rowsWithBody(blocker, blocked)).toHaveLength(1);
      expect(await rowsWithBody(blocker, behind)).toHaveLength(1);
      expect(await rowsWithBody(blocker, late)).toEqual([]);
    } finally {
      await blocker.end();
    }
    // The session (clean session off, ended with DISCONNECT) kept the unacknowledged message for the next start.
    const next = await connectAsync(broker.url, { clientId: CLIENT_ID, clean: false, reconnectPeriod: 0 });
    const received: Buffer[] = [];
    next.on('message', (_topic, payload) => received.push(payload));
    try {
      await waitUntil(() => received.some((payload) => payload.equals(late)), 10_000, 'redelivery to the next session');
    } finally {
      next.end(true);
    }
  });
});

describe('MQTT ingestion through processing', () => {
  const CLIENT_ID = 'uplink-e2e-processing';
  let broker: TestBroker;
  let t: TestApp;
  let publisher: MqttClient;

  beforeAll(async () => {
    broker = await startTestBroker();
    t = await startTestApp({ env: { MQTT_ENABLED: 'true', MQTT_URL: broker.url, MQTT_CLIENT_ID: CLIENT_ID } });
    publisher = await publisherFor(broker);
    await waitUntil(() => broker.subscriptions.some((subscription) => subscription.clientId === CLIENT_ID), 10_000, 'subscription');
  });

  afterAll(async () => {
    publisher?.end(true);
    await t?.close();
    await broker?.close();
  });

  it('routes an MQTT uplink like a platform credential: to the device of any tenant, through its active flow', async () => {
    const admin = as(t, (await loginAdmin(t)).accessToken);
    const tenant = await seedTenant(t);
    const flow = await seedLiveFlow(t, admin, tenant);
    const eui = devEui();
    const device = await seedDevice(t, tenant, flow.type, null, { devEui: eui.toUpperCase() });
    // 0x00FF scaled by 0.1.
    const body = Buffer.from(JSON.stringify({ ...chirpstackUp(eui, randomUUID()), data: Buffer.from([0, 255]).toString('base64') }));
    await publisher.publishAsync(eventTopic(eui, 'up'), body, { qos: 1 });
    await waitUntil(async () => (await rowsWithBody(t, body))[0]?.processing_status === 'processed', 10_000, 'processed');
    const [row] = await t.dataSource.query(`SELECT tenant_id, device_id, flow_execution_id FROM raw_ingestion_messages WHERE body = $1`, [body]);
    expect(row).toMatchObject({ tenant_id: tenant.tenantId, device_id: device.deviceId });
    const [execution] = await t.dataSource.query(`SELECT status, current FROM flow_executions WHERE flow_execution_id = $1`, [row.flow_execution_id]);
    expect(execution).toEqual({ status: 'succeeded', current: { level: 25.5 } });
  });
});
