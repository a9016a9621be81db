import { loginAdmin } from './support/auth';
import { as } from './support/http';
import { member } from './support/member';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { chirpstackUp, ttsUplink } from './fixtures/ingestion/bodies';

let t: TestApp;
let admin: ReturnType<typeof as>;
let tenant: SeededTenant;
let tenantToken: string;
let platformToken: string;

const ingest = (path: string, token: string, body: unknown, contentType = 'application/json') =>
  t
    .http()
    .post(path)
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', contentType)
    .send(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));

const rawRow = async (id: string) =>
  (await t.dataSource.query(`SELECT *, convert_from(body, 'UTF8') AS text FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [id]))[0];

/** The message's mapping as the API reads it (a webhook's row keeps the body only: the mapping is redone from it). */
const mappingOf = async (id: string): Promise<{ rawPayload: unknown; connectionData: Record<string, unknown> }> => {
  const res = await admin.get(`/v1/raw-ingestion-messages/${id}`);
  expect(res.status).toBe(200);
  return { rawPayload: res.body.rawPayload, connectionData: res.body.connectionData };
};

beforeAll(async () => {
  t = await startTestApp({ env: { PROCESSING_ENABLED: 'false' } });
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t);
  const created = await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'ChirpStack EU' });
  expect(created.status).toBe(201);
  tenantToken = created.body.token;
  const platform = await admin.post('/v1/ingestion-credentials', { name: 'Shared TTS' });
  expect(platform.status).toBe(201);
  platformToken = platform.body.token;
});

afterAll(() => t.close());

describe('ingestion credentials', () => {
  it('shows the token once, stores only its hash, lists and reads it without the token', async () => {
    const res = await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'Rotation' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`/v1/ingestion-credentials/${res.body.ingestionCredentialId}`);
    expect(res.body).toMatchObject({ scope: 'tenant', tenantId: tenant.tenantId, name: 'Rotation', status: 'active', lastUsedAt: null, revokedAt: null });
    expect(res.body.token).toMatch(/^uit_[A-Za-z0-9_-]{43}$/);
    expect(res.body.tokenPrefix).toBe(res.body.token.slice(0, 12));
    const [row] = await t.dataSource.query(`SELECT encode(token_sha256, 'hex') AS h FROM ingestion_credentials WHERE ingestion_credential_id = $1`, [res.body.ingestionCredentialId]);
    expect(row.h).not.toContain(res.body.token.slice(4, 20));
    const got = await admin.get(`/v1/ingestion-credentials/${res.body.ingestionCredentialId}`);
    expect(got.status).toBe(200);
    expect(got.body.token).toBeUndefined();
    const list = await admin.get(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`);
    expect(list.body.items.map((c: { name: string }) => c.name)).toEqual(['ChirpStack EU', 'Rotation']);
    const platform = await admin.get('/v1/ingestion-credentials?scope=platform');
    expect(platform.body.items.map((c: { name: string; tenantId: null }) => [c.name, c.tenantId])).toEqual([['Shared TTS', null]]);
    const byTenant = await admin.get(`/v1/ingestion-credentials?tenantId=${tenant.tenantId}&status=active`);
    expect(byTenant.body.totalCount).toBe(2);
    const unknownTenant = await admin.get('/v1/ingestion-credentials?tenantId=00000000-0000-4000-8000-000000000000');
    expect(unknownTenant.status).toBe(400);
    const audit = await t.dataSource.query(`SELECT event_type FROM audit_log WHERE entity_id = $1`, [res.body.ingestionCredentialId]);
    expect(audit.map((a: { event_type: string }) => a.event_type)).toEqual(['ingestion_credential.created']);
  });

  it('limits a tenant to 10 active credentials, also under concurrent creates', async () => {
    const other = await seedTenant(t);
    const results = await Promise.all(
      Array.from({ length: 14 }, (_, i) => admin.post(`/v1/tenants/${other.tenantNumber}/ingestion-credentials`, { name: `c${i}` })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = results.filter((r) => r.status === 409);
    expect(refused).toHaveLength(4);
    expect(refused[0]!.body.error.details.reason).toBe('max_credentials');
    await admin.post(`/v1/ingestion-credentials/${results.find((r) => r.status === 201)!.body.ingestionCredentialId}/revoke`);
    expect((await admin.post(`/v1/tenants/${other.tenantNumber}/ingestion-credentials`, { name: 'again' })).status).toBe(201);
  });

  it('lets a tenant admin manage its own credentials only; a viewer is 403, a platform credential is hidden', async () => {
    const owner = await member(t, tenant, 'tenant_admin');
    const viewer = await member(t, tenant, 'tenant_viewer');
    const stranger = await member(t, await seedTenant(t), 'tenant_admin');
    const created = await owner.api.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'Owned' });
    expect(created.status).toBe(201);
    const id = created.body.ingestionCredentialId;
    expect((await viewer.api.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'x' })).status).toBe(403);
    expect((await viewer.api.get(`/v1/ingestion-credentials/${id}`)).status).toBe(403);
    const foreign = await stranger.api.get(`/v1/ingestion-credentials/${id}`);
    const missing = await stranger.api.get('/v1/ingestion-credentials/00000000-0000-4000-8000-000000000000');
    expect(foreign.status).toBe(404);
    expect(foreign.body.error.details).toEqual(missing.body.error.details);
    const platformList = await admin.get('/v1/ingestion-credentials?scope=platform');
    const platformId = platformList.body.items[0].ingestionCredentialId;
    expect((await owner.api.get(`/v1/ingestion-credentials/${platformId}`)).status).toBe(404);
    expect((await owner.api.get('/v1/ingestion-credentials')).status).toBe(403);
    expect((await owner.api.post('/v1/ingestion-credentials', { name: 'x' })).status).toBe(403);
  });

  it('refuses a revoked token at once, and a second revoke is 409', async () => {
    const created = await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'Soon revoked' });
    const token = created.body.token;
    expect((await ingest('/v1/ingestion/chirpstack?event=up', token, chirpstackUp('0101010101010199', 'rev-1'))).status).toBe(202);
    const revoked = await admin.post(`/v1/ingestion-credentials/${created.body.ingestionCredentialId}/revoke`);
    expect(revoked.status).toBe(200);
    expect(revoked.body.status).toBe('revoked');
    expect(revoked.body.revokedAt).not.toBeNull();
    const refused = await ingest('/v1/ingestion/chirpstack?event=up', token, chirpstackUp('0101010101010199', 'rev-2'));
    expect(refused.status).toBe(401);
    expect(refused.body.error.details.reason).toBe('invalid_token');
    expect(refused.headers['www-authenticate']).toContain('invalid_token');
    const again = await admin.post(`/v1/ingestion-credentials/${created.body.ingestionCredentialId}/revoke`);
    expect(again.status).toBe(409);
    expect(again.body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'revoked' });
    const audit = await t.dataSource.query(`SELECT event_type FROM audit_log WHERE entity_id = $1 ORDER BY occurred_at`, [created.body.ingestionCredentialId]);
    expect(audit.map((a: { event_type: string }) => a.event_type)).toEqual(['ingestion_credential.created', 'ingestion_credential.revoked']);
  });
});

describe('ingestion endpoints', () => {
  it('401s a missing, malformed or unknown token before reading the body', async () => {
    const none = await t.http().post('/v1/ingestion/http').send({});
    expect(none.status).toBe(401);
    expect(none.body.error.details.reason).toBe('missing_token');
    const unknown = await ingest('/v1/ingestion/http', `uit_${'A'.repeat(43)}`, '{');
    expect(unknown.status).toBe(401);
    expect(unknown.body.error.details.reason).toBe('invalid_token');
    expect((await ingest('/v1/ingestion/http', 'not-a-token', '{')).status).toBe(401);
  });

  it('stores a real ChirpStack up event byte for byte and maps it', async () => {
    const body = JSON.stringify(chirpstackUp('a1b2c3d4e5f60718', 'cs-map-1'), null, 2);
    const res = await ingest('/v1/ingestion/chirpstack?event=up', tenantToken, body);
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ rawIngestionMessageId: expect.any(String), receivedAt: expect.any(String), duplicate: false });
    const row = await rawRow(res.body.rawIngestionMessageId);
    expect(row.text).toBe(body);
    expect(row).toMatchObject({
      source: 'chirpstack',
      event: 'up',
      dev_eui: 'A1B2C3D4E5F60718',
      tenant_id: tenant.tenantId,
      processing_status: 'pending',
      processing_reason: null,
      device_id: null,
      size_bytes: Buffer.byteLength(body),
      // The body alone: the mapping is a function of it, redone on every read.
      raw_payload: null,
      connection_data: null,
      dedup_key: 'chirpstack:cs-map-1',
    });
    expect(row.observed_at.toISOString()).toBe('2026-03-14T09:34:15.775Z');
    const mapped = await mappingOf(res.body.rawIngestionMessageId);
    expect(mapped.rawPayload).toEqual({ encoding: 'base64', data: 'AQIDBA==' });
    expect(mapped.connectionData).toEqual({
      networkServer: 'chirpstack',
      deduplicationId: 'cs-map-1',
      devAddr: '00189440',
      fPort: 1,
      fCnt: 0,
      dr: 5,
      adr: false,
      confirmed: false,
      rxInfo: chirpstackUp().rxInfo,
      txInfo: chirpstackUp().txInfo,
      object: { volume: 1234.5, battery: 3.6 },
    });
  });

  it('answers ChirpStack non-up events 204 without storing, an unknown or missing event 400, Protobuf 400 asking for JSON', async () => {
    const before = (await t.dataSource.query(`SELECT count(*)::int AS n FROM raw_ingestion_messages`))[0].n;
    for (const event of ['join', 'status', 'ack', 'txack', 'log', 'location', 'integration']) {
      expect((await ingest(`/v1/ingestion/chirpstack?event=${event}`, tenantToken, { deviceInfo: {} })).status).toBe(204);
    }
    const unknown = await ingest('/v1/ingestion/chirpstack?event=down', tenantToken, chirpstackUp());
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.details.fields[0]).toMatchObject({ path: 'query.event', rule: 'enum' });
    const missing = await ingest('/v1/ingestion/chirpstack', tenantToken, chirpstackUp());
    expect(missing.body.error.details.fields[0]).toMatchObject({ path: 'query.event', rule: 'required' });
    const protobuf = await ingest('/v1/ingestion/chirpstack?event=up', tenantToken, Buffer.from([0x0a, 0x24, 0x33, 0x61, 0x63, 0x37]), 'application/octet-stream');
    expect(protobuf.status).toBe(400);
    expect(protobuf.body.error.message).toMatch(/enable JSON|encoding to JSON/i);
    const after = (await t.dataSource.query(`SELECT count(*)::int AS n FROM raw_ingestion_messages`))[0].n;
    expect(after).toBe(before);
  });

  it('stores a malformed uplink as rejected/malformed_payload and answers 400', async () => {
    const body = JSON.stringify({ ...chirpstackUp(), deviceInfo: { devEui: 'xyz' } });
    const res = await ingest('/v1/ingestion/chirpstack?event=up', tenantToken, body);
    expect(res.status).toBe(400);
    // the devEui rule is the contract's pattern (^[A-F0-9]{16}$ after upper-casing), named as every pattern rule
    expect(res.body.error.details.fields[0]).toMatchObject({ path: 'body.deviceInfo.devEui', rule: 'pattern' });
    const tts = await ingest('/v1/ingestion/tts', tenantToken, { end_device_ids: { dev_eui: '00112233' }, uplink_message: {} });
    expect(tts.body.error.details.fields[0]).toMatchObject({ path: 'body.end_device_ids.dev_eui', rule: 'pattern' });
    const [row] = await t.dataSource.query(`SELECT processing_status, processing_reason, convert_from(body, 'UTF8') AS text FROM raw_ingestion_messages WHERE convert_from(body, 'UTF8') = $1`, [body]);
    expect(row).toMatchObject({ processing_status: 'rejected', processing_reason: 'malformed_payload' });
    const broken = await ingest('/v1/ingestion/tts', tenantToken, '{"uplink_message": ');
    expect(broken.status).toBe(400);
    // This request's row, found by its correlation id: the exact bytes, rejected as malformed.
    const brokenRows = await t.dataSource.query(
      `SELECT source, processing_status, processing_reason, convert_from(body, 'UTF8') AS text FROM raw_ingestion_messages WHERE correlation_id = $1`,
      [broken.body.error.correlationId],
    );
    expect(brokenRows).toEqual([{ source: 'tts', processing_status: 'rejected', processing_reason: 'malformed_payload', text: '{"uplink_message": ' }]);
  });

  it('maps a real TTS uplink (NS receive time as observedAt, zero fields omitted, no f_port) and ignores other messages', async () => {
    const uplink = ttsUplink('70B3D57ED005A1B2', 'as:up:01HRZ8Q4J6TQ7H0K3V5N2M8AAA');
    delete (uplink.uplink_message as Partial<typeof uplink.uplink_message>).f_port;
    delete (uplink.uplink_message as Partial<typeof uplink.uplink_message>).f_cnt;
    const res = await ingest('/v1/ingestion/tts', platformToken, uplink);
    expect(res.status).toBe(202);
    const row = await rawRow(res.body.rawIngestionMessageId);
    expect(row).toMatchObject({ source: 'tts', event: 'uplink_message', dev_eui: '70B3D57ED005A1B2', tenant_id: null, dedup_scope: 'platform', dedup_key: 'tts:as:up:01HRZ8Q4J6TQ7H0K3V5N2M8AAA' });
    expect(row.observed_at.toISOString()).toBe('2026-03-14T09:34:15.703Z');
    expect(row).toMatchObject({ raw_payload: null, connection_data: null });
    expect((await mappingOf(res.body.rawIngestionMessageId)).connectionData).toMatchObject({
      networkServer: 'tts',
      applicationId: 'water-meters',
      deviceId: 'eui-70b3d57ed005a1b2',
      devAddr: '260B1A2C',
      fPort: null,
      fCnt: 0,
      settings: { frequency: '868100000' },
      decodedPayload: { volume: 1234.5, battery: 3.6 },
    });
    // Older releases: zero NS time, no correlation id -> AS time, and devEui + f_cnt + time as the dedup key.
    const old = ttsUplink('70B3D57ED005A1B3');
    old.uplink_message.received_at = '0001-01-01T00:00:00Z';
    old.correlation_ids = ['gs:conn:01HRZ7XK1J2B3C4D5E6F7G8H9J'];
    const first = await ingest('/v1/ingestion/tts', platformToken, old);
    const oldRow = await rawRow(first.body.rawIngestionMessageId);
    expect(oldRow.observed_at.toISOString()).toBe('2026-03-14T09:34:15.912Z');
    expect(oldRow.dedup_key).toBe('tts:70B3D57ED005A1B3:1287:2026-03-14T09:34:15.912Z');
    const repeat = await ingest('/v1/ingestion/tts', platformToken, old);
    expect(repeat.body).toEqual({ ...first.body, duplicate: true });
    const join = await ingest('/v1/ingestion/tts', platformToken, { end_device_ids: uplink.end_device_ids, join_accept: { session_key_id: 'AYZ3' } });
    expect(join.status).toBe(204);
  });

  it('accepts the plain HTTP body and validates it', async () => {
    const ok = await ingest('/v1/ingestion/http', tenantToken, {
      devEui: 'aabbccddeeff0011',
      payload: { encoding: 'hex', data: '0102' },
      observedAt: '2026-03-14T10:00:00.123Z',
      connectionData: { gateway: 'roof' },
      messageId: 'm-1',
    });
    expect(ok.status).toBe(202);
    const row = await rawRow(ok.body.rawIngestionMessageId);
    expect(row).toMatchObject({ source: 'http', event: 'uplink', dev_eui: 'AABBCCDDEEFF0011', raw_payload: null, connection_data: null });
    expect(await mappingOf(ok.body.rawIngestionMessageId)).toEqual({ rawPayload: { encoding: 'hex', data: '0102' }, connectionData: { gateway: 'roof' } });
    // A row that keeps its mapping in columns (every row stored before the body-only rule, and MQTT's) is read from them.
    await t.dataSource.query(`UPDATE raw_ingestion_messages SET raw_payload = '{"encoding":"hex","data":"ff"}', connection_data = '{"kept":true}' WHERE raw_ingestion_message_id = $1`, [
      ok.body.rawIngestionMessageId,
    ]);
    expect(await mappingOf(ok.body.rawIngestionMessageId)).toEqual({ rawPayload: { encoding: 'hex', data: 'ff' }, connectionData: { kept: true } });
    const bad = await ingest('/v1/ingestion/http', tenantToken, { devEui: '12', payload: { encoding: 'hex', data: 'xyz' }, extra: 1 });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.fields.map((f: { path: string }) => f.path).sort()).toEqual(['body.devEui', 'body.extra', 'body.payload.data']);
    expect(bad.body.error.details.fields).toContainEqual(expect.objectContaining({ path: 'body.devEui', rule: 'pattern' }));
    for (const devEui of ['AABBCCDDEEFF001', 'AABBCCDDEEFF00111', 'GGBBCCDDEEFF0011']) {
      const res = await ingest('/v1/ingestion/http', tenantToken, { devEui, payload: { encoding: 'hex', data: '00' } });
      expect(res.body.error.details.fields).toEqual([expect.objectContaining({ path: 'body.devEui', rule: 'pattern' })]);
    }
    const numeric = await ingest('/v1/ingestion/http', tenantToken, { devEui: 12, payload: { encoding: 'hex', data: '00' } });
    expect(numeric.body.error.details.fields).toEqual([expect.objectContaining({ path: 'body.devEui', rule: 'type' })]);
    const notJson = await ingest('/v1/ingestion/http', tenantToken, 'devEui=1', 'text/plain');
    expect(notJson.status).toBe(400);
    expect(notJson.body.error.details.fields[0].rule).toBe('content_type');
    const big = await ingest('/v1/ingestion/http', tenantToken, JSON.stringify({ devEui: 'aabbccddeeff0011', payload: { encoding: 'utf8', data: 'x'.repeat(300 * 1024) } }));
    expect(big.status).toBe(400);
    expect(big.body.error.details.fields[0].rule).toBe('body_too_large');
  });

  it('dedups the same message sent 20 times in parallel: one row, one id, 19 duplicates', async () => {
    const body = chirpstackUp('0202020202020202', 'race-1');
    const results = await Promise.all(Array.from({ length: 20 }, () => ingest('/v1/ingestion/chirpstack?event=up', tenantToken, body)));
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(202));
    expect(new Set(results.map((r) => r.body.rawIngestionMessageId)).size).toBe(1);
    expect(results.filter((r) => r.body.duplicate)).toHaveLength(19);
    const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM raw_ingestion_messages WHERE dedup_key = 'chirpstack:race-1'`);
    expect(n).toBe(1);
  });

  it('scopes dedup keys per tenant credential and platform, and forgets them after 24 h', async () => {
    const body = chirpstackUp('0303030303030303', 'scope-1');
    const a = await ingest('/v1/ingestion/chirpstack?event=up', tenantToken, body);
    const b = await ingest('/v1/ingestion/chirpstack?event=up', platformToken, body);
    expect(a.body.duplicate).toBe(false);
    expect(b.body.duplicate).toBe(false);
    expect(b.body.rawIngestionMessageId).not.toBe(a.body.rawIngestionMessageId);
    await t.dataSource.query(`UPDATE ingestion_dedup_keys SET expires_at = now() - interval '1 second' WHERE dedup_key = 'chirpstack:scope-1' AND dedup_scope = 'platform'`);
    const c = await ingest('/v1/ingestion/chirpstack?event=up', platformToken, body);
    expect(c.body.duplicate).toBe(false);
    expect(c.body.rawIngestionMessageId).not.toBe(b.body.rawIngestionMessageId);
  });

  it('keeps the request\'s correlation id on the row for the executions it will cause', async () => {
    const res = await ingest('/v1/ingestion/http', tenantToken, { devEui: 'aabbccddeeff0022', payload: { encoding: 'utf8', data: 'hi' } }).set(
      'X-Correlation-Id',
      'ns-request-42',
    );
    expect(res.status).toBe(202);
    expect((await rawRow(res.body.rawIngestionMessageId)).correlation_id).toBe('ns-request-42');
  });

  it('answers a message the database refuses 503 database, storing none of it and failing none of its batch neighbours', async () => {
    await t.dataSource.query(`
      CREATE FUNCTION refuse_probe() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW.dev_eui = 'DEADDEADDEADDEAD' THEN RAISE EXCEPTION 'disk full (probe)'; END IF; RETURN NEW; END $$;
      CREATE TRIGGER refuse_probe BEFORE INSERT ON raw_ingestion_messages FOR EACH ROW EXECUTE FUNCTION refuse_probe();
    `);
    try {
      const res = await ingest('/v1/ingestion/http', tenantToken, { devEui: 'deaddeaddeaddead', payload: { encoding: 'hex', data: '00' }, messageId: 'fail-1' });
      expect(res.status).toBe(503);
      expect(res.body.error).toMatchObject({ code: 'DEPENDENCY_FAILURE', details: { dependency: 'database' } });
      expect(res.headers['retry-after']).toBeDefined();
      const [{ n }] = await t.dataSource.query(`SELECT count(*)::int AS n FROM ingestion_dedup_keys WHERE dedup_key = 'http:fail-1'`);
      expect(n).toBe(0);
      // Refused rows sent together with good ones fail alone: the good ones of the same batch are stored.
      const mixed = await Promise.all(
        Array.from({ length: 12 }, (_, i) =>
          ingest('/v1/ingestion/http', tenantToken, { devEui: i % 4 === 0 ? 'deaddeaddeaddead' : 'aabbccddeeff0033', payload: { encoding: 'hex', data: '00' } }),
        ),
      );
      expect(mixed.map((r) => r.status)).toEqual(Array.from({ length: 12 }, (_, i) => (i % 4 === 0 ? 503 : 202)));
    } finally {
      await t.dataSource.query(`DROP TRIGGER refuse_probe ON raw_ingestion_messages; DROP FUNCTION refuse_probe()`);
    }
    const retried = await ingest('/v1/ingestion/http', tenantToken, { devEui: 'deaddeaddeaddead', payload: { encoding: 'hex', data: '00' }, messageId: 'fail-1' });
    expect(retried.status).toBe(202);
    expect(retried.body.duplicate).toBe(false);
  });

  it('coalesces lastUsedAt: set on first use, not written again within the minute', async () => {
    const res = await admin.get('/v1/ingestion-credentials?scope=platform');
    const credential = res.body.items[0];
    expect(credential.lastUsedAt).not.toBeNull();
    await t.dataSource.query(`UPDATE ingestion_credentials SET last_used_at = '2026-01-01T00:00:00Z' WHERE ingestion_credential_id = $1`, [
      credential.ingestionCredentialId,
    ]);
    await ingest('/v1/ingestion/tts', platformToken, { end_device_ids: { dev_eui: '0000000000000001' }, join_accept: {} });
    await new Promise((done) => setTimeout(done, 100));
    const after = await admin.get(`/v1/ingestion-credentials/${credential.ingestionCredentialId}`);
    expect(after.body.lastUsedAt).toBe('2026-01-01T00:00:00.000Z');
  });

  it('counts ingestion_messages_total by source and status', async () => {
    const metrics = await t.http().get('/metrics');
    expect(metrics.text).toMatch(/ingestion_messages_total\{source="chirpstack",status="accepted"\} \d+/);
    expect(metrics.text).toMatch(/ingestion_messages_total\{source="chirpstack",status="duplicate"\} \d+/);
  });
});

describe('raw ingestion messages', () => {
  it('lists newest first without bodies, with every filter, and pages with a cursor', async () => {
    const eui = '0404040404040404';
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await ingest('/v1/ingestion/chirpstack?event=up', tenantToken, chirpstackUp(eui, `list-${i}`));
      ids.push(res.body.rawIngestionMessageId);
    }
    const page1 = await admin.get(`/v1/raw-ingestion-messages?devEui=${eui.toLowerCase()}&limit=2`);
    expect(page1.status).toBe(200);
    expect(page1.body.items.map((m: { rawIngestionMessageId: string }) => m.rawIngestionMessageId)).toEqual([ids[2], ids[1]]);
    expect(page1.body.items[0]).toMatchObject({ source: 'chirpstack', event: 'up', devEui: eui, tenantId: tenant.tenantId, processingStatus: 'pending', pinned: false, dedupKey: 'chirpstack:list-2' });
    expect(page1.body.items[0].body).toBeUndefined();
    const page2 = await admin.get(`/v1/raw-ingestion-messages?devEui=${eui.toLowerCase()}&limit=2&cursor=${page1.body.nextCursor}`);
    expect(page2.body.items.map((m: { rawIngestionMessageId: string }) => m.rawIngestionMessageId)).toEqual([ids[0]]);
    expect(page2.body.nextCursor).toBeUndefined();
    const credentialId = page1.body.items[0].credentialId;
    const filtered = await admin.get(
      `/v1/raw-ingestion-messages?tenantId=${tenant.tenantId}&source=chirpstack&processingStatus=pending&credentialId=${credentialId}&devEui=${eui}`,
    );
    expect(filtered.body.items).toHaveLength(3);
    expect((await admin.get('/v1/raw-ingestion-messages?source=tts&devEui=' + eui)).body.items).toEqual([]);
    expect((await admin.get(`/v1/raw-ingestion-messages?deviceId=${tenant.tenantId}`)).body.items).toEqual([]);
    const from = new Date(Date.now() - 3600_000).toISOString();
    expect((await admin.get(`/v1/raw-ingestion-messages?devEui=${eui}&from=${from}&to=${new Date(Date.now() + 1000).toISOString()}`)).body.items).toHaveLength(3);
    const lone = await admin.get(`/v1/raw-ingestion-messages?from=${from}`);
    expect(lone.status).toBe(400);
    expect(lone.body.error.details.fields[0]).toMatchObject({ path: 'query.to', rule: 'required' });
    expect((await admin.get('/v1/raw-ingestion-messages?credentialId=00000000-0000-4000-8000-000000000000')).status).toBe(400);
    expect((await admin.get('/v1/raw-ingestion-messages?processingStatus=lost')).status).toBe(400);
    const user = await member(t, tenant, 'tenant_admin');
    const denied = await user.api.get('/v1/raw-ingestion-messages');
    expect(denied.status).toBe(403);
    expect(denied.body.error.details.reason).toBe('platform_admin_required');
  });

  it('reads the time of an uplink at the extreme offsets and years as any other instant, or refuses it with 400; never a 500', async () => {
    const times = ['2026-01-01T00:00:00+23:59', '2026-01-01T00:00:00-23:59', '0001-01-01T00:00:00Z', '9999-12-31T23:59:59.999Z', '0001-01-01T00:00:00+23:59', '9999-12-31T23:59:59-23:59'];
    const answers: string[] = [];
    for (const [index, time] of times.entries()) {
      const devEui = `0A0A0A0A0A0A0A${String(index).padStart(2, '0')}`;
      const bodies: [string, object][] = [
        ['/v1/ingestion/http', { devEui, payload: { encoding: 'hex', data: '00' }, observedAt: time }],
        ['/v1/ingestion/chirpstack?event=up', { ...chirpstackUp(devEui, `extreme-${index}`), time }],
        ['/v1/ingestion/tts', { ...ttsUplink(devEui, `as:up:extreme-${index}`), received_at: time }],
      ];
      for (const [path, body] of bodies) {
        const res = await ingest(path, tenantToken, body);
        answers.push(`${path} ${time} -> ${res.status}`);
        if (![202, 400].includes(res.status)) throw new Error(`${path} ${time} -> ${res.status} ${res.text}`);
        expect([202, 400]).toContain(res.status);
        if (res.status === 202) {
          const detail = await admin.get(`/v1/raw-ingestion-messages/${res.body.rawIngestionMessageId}`).expect(200);
          expect(detail.body.observedAt).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
        }
      }
    }
    expect(answers.filter((answer) => answer.endsWith('500'))).toEqual([]);
  });

  it('shows a raw uplink without a network-server time with its receipt time as observedAt (ChirpStack without time, TTS with the Go zero time)', async () => {
    const { time: _time, ...untimed } = chirpstackUp('0505050505050601', 'untimed-1');
    const zero = ttsUplink('0505050505050602', 'as:up:untimed-2');
    const zeroBody = { ...zero, received_at: '0001-01-01T00:00:00Z', uplink_message: { ...zero.uplink_message, received_at: '0001-01-01T00:00:00Z' } };
    for (const [path, body] of [
      ['/v1/ingestion/chirpstack?event=up', untimed],
      ['/v1/ingestion/tts', zeroBody],
    ] as const) {
      const stored = await ingest(path, tenantToken, body);
      expect(stored.status).toBe(202);
      const detail = await admin.get(`/v1/raw-ingestion-messages/${stored.body.rawIngestionMessageId}`).expect(200);
      expect(detail.body).toMatchObject({ receivedAt: stored.body.receivedAt, observedAt: stored.body.receivedAt });
      const listed = await admin.get(`/v1/raw-ingestion-messages?devEui=${detail.body.devEui}`).expect(200);
      expect(listed.body.items).toEqual([expect.objectContaining({ rawIngestionMessageId: stored.body.rawIngestionMessageId, observedAt: stored.body.receivedAt })]);
    }
    // with a network-server time, that time
    const timed = await ingest('/v1/ingestion/chirpstack?event=up', tenantToken, chirpstackUp('0505050505050603', 'timed-3'));
    expect((await admin.get(`/v1/raw-ingestion-messages/${timed.body.rawIngestionMessageId}`)).body.observedAt).toBe('2026-03-14T09:34:15.775Z');
  });

  it('reads one message with its exact body (utf8 or base64) and audits the read', async () => {
    const text = JSON.stringify(chirpstackUp('0505050505050505', 'detail-1'), null, 1);
    const stored = await ingest('/v1/ingestion/chirpstack?event=up', tenantToken, text);
    const res = await admin.get(`/v1/raw-ingestion-messages/${stored.body.rawIngestionMessageId}`);
    expect(res.status).toBe(200);
    expect(res.body.body).toEqual({ contentType: 'application/json', encoding: 'utf8', data: text });
    expect(res.body.rawPayload).toEqual({ encoding: 'base64', data: 'AQIDBA==' });
    expect(res.body.connectionData.networkServer).toBe('chirpstack');
    expect(res.body.receivedAt).toBe(stored.body.receivedAt);
    const hinted = await admin.get(`/v1/raw-ingestion-messages/${stored.body.rawIngestionMessageId}?receivedAt=${stored.body.receivedAt}`);
    expect(hinted.status).toBe(200);
    const audit = await t.dataSource.query(`SELECT event_type, tenant_id FROM audit_log WHERE entity_id = $1`, [stored.body.rawIngestionMessageId]);
    expect(audit).toEqual([
      { event_type: 'raw_ingestion_message.read', tenant_id: tenant.tenantId },
      { event_type: 'raw_ingestion_message.read', tenant_id: tenant.tenantId },
    ]);

    // Not UTF-8 (a Latin-1 byte inside a JSON string): stored as sent, read back as base64.
    const bytes = Buffer.concat([Buffer.from('{"devEui":"0505050505050506","payload":{"encoding":"utf8","data":"'), Buffer.from([0xe9]), Buffer.from('"}}')]);
    const rejected = await fetch(`${t.baseUrl}/v1/ingestion/http`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${tenantToken}`, 'Content-Type': 'application/json' },
      body: bytes,
    });
    expect(rejected.status).toBe(400);
    const [row] = await t.dataSource.query(`SELECT raw_ingestion_message_id AS id FROM raw_ingestion_messages WHERE body = $1`, [bytes]);
    const binary = await admin.get(`/v1/raw-ingestion-messages/${row.id}`);
    expect(binary.body.body.encoding).toBe('base64');
    expect(Buffer.from(binary.body.body.data, 'base64').equals(bytes)).toBe(true);
    expect(binary.body).toMatchObject({ processingStatus: 'rejected', processingReason: 'malformed_payload', rawPayload: null, devEui: null });
    const missing = await admin.get('/v1/raw-ingestion-messages/00000000-0000-4000-8000-000000000000');
    expect(missing.status).toBe(404);
    expect(missing.body.error.details.resourceType).toBe('raw_ingestion_message');
  });
});
