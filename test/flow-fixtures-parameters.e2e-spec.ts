import { randomUUID } from 'node:crypto';
import type { TenantRole } from '../src/shared/access/permissions';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedDevice, seedDeviceType, seedField, SeededDeviceType } from './support/devices';
import { pipelineGraph } from './support/flows';
import { as, fieldsOf } from './support/http';
import { seedGrant, seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;
let counter = 0;
const uniqueKey = () => `flow-fx-${process.pid}-${++counter}`;

describe('flows API: fixtures and parameter overrides', () => {
  let t: TestApp;
  let admin: Api;
  let tenant: SeededTenant;

  async function member(role: TenantRole): Promise<Api> {
    const user = await seedUser(t);
    await seedGrant(t, user.userId, tenant, role, null);
    return as(t, (await login(t, user.username, user.password)).accessToken);
  }

  async function newFlow(): Promise<{ type: SeededDeviceType; flowId: string }> {
    const type = await seedDeviceType(t, tenant);
    await seedField(t, tenant, type, { key: 'level' });
    const res = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: uniqueKey(), name: 'Flow' }).expect(201);
    return { type, flowId: res.body.flowId };
  }

  const input = (type: SeededDeviceType, overrides: Record<string, unknown> = {}) => ({
    mode: 'fixture',
    rawPayload: { encoding: 'hex', data: '00FF' },
    observedAt: '2026-03-14T09:15:00Z',
    rawReceivedAt: '2026-03-14T09:15:01.204+01:00',
    tenantId: tenant.tenantId,
    deviceId: randomUUID(),
    deviceTypeId: type.deviceTypeId,
    correlationId: 'fx-1',
    connectionData: { fPort: 2 },
    parameters: {},
    ...overrides,
  });

  const auditCount = async (entityId: string, eventType: string) =>
    Number((await t.dataSource.query(`SELECT count(*) AS n FROM audit_log WHERE entity_id = $1 AND event_type = $2`, [entityId, eventType]))[0].n);

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
  });
  afterAll(() => t.close());

  describe('fixtures', () => {
    it('create (201, ETag, Location, audit), read, list, replace with If-Match, delete with If-Match', async () => {
      const { type, flowId } = await newFlow();
      const body = { name: 'Normal', input: input(type), assertions: [{ path: 'current.level', expected: 25.5 }, { path: 'error', expected: null }] };
      const created = await admin.post(`/v1/flows/${flowId}/fixtures`, body).expect(201);
      expect(created.headers.etag).toBe('"1"');
      expect(created.headers.location).toBe(`/v1/flows/${flowId}/fixtures/${created.body.fixtureId}`);
      expect(created.body).toMatchObject({ flowId, tenantId: tenant.tenantId, name: 'Normal', input: body.input, raw: null, rawRetentionExtended: false, assertions: body.assertions, lockVersion: 1 });
      expect(await auditCount(created.body.fixtureId, 'flow_fixture.created')).toBe(1);
      const path = `/v1/flows/${flowId}/fixtures/${created.body.fixtureId}`;
      const read = await admin.get(path).expect(200);
      expect(read.body).toEqual(created.body);
      expect(read.headers.etag).toBe('"1"');
      const list = await admin.get(`/v1/flows/${flowId}/fixtures`).expect(200);
      expect(list.body).toMatchObject({ totalCount: 1, items: [created.body] });

      const noMatch = await admin.put(path).send(body).expect(400);
      expect(fieldsOf(noMatch)[0].path).toBe('headers.if-match');
      const replaced = await admin.put(path).set('If-Match', '"1"').send({ input: input(type, { correlationId: 'fx-2' }) }).expect(200);
      expect(replaced.headers.etag).toBe('"2"');
      expect(replaced.body).toMatchObject({ name: null, assertions: [], lockVersion: 2, input: { correlationId: 'fx-2' } });
      const stale = await admin.put(path).set('If-Match', '"1"').send(body).expect(409);
      expect(stale.body.error.details).toMatchObject({ reason: 'lock_version_mismatch', currentLockVersion: 2 });
      expect(await auditCount(created.body.fixtureId, 'flow_fixture.updated')).toBe(1);

      await admin.delete(path).expect(400);
      const staleDelete = await admin.delete(path).set('If-Match', '"1"').expect(409);
      expect(staleDelete.body.error.details.reason).toBe('lock_version_mismatch');
      await admin.delete(path).set('If-Match', '"2"').expect(204);
      expect(await auditCount(created.body.fixtureId, 'flow_fixture.deleted')).toBe(1);
      await admin.get(path).expect(404);
    });

    it.each([
      ['input missing', () => ({}), { path: 'body.input', rule: 'required' }],
      ['mode not fixture', (type: SeededDeviceType) => ({ input: input(type, { mode: 'preview' }) }), { path: 'body.input.mode', rule: 'enum' }],
      ['an input field missing', (type: SeededDeviceType) => ({ input: { ...input(type), correlationId: undefined } }), { path: 'body.input.correlationId', rule: 'required' }],
      ['payload does not decode', (type: SeededDeviceType) => ({ input: input(type, { rawPayload: { encoding: 'hex', data: 'XYZ' } }) }), { path: 'body.input.rawPayload.data', rule: 'format' }],
      ['unknown encoding', (type: SeededDeviceType) => ({ input: input(type, { rawPayload: { encoding: 'b32', data: '' } }) }), { path: 'body.input.rawPayload.encoding', rule: 'enum' }],
      ['observedAt not a date-time', (type: SeededDeviceType) => ({ input: input(type, { observedAt: '2026-13-01T00:00:00Z' }) }), { path: 'body.input.observedAt', rule: 'format' }],
      ['correlationId too long', (type: SeededDeviceType) => ({ input: input(type, { correlationId: 'x'.repeat(129) }) }), { path: 'body.input.correlationId', rule: 'max_length' }],
      ['another tenant id', (type: SeededDeviceType) => ({ input: input(type, { tenantId: randomUUID() }) }), { path: 'body.input.tenantId', rule: 'mismatch' }],
      ['another device type', (type: SeededDeviceType) => ({ input: input(type, { deviceTypeId: randomUUID() }) }), { path: 'body.input.deviceTypeId', rule: 'mismatch' }],
      ['too many assertions', (type: SeededDeviceType) => ({ input: input(type), assertions: Array.from({ length: 51 }, () => ({ path: 'status', expected: 'succeeded' })) }), { path: 'body.assertions', rule: 'max_items' }],
      ['assertion path too long', (type: SeededDeviceType) => ({ input: input(type), assertions: [{ path: 'x'.repeat(501), expected: 1 }] }), { path: 'body.assertions[0].path', rule: 'max_length' }],
      ['assertion without expected', (type: SeededDeviceType) => ({ input: input(type), assertions: [{ path: 'status' }] }), { path: 'body.assertions[0].expected', rule: 'required' }],
      ['raw without confirmation', () => ({ raw: { rawIngestionMessageId: randomUUID(), receivedAt: '2026-03-14T09:15:01Z' }, confirmRawRetentionExtension: false }), { path: 'body.confirmRawRetentionExtension', rule: 'must_be_true' }],
      ['raw reference to no stored message', () => ({ raw: { rawIngestionMessageId: randomUUID(), receivedAt: '2026-03-14T09:15:01Z' }, confirmRawRetentionExtension: true }), { path: 'body.raw', rule: 'reference_not_found' }],
    ])('400: %s; nothing stored', async (_name, bodyOf, expected) => {
      const { type, flowId } = await newFlow();
      const res = await admin.post(`/v1/flows/${flowId}/fixtures`, bodyOf(type)).expect(400);
      expect(fieldsOf(res)).toContainEqual(expected);
      expect((await admin.get(`/v1/flows/${flowId}/fixtures`).expect(200)).body.totalCount).toBe(0);
    });

    it('at most 100 per flow: 409 max_fixtures, counted under a lock (parallel creates never pass it)', async () => {
      const { type, flowId } = await newFlow();
      await t.dataSource.query(
        `INSERT INTO flow_fixtures (tenant_id, flow_id, input) SELECT $1, $2, $3::jsonb FROM generate_series(1, 98)`,
        [tenant.tenantId, flowId, JSON.stringify(input(type))],
      );
      const results = await Promise.all([0, 1, 2].map(() => admin.post(`/v1/flows/${flowId}/fixtures`, { input: input(type) })));
      expect(results.map((res) => res.status).sort()).toEqual([201, 201, 409]);
      expect(results.find((res) => res.status === 409)!.body.error.details.reason).toBe('max_fixtures');
      expect((await admin.get(`/v1/flows/${flowId}/fixtures`).expect(200)).body.totalCount).toBe(100);
    });

    it('another flow\'s fixture is a 404; a viewer reads but cannot write (403)', async () => {
      const a = await newFlow();
      const b = await newFlow();
      const fixture = (await admin.post(`/v1/flows/${b.flowId}/fixtures`, { input: input(b.type) }).expect(201)).body;
      const res = await admin.get(`/v1/flows/${a.flowId}/fixtures/${fixture.fixtureId}`).expect(404);
      expect(res.body.error.details.resourceType).toBe('flow_fixture');
      const viewer = await member('tenant_viewer');
      await viewer.get(`/v1/flows/${b.flowId}/fixtures/${fixture.fixtureId}`).expect(200);
      await viewer.post(`/v1/flows/${b.flowId}/fixtures`, { input: input(b.type) }).expect(403);
      await viewer.put(`/v1/flows/${b.flowId}/fixtures/${fixture.fixtureId}`).set('If-Match', '"1"').send({ input: input(b.type) }).expect(403);
      await viewer.delete(`/v1/flows/${b.flowId}/fixtures/${fixture.fixtureId}`).set('If-Match', '"1"').expect(403);
    });
  });

  describe('parameter overrides and resolution', () => {
    async function flowWithParameters() {
      const { type, flowId } = await newFlow();
      const draft = await admin
        .post(`/v1/flows/${flowId}/versions`, {
          graph: pipelineGraph(type, 'level'),
          parameters: [
            { key: 'factor', type: 'number', defaultValue: 1 },
            { key: 'label', type: 'string', defaultValue: 'none' },
            { key: 'flag', type: 'boolean' },
          ],
        })
        .expect(201);
      return { type, flowId, versionId: draft.body.flowVersionId as string };
    }

    it('PUT upserts at each level (200, audit set), lists with filters, DELETE 204; resolution device > device type > tenant > default', async () => {
      const { type, flowId, versionId } = await flowWithParameters();
      const device = await seedDevice(t, tenant, type);
      const base = `/v1/flows/${flowId}/parameter-overrides`;
      const tenantLevel = await admin.put(`${base}/tenant/factor`).send({ value: 2 }).expect(200);
      expect(tenantLevel.body).toMatchObject({ level: 'tenant', deviceTypeId: null, deviceId: null, key: 'factor', value: 2 });
      const again = await admin.put(`${base}/tenant/factor`).send({ value: 3 }).expect(200);
      expect(again.body).toMatchObject({ parameterOverrideId: tenantLevel.body.parameterOverrideId, value: 3 });
      await admin.put(`${base}/device-type/factor`).send({ value: 4 }).expect(200);
      await admin.put(`${base}/device-type/label`).send({ value: 'type label' }).expect(200);
      const deviceLevel = await admin.put(`${base}/devices/${device.deviceId}/factor`).send({ value: 5 }).expect(200);
      expect(deviceLevel.body).toMatchObject({ level: 'device', deviceTypeId: type.deviceTypeId, deviceId: device.deviceId });
      expect(await auditCount(tenantLevel.body.parameterOverrideId, 'flow_parameter_override.set')).toBe(2);

      const all = await admin.get(base).expect(200);
      expect(all.body.totalCount).toBe(4);
      expect((await admin.get(`${base}?level=device_type`).expect(200)).body.totalCount).toBe(2);
      expect((await admin.get(`${base}?deviceId=${device.deviceId}`).expect(200)).body.totalCount).toBe(1);
      expect((await admin.get(`${base}?key=label`).expect(200)).body.totalCount).toBe(1);
      expect(fieldsOf(await admin.get(`${base}?level=x&key=1bad`).expect(400)).map((field) => field.path).sort()).toEqual(['query.key', 'query.level']);

      const resolved = await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}&flowVersionId=${versionId}`).expect(200);
      expect(resolved.body).toEqual({
        flowId,
        deviceId: device.deviceId,
        flowVersionId: versionId,
        parameters: [
          { key: 'factor', type: 'number', value: 5, source: 'device' },
          { key: 'label', type: 'string', value: 'type label', source: 'device_type' },
          { key: 'flag', type: 'boolean', value: null, source: 'default' },
        ],
      });

      await admin.delete(`${base}/devices/${device.deviceId}/factor`).expect(204);
      await admin.delete(`${base}/device-type/factor`).expect(204);
      const tenantWins = await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}&flowVersionId=${versionId}`).expect(200);
      expect(tenantWins.body.parameters[0]).toEqual({ key: 'factor', type: 'number', value: 3, source: 'tenant' });
      await admin.delete(`${base}/tenant/factor`).expect(204);
      await admin.delete(`${base}/tenant/factor`).expect(404);
      const defaults = await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}&flowVersionId=${versionId}`).expect(200);
      expect(defaults.body.parameters[0]).toEqual({ key: 'factor', type: 'number', value: 1, source: 'default' });
      expect(await auditCount(deviceLevel.body.parameterOverrideId, 'flow_parameter_override.deleted')).toBe(1);
    });

    it('a wrong-typed override (declaration changed later) is skipped in resolution', async () => {
      const { type, flowId, versionId } = await flowWithParameters();
      const device = await seedDevice(t, tenant, type);
      await admin.put(`/v1/flows/${flowId}/parameter-overrides/devices/${device.deviceId}/factor`).send({ value: 7 }).expect(200);
      await admin.put(`/v1/flows/${flowId}/parameter-overrides/device-type/factor`).send({ value: 8 }).expect(200);
      const v3 = await admin
        .post(`/v1/flows/${flowId}/versions`, { graph: pipelineGraph(type, 'level'), parameters: [{ key: 'factor', type: 'string', defaultValue: 'x' }] })
        .expect(201);
      await admin.put(`/v1/flows/${flowId}/parameter-overrides/tenant/factor`).send({ value: 'tenant string' }).expect(200);
      const resolved = await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}&flowVersionId=${v3.body.flowVersionId}`).expect(200);
      expect(resolved.body.parameters).toEqual([{ key: 'factor', type: 'string', value: 'tenant string', source: 'tenant' }]);
      const older = await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}&flowVersionId=${versionId}`).expect(200);
      expect(older.body.parameters[0]).toEqual({ key: 'factor', type: 'number', value: 7, source: 'device' });
    });

    it('400 undeclared_parameter, type (vs the newest declaration), value required, bad key; 404 foreign device and missing override', async () => {
      const { type, flowId } = await flowWithParameters();
      const base = `/v1/flows/${flowId}/parameter-overrides`;
      expect(fieldsOf(await admin.put(`${base}/tenant/nope`).send({ value: 1 }).expect(400))).toEqual([{ path: 'params.key', rule: 'undeclared_parameter' }]);
      expect(fieldsOf(await admin.put(`${base}/tenant/factor`).send({ value: 'x' }).expect(400))).toEqual([{ path: 'body.value', rule: 'type' }]);
      expect(fieldsOf(await admin.put(`${base}/tenant/factor`).send({}).expect(400))).toEqual([{ path: 'body.value', rule: 'required' }]);
      expect(fieldsOf(await admin.put(`${base}/tenant/1bad`).send({ value: 1 }).expect(400))[0].path).toBe('params.key');
      const otherType = await seedDeviceType(t, tenant);
      const foreignDevice = await seedDevice(t, tenant, otherType);
      const res = await admin.put(`${base}/devices/${foreignDevice.deviceId}/factor`).send({ value: 1 }).expect(404);
      expect(res.body.error.details.resourceType).toBe('device');
      await admin.delete(`${base}/device-type/factor`).expect(404);
      expect((await admin.get(`${base}?level=device_type`).expect(200)).body.totalCount).toBe(0);
      const device = await seedDevice(t, tenant, type);
      const viewer = await member('tenant_viewer');
      await viewer.put(`${base}/tenant/factor`).send({ value: 1 }).expect(403);
      await viewer.get(base).expect(200);
      await viewer.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}`).expect(409);
    });

    it('resolved-parameters: 409 no_active_version, active version by default, 400 references', async () => {
      const { type, flowId, versionId } = await flowWithParameters();
      const device = await seedDevice(t, tenant, type);
      const none = await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}`).expect(409);
      expect(none.body.error.details.reason).toBe('no_active_version');
      await admin.post(`/v1/flows/${flowId}/versions/${versionId}/release`).expect(200);
      await admin.post(`/v1/flows/${flowId}/activate`, { flowVersionId: versionId }).set('If-Match', '"1"').expect(200);
      const active = await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}`).expect(200);
      expect(active.body.flowVersionId).toBe(versionId);
      expect(active.body.parameters.map((parameter: { source: string }) => parameter.source)).toEqual(['default', 'default', 'default']);
      expect(fieldsOf(await admin.get(`/v1/flows/${flowId}/resolved-parameters`).expect(400))[0].path).toBe('query.deviceId');
      expect(fieldsOf(await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${randomUUID()}`).expect(400))[0]).toEqual({
        path: 'query.deviceId',
        rule: 'reference_not_found',
      });
      expect(
        fieldsOf(await admin.get(`/v1/flows/${flowId}/resolved-parameters?deviceId=${device.deviceId}&flowVersionId=${randomUUID()}`).expect(400))[0],
      ).toEqual({ path: 'query.flowVersionId', rule: 'reference_not_found' });
    });
  });
});
