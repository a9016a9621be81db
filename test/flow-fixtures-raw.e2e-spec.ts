import { loginAdmin } from './support/auth';
import { seedDevice, seedDeviceType, seedField, SeededDevice, SeededDeviceType } from './support/devices';
import { pipelineGraph } from './support/flows';
import { as, fieldsOf } from './support/http';
import { isPinned, routeRawMessage, seedRawMessage, SeededRawMessage } from './support/raw-messages';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;
let counter = 0;
const uniqueKey = () => `flow-raw-${process.pid}-${++counter}`;

/*
 * Fixture shape 2: a fixture saved from a stored raw message, which pins the message while referenced.
 *
 * Raw messages are routed to devices by the processing pipeline; these tests do not depend on it: a message is
 * ingested through the HTTP webhook and then routed with SQL (routeRawMessage), or written routed directly
 * (seedRawMessage).
 */
describe('flow fixtures from raw messages', () => {
  let t: TestApp;
  let admin: Api;
  let tenant: SeededTenant;
  let ingestionToken: string;

  interface Setup {
    type: SeededDeviceType;
    device: SeededDevice;
    flowId: string;
  }

  async function newFlow(target = tenant): Promise<Setup> {
    const type = await seedDeviceType(t, target);
    await seedField(t, target, type, { key: 'level' });
    const device = await seedDevice(t, target, type);
    const res = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'Flow' }).expect(201);
    return { type, device, flowId: res.body.flowId };
  }

  const rawMessageOf = (setup: Setup, options: Parameters<typeof seedRawMessage>[1] = {}) =>
    seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: setup.device.deviceId, ...options });

  const shape2 = (message: SeededRawMessage, extra: Record<string, unknown> = {}) => ({
    raw: { rawIngestionMessageId: message.rawIngestionMessageId, receivedAt: message.receivedAt },
    confirmRawRetentionExtension: true,
    ...extra,
  });

  const createFixture = (setup: Setup, body: Record<string, unknown>) => admin.post(`/v1/flows/${setup.flowId}/fixtures`, body);
  const fixtureCount = async (setup: Setup) => (await admin.get(`/v1/flows/${setup.flowId}/fixtures`).expect(200)).body.totalCount as number;

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
    const credential = await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'Webhook' }).expect(201);
    ingestionToken = credential.body.token;
  });
  afterAll(() => t.close());

  it('shape 2 without input derives the input from an ingested message, pins it and runs like any fixture', async () => {
    const setup = await newFlow();
    const ack = await t
      .http()
      .post('/v1/ingestion/http')
      .set('Authorization', `Bearer ${ingestionToken}`)
      .set('X-Correlation-Id', 'corr-webhook-1')
      .send({
        devEui: setup.device.devEui.toLowerCase(),
        payload: { encoding: 'hex', data: '00FA' },
        observedAt: '2026-03-14T10:00:00.123Z',
        connectionData: { gateway: 'roof' },
        messageId: `m-${setup.flowId}`,
      })
      .expect(202);
    await routeRawMessage(t, ack.body.rawIngestionMessageId, tenant.tenantId, setup.device.deviceId);
    const message = { rawIngestionMessageId: ack.body.rawIngestionMessageId as string, receivedAt: ack.body.receivedAt as string };

    const created = await createFixture(setup, shape2(message, { name: 'From the field', assertions: [{ path: 'current.level', expected: 25 }] })).expect(201);
    expect(created.body).toMatchObject({
      name: 'From the field',
      input: {
        mode: 'fixture',
        rawPayload: { encoding: 'hex', data: '00FA' },
        observedAt: '2026-03-14T10:00:00.123Z',
        rawReceivedAt: message.receivedAt,
        tenantId: tenant.tenantId,
        deviceId: setup.device.deviceId,
        deviceTypeId: setup.type.deviceTypeId,
        correlationId: 'corr-webhook-1',
        connectionData: { gateway: 'roof' },
        parameters: {},
      },
      raw: message,
      rawRetentionExtended: true,
    });
    const [row] = await t.dataSource.query(
      `SELECT raw_ingestion_message_id, raw_received_at, raw_retention_extended FROM flow_fixtures WHERE fixture_id = $1`,
      [created.body.fixtureId],
    );
    expect(row).toEqual({ raw_ingestion_message_id: message.rawIngestionMessageId, raw_received_at: new Date(message.receivedAt), raw_retention_extended: true });
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);
    const read = await admin.get(`/v1/raw-ingestion-messages/${message.rawIngestionMessageId}`).expect(200);
    expect(read.body.pinned).toBe(true);
    const audit = await t.dataSource.query(`SELECT metadata FROM audit_log WHERE entity_id = $1 AND event_type = 'flow_fixture.created'`, [created.body.fixtureId]);
    expect(audit[0].metadata.rawIngestionMessageId).toBe(message.rawIngestionMessageId);

    // The derived input runs through the flow like a hand-written one: 0x00FA × 0.1 = 25.
    const version = await admin.post(`/v1/flows/${setup.flowId}/versions`, { graph: pipelineGraph(setup.type, 'level') }).expect(201);
    const run = await admin.post(`/v1/flows/${setup.flowId}/fixture-runs`, { flowVersionId: version.body.flowVersionId }).expect(200);
    expect(run.body).toMatchObject({ total: 1, passed: 1, failed: 0 });
  });

  it('without observedAt or correlation id on the message: its receipt time and a generated id; no connection data: {}', async () => {
    const setup = await newFlow();
    const message = await rawMessageOf(setup, { observedAt: null, correlationId: null, connectionData: null });
    const created = await createFixture(setup, shape2(message)).expect(201);
    expect(created.body.input).toMatchObject({ observedAt: message.receivedAt, rawReceivedAt: message.receivedAt, connectionData: {} });
    expect(created.body.input.correlationId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shape 2 with input stores the given input (still validated) and pins the message', async () => {
    const setup = await newFlow();
    const message = await rawMessageOf(setup);
    const input = {
      mode: 'fixture',
      rawPayload: { encoding: 'hex', data: '0001' },
      observedAt: '2026-01-01T00:00:00Z',
      rawReceivedAt: '2026-01-01T00:00:01Z',
      tenantId: tenant.tenantId,
      deviceId: setup.device.deviceId,
      deviceTypeId: setup.type.deviceTypeId,
      correlationId: 'edited',
      connectionData: {},
      parameters: { factor: 2 },
    };
    const created = await createFixture(setup, shape2(message, { input })).expect(201);
    expect(created.body).toMatchObject({ input, raw: message, rawRetentionExtended: true });
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);

    const invalid = await createFixture(setup, shape2(message, { input: { ...input, mode: 'live' } })).expect(400);
    expect(fieldsOf(invalid)).toContainEqual({ path: 'body.input.mode', rule: 'enum' });
    const mismatch = await createFixture(setup, shape2(message, { input: { ...input, deviceTypeId: tenant.tenantId } })).expect(400);
    expect(fieldsOf(mismatch)).toContainEqual({ path: 'body.input.deviceTypeId', rule: 'mismatch' });
    expect(await fixtureCount(setup)).toBe(1);
  });

  describe('400 reference_not_found at body.raw; nothing stored, nothing pinned', () => {
    const expectNotFound = async (setup: Setup, message: SeededRawMessage, body = shape2(message)) => {
      const res = await createFixture(setup, body).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'body.raw', rule: 'reference_not_found' }]);
      expect(await fixtureCount(setup)).toBe(0);
      expect(await isPinned(t, message.rawIngestionMessageId)).toBe(false);
    };

    it('another receivedAt than the message was received at (one millisecond off, or finer than stored)', async () => {
      const setup = await newFlow();
      const message = await rawMessageOf(setup);
      const later = new Date(new Date(message.receivedAt).getTime() + 1).toISOString();
      await expectNotFound(setup, message, shape2({ ...message, receivedAt: later }));
      await expectNotFound(setup, message, shape2({ ...message, receivedAt: message.receivedAt.replace('Z', '001Z') }));
      // The same instant written with an offset and lower-case separators is the same reference.
      const instant = new Date(message.receivedAt);
      const shifted = new Date(instant.getTime() + 2 * 3600_000).toISOString().replace('Z', '+02:00').replace('T', 't');
      await createFixture(setup, shape2({ ...message, receivedAt: shifted })).expect(201);
    });

    it('the same instant written with the extreme offsets RFC 3339 allows (±23:59) is the same reference; another one is not found, never a 500', async () => {
      const setup = await newFlow();
      const message = await rawMessageOf(setup);
      const instant = new Date(message.receivedAt).getTime();
      const minutes = 23 * 60 + 59;
      const east = new Date(instant + minutes * 60_000).toISOString().replace('Z', '+23:59');
      const west = new Date(instant - minutes * 60_000).toISOString().replace('Z', '-23:59');
      await createFixture(setup, shape2({ ...message, receivedAt: east })).expect(201);
      await createFixture(setup, shape2({ ...message, receivedAt: west })).expect(201);
      const other = await rawMessageOf(setup);
      const res = await createFixture(setup, shape2({ ...other, receivedAt: '2026-01-01T00:00:00-23:59' })).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'body.raw', rule: 'reference_not_found' }]);
      expect(await isPinned(t, other.rawIngestionMessageId)).toBe(false);
    });

    it("another tenant's message", async () => {
      const setup = await newFlow();
      const other = await seedTenant(t);
      const otherSetup = await newFlow(other);
      const message = await seedRawMessage(t, { tenantId: other.tenantId, deviceId: otherSetup.device.deviceId });
      await expectNotFound(setup, message);
    });

    it('a message of a device of another type in the same tenant', async () => {
      const setup = await newFlow();
      const sibling = await newFlow();
      await expectNotFound(setup, await rawMessageOf(sibling));
    });

    it('a message not routed to any device, and an unknown id', async () => {
      const setup = await newFlow();
      await expectNotFound(setup, await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: null }));
      const res = await createFixture(setup, shape2({ rawIngestionMessageId: '00000000-0000-4000-8000-000000000000', receivedAt: '2026-03-14T09:15:01Z' })).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'body.raw', rule: 'reference_not_found' }]);
    });
  });

  // (null reads as a value left out, as for every other property: `required`, since raw was sent)
  it.each([
    [null, 'required'],
    ['text', 'type'],
    [1, 'type'],
    [['x'], 'type'],
  ])('raw %j: 400 %s at body.raw on create and replace, never a 500', async (raw, rule) => {
    const setup = await newFlow();
    const input = {
      mode: 'fixture',
      rawPayload: { encoding: 'hex', data: '0001' },
      observedAt: '2026-01-01T00:00:00Z',
      rawReceivedAt: '2026-01-01T00:00:01Z',
      tenantId: tenant.tenantId,
      deviceId: setup.device.deviceId,
      deviceTypeId: setup.type.deviceTypeId,
      correlationId: 'c',
      connectionData: {},
      parameters: {},
    };
    const res = await createFixture(setup, { input, raw }).expect(400);
    expect(fieldsOf(res)).toContainEqual({ path: 'body.raw', rule });
    const created = await createFixture(setup, { input }).expect(201);
    const replaced = await admin.put(`/v1/flows/${setup.flowId}/fixtures/${created.body.fixtureId}`).set('If-Match', '"1"').send({ input, raw }).expect(400);
    expect(fieldsOf(replaced)).toContainEqual({ path: 'body.raw', rule });
  });

  it.each([
    ['missing', 'required', undefined],
    ['false', 'must_be_true', false],
  ])('confirmation %s: 400 %s, checked before the message is looked up', async (_name, rule, confirmation) => {
    const setup = await newFlow();
    const message = await rawMessageOf(setup);
    const res = await createFixture(setup, { raw: shape2(message).raw, confirmRawRetentionExtension: confirmation }).expect(400);
    expect(fieldsOf(res)).toEqual([{ path: 'body.confirmRawRetentionExtension', rule }]);
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(false);
  });

  it('stays pinned while any fixture references the message: delete, replace away, replace onto another message', async () => {
    const setup = await newFlow();
    const message = await rawMessageOf(setup);
    const second = await rawMessageOf(setup);
    const path = (id: string) => `/v1/flows/${setup.flowId}/fixtures/${id}`;
    const a = (await createFixture(setup, shape2(message)).expect(201)).body;
    const b = (await createFixture(setup, shape2(message)).expect(201)).body;
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);

    await admin.delete(path(a.fixtureId)).set('If-Match', '"1"').expect(204);
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);

    // Replaced by a fixture of the same message: still pinned. Then onto the second message: moved.
    await admin.put(path(b.fixtureId)).set('If-Match', '"1"').send(shape2(message, { name: 'same' })).expect(200);
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);
    const moved = await admin.put(path(b.fixtureId)).set('If-Match', '"2"').send(shape2(second)).expect(200);
    expect(moved.body.raw).toEqual(second);
    expect([await isPinned(t, message.rawIngestionMessageId), await isPinned(t, second.rawIngestionMessageId)]).toEqual([false, true]);

    // Replaced by shape 1: the reference is gone.
    const shape1 = await admin.put(path(b.fixtureId)).set('If-Match', '"3"').send({ input: moved.body.input }).expect(200);
    expect(shape1.body).toMatchObject({ raw: null, rawRetentionExtended: false });
    expect(await isPinned(t, second.rawIngestionMessageId)).toBe(false);

    // A refused replace changes nothing.
    const c = (await createFixture(setup, shape2(message)).expect(201)).body;
    await admin.put(path(c.fixtureId)).set('If-Match', '"1"').send(shape2({ ...second, receivedAt: '2000-01-01T00:00:00Z' })).expect(400);
    expect([await isPinned(t, message.rawIngestionMessageId), await isPinned(t, second.rawIngestionMessageId)]).toEqual([true, false]);
    await admin.delete(path(c.fixtureId)).set('If-Match', '"1"').expect(204);
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(false);
    expect((await admin.get(`/v1/raw-ingestion-messages/${message.rawIngestionMessageId}`).expect(200)).body.pinned).toBe(false);
  });

  it('concurrent deletes and creates of fixtures of one message leave it pinned exactly when one remains', async () => {
    const setup = await newFlow();
    const message = await rawMessageOf(setup);
    const fixtures = await Promise.all(Array.from({ length: 8 }, () => createFixture(setup, shape2(message)).expect(201)));
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);
    const deletes = fixtures.map((res) => admin.delete(`/v1/flows/${setup.flowId}/fixtures/${res.body.fixtureId}`).set('If-Match', '"1"'));
    expect((await Promise.all(deletes)).map((res) => res.status)).toEqual(Array(8).fill(204));
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(false);

    const kept = (await createFixture(setup, shape2(message)).expect(201)).body;
    const more = await Promise.all(Array.from({ length: 4 }, () => createFixture(setup, shape2(message)).expect(201)));
    const mixed = await Promise.all([
      ...more.map((res) => admin.delete(`/v1/flows/${setup.flowId}/fixtures/${res.body.fixtureId}`).set('If-Match', '"1"')),
      ...Array.from({ length: 4 }, () => createFixture(setup, shape2(message))),
    ]);
    expect(mixed.map((res) => res.status).sort()).toEqual([201, 201, 201, 201, 204, 204, 204, 204]);
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(true);
    await admin.delete(`/v1/flows/${setup.flowId}/fixtures/${kept.fixtureId}`).set('If-Match', '"1"').expect(204);
    for (const res of mixed.filter((r) => r.status === 201)) {
      await admin.delete(`/v1/flows/${setup.flowId}/fixtures/${res.body.fixtureId}`).set('If-Match', '"1"').expect(204);
    }
    expect(await isPinned(t, message.rawIngestionMessageId)).toBe(false);
  });
});
