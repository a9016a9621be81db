import { randomUUID } from 'node:crypto';
import type { Response } from 'supertest';
import { loginAdmin } from './support/auth';
import { seedDeviceType, seedField, SeededDeviceType } from './support/devices';
import { as, fieldsOf, withoutCorrelation } from './support/http';
import { seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { auditRows } from './support/audit';
import { member } from './support/member';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const NUMBER_REF = 'platform://schemas/number/v1';

let counter = 0;
const uniqueKey = (prefix = 'dt') => `${prefix}-${process.pid}-${++counter}`;

type Api = ReturnType<typeof as>;

/** A device type or field record as the API answers it. */
type ApiRecord = Record<string, unknown> & { deviceTypeId: string };

const typesPath = (tenant: SeededTenant) => `/v1/tenants/${tenant.tenantNumber}/device-types`;
const typePath = (type: { deviceTypeId: string }) => `/v1/device-types/${type.deviceTypeId}`;
const fieldsPath = (type: { deviceTypeId: string }) => `${typePath(type)}/fields`;
const fieldPath = (type: { deviceTypeId: string }, key: string) => `${fieldsPath(type)}/${key}`;

const fieldBody = (overrides: Record<string, unknown> = {}) => ({
  key: uniqueKey('f').replace(/-/g, '_'),
  name: 'Temperature',
  schemaRef: NUMBER_REF,
  unit: '°C',
  storageTargets: ['timeseries', 'current'],
  measurementType: 'gauge',
  ...overrides,
});

const conflictOf = (res: Response) => res.body.error.details as Record<string, unknown>;

/** `count` active fields written straight to the database (the 200-field limit test). */
async function seedManyFields(t: TestApp, tenant: SeededTenant, type: SeededDeviceType, count: number, prefix: string): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO device_field_definitions (tenant_id, device_type_id, key, name, schema_ref, storage_targets, measurement_type)
     SELECT $1, $2, $3 || g, 'Field ' || g, $4, '{current}', 'gauge' FROM generate_series(1, $5::int) AS g`,
    [tenant.tenantId, type.deviceTypeId, prefix, NUMBER_REF, count],
  );
}

describe('device types API', () => {
  let t: TestApp;
  let admin: Api;

  /** A type created through the API (so its lockVersion and audit are real). */
  async function createType(tenant: SeededTenant, overrides: Record<string, unknown> = {}): Promise<ApiRecord> {
    const res = await admin.post(typesPath(tenant), { key: uniqueKey(), name: 'Thermometer', ...overrides }).expect(201);
    return res.body;
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
  });
  afterAll(() => t.close());

  describe('POST /v1/tenants/{tenantNumber}/device-types', () => {
    it('creates a type: 201, ETag "1", Location, record, audit', async () => {
      const tenant = await seedTenant(t);
      const tenantAdmin = (await member(t, tenant, 'tenant_admin')).api;
      const res = await tenantAdmin.post(typesPath(tenant), { key: 'th-100', name: 'Thermo 100', description: 'Indoor sensor' }).expect(201);
      expect(res.body).toEqual({
        deviceTypeId: expect.stringMatching(UUID),
        tenantId: tenant.tenantId,
        key: 'th-100',
        name: 'Thermo 100',
        description: 'Indoor sensor',
        status: 'active',
        lockVersion: 1,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(res.headers.etag).toBe('"1"');
      expect(res.headers.location).toBe(`/v1/device-types/${res.body.deviceTypeId}`);

      const read = await tenantAdmin.get(res.headers.location!).expect(200);
      expect(read.body).toEqual(res.body);
      expect(read.headers.etag).toBe('"1"');

      const [audit] = await auditRows(t, 'device_type', res.body.deviceTypeId, 'device_type.created');
      expect(audit).toMatchObject({ tenant_id: tenant.tenantId, action: 'create', outcome: 'success', status_code: 201, metadata: { key: 'th-100' } });
    });

    it('defaults description to ""', async () => {
      const tenant = await seedTenant(t);
      const type = await createType(tenant);
      expect(type.description).toBe('');
    });

    it('refuses a duplicate key in the tenant (409 duplicate_key), also under a race; the same key is free in another tenant', async () => {
      const [a, b] = [await seedTenant(t), await seedTenant(t)];
      await admin.post(typesPath(a), { key: 'dup', name: 'One' }).expect(201);
      const again = await admin.post(typesPath(a), { key: 'dup', name: 'Two' }).expect(409);
      expect(conflictOf(again)).toEqual({ reason: 'duplicate_key' });
      await admin.post(typesPath(b), { key: 'dup', name: 'Other tenant' }).expect(201);

      const racing = await Promise.all(Array.from({ length: 6 }, () => admin.post(typesPath(a), { key: 'race', name: 'Race' })));
      expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
      for (const res of racing.filter((r) => r.status === 409)) expect(conflictOf(res)).toEqual({ reason: 'duplicate_key' });
    });

    it('validates the body: key pattern, name blank/length, description length, unknown property, missing fields', async () => {
      const tenant = await seedTenant(t);
      const path = typesPath(tenant);
      expect(fieldsOf(await admin.post(path, {}).expect(400))).toEqual(
        expect.arrayContaining([
          { path: 'body.key', rule: 'required' },
          { path: 'body.name', rule: 'required' },
        ]),
      );
      expect(fieldsOf(await admin.post(path, { key: 'Bad Key', name: 'x' }).expect(400))).toEqual([{ path: 'body.key', rule: 'pattern' }]);
      expect(fieldsOf(await admin.post(path, { key: 'ok', name: '   ' }).expect(400))).toEqual([{ path: 'body.name', rule: 'blank' }]);
      expect(fieldsOf(await admin.post(path, { key: 'ok', name: 'n'.repeat(201) }).expect(400))).toEqual([{ path: 'body.name', rule: 'max_length' }]);
      expect(fieldsOf(await admin.post(path, { key: 'ok', name: 'n', description: 'd'.repeat(501) }).expect(400))).toEqual([
        { path: 'body.description', rule: 'max_length' },
      ]);
      expect(fieldsOf(await admin.post(path, { key: 'ok', name: 'n', status: 'disabled' }).expect(400))).toEqual([
        { path: 'body.status', rule: 'unknown_property' },
      ]);
    });

    it('answers 404 for a tenant without an effective grant, 403 to viewers and unit-scoped admins', async () => {
      const [tenant, other] = [await seedTenant(t), await seedTenant(t)];
      const outsider = (await member(t, other, 'tenant_admin')).api;
      const missing = await outsider.post('/v1/tenants/2147483647/device-types', { key: 'x', name: 'x' }).expect(404);
      const foreign = await outsider.post(typesPath(tenant), { key: 'x', name: 'x' }).expect(404);
      expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));

      const viewer = (await member(t, tenant, 'tenant_viewer')).api;
      const denied = await viewer.post(typesPath(tenant), { key: 'x', name: 'x' }).expect(403);
      expect(denied.body.error.details).toEqual({ reason: 'missing_permission', permission: 'device-types:write' });

      const unitAdmin = (await member(t, tenant, 'tenant_admin', await seedUnit(t, tenant))).api;
      await unitAdmin.post(typesPath(tenant), { key: 'x', name: 'x' }).expect(403);
      const operator = (await member(t, tenant, 'tenant_operator')).api;
      await operator.post(typesPath(tenant), { key: 'x', name: 'x' }).expect(403);
    });
  });

  describe('GET /v1/tenants/{tenantNumber}/device-types', () => {
    it('pages ascending with a cursor and totalCount; filters by status and q (key or name, case-insensitive)', async () => {
      const tenant = await seedTenant(t);
      const created: ApiRecord[] = [];
      for (let i = 0; i < 27; i++) created.push(await createType(tenant, { key: `kind-${String(i).padStart(2, '0')}`, name: `Kind ${i}` }));
      const special = await createType(tenant, { key: 'weather.station', name: 'Rooftop WEATHER_probe' });
      await admin.post(`${typePath(special)}/disable`).set('If-Match', '"1"').expect(200);
      await seedDeviceType(t, await seedTenant(t)); // another tenant's type is not counted

      const first = await admin.get(typesPath(tenant)).expect(200);
      expect(first.body.totalCount).toBe(28);
      expect(first.body.items).toHaveLength(25);
      expect(first.body.items[0]).toEqual(created[0]);
      const second = await admin.get(`${typesPath(tenant)}?cursor=${first.body.nextCursor}`).expect(200);
      expect(second.body.items.map((item: { key: string }) => item.key)).toEqual(['kind-25', 'kind-26', 'weather.station']);
      expect(second.body.nextCursor).toBeUndefined();
      expect(second.body.totalCount).toBe(28);

      const mismatch = await admin.get(`${typesPath(tenant)}?status=active&cursor=${first.body.nextCursor}`).expect(400);
      expect(fieldsOf(mismatch)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);

      const disabled = await admin.get(`${typesPath(tenant)}?status=disabled`).expect(200);
      expect(disabled.body).toEqual({ items: [expect.objectContaining({ key: 'weather.station', status: 'disabled', lockVersion: 2 })], totalCount: 1 });
      const active = await admin.get(`${typesPath(tenant)}?status=active&limit=50`).expect(200);
      expect(active.body.totalCount).toBe(27);

      const byName = await admin.get(`${typesPath(tenant)}?q=weather_`).expect(200);
      expect(byName.body.items.map((item: { key: string }) => item.key)).toEqual(['weather.station']);
      const byKey = await admin.get(`${typesPath(tenant)}?q=KIND-2`).expect(200);
      expect(byKey.body.totalCount).toBe(7); // kind-20 … kind-26
    });

    it('validates the query and lets every role, unit-scoped too, read', async () => {
      const tenant = await seedTenant(t);
      await createType(tenant);
      expect(fieldsOf(await admin.get(`${typesPath(tenant)}?limit=10`).expect(400))).toEqual([{ path: 'query.limit', rule: 'enum' }]);
      expect(fieldsOf(await admin.get(`${typesPath(tenant)}?status=retired`).expect(400))).toEqual([{ path: 'query.status', rule: 'enum' }]);
      expect(fieldsOf(await admin.get(`${typesPath(tenant)}?q=${'x'.repeat(101)}`).expect(400))).toEqual([{ path: 'query.q', rule: 'max_length' }]);
      expect(fieldsOf(await admin.get(`${typesPath(tenant)}?sort=key`).expect(400))).toEqual([{ path: 'query.sort', rule: 'unknown_property' }]);
      expect(fieldsOf(await admin.get(`/v1/tenants/0/device-types`).expect(400))).toEqual([{ path: 'params.tenantNumber', rule: 'minimum' }]);

      for (const reader of [(await member(t, tenant, 'tenant_viewer')).api, (await member(t, tenant, 'tenant_admin', await seedUnit(t, tenant))).api]) {
        const res = await reader.get(typesPath(tenant)).expect(200);
        expect(res.body.totalCount).toBe(1);
      }
      const outsider = (await member(t, await seedTenant(t), 'tenant_admin')).api;
      await outsider.get(typesPath(tenant)).expect(404);
    });
  });

  describe('GET / PATCH /v1/device-types/{deviceTypeId}', () => {
    it('updates name and description with If-Match: +1 per success, ETag, audit with changed fields', async () => {
      const tenant = await seedTenant(t);
      const type = await createType(tenant);
      const renamed = await admin.patch(typePath(type), { name: 'Renamed' }).set('If-Match', '"1"').expect(200);
      expect(renamed.body).toMatchObject({ name: 'Renamed', description: '', lockVersion: 2, key: type.key });
      expect(renamed.headers.etag).toBe('"2"');
      expect(renamed.body.updatedAt >= (type.updatedAt as string)).toBe(true);

      const weak = await admin.patch(typePath(type), { description: 'Outdoor' }).set('If-Match', 'W/"2"').expect(200);
      expect(weak.body).toMatchObject({ name: 'Renamed', description: 'Outdoor', lockVersion: 3 });
      expect(weak.headers.etag).toBe('"3"');

      // A PATCH that changes no value is still a successful mutation: a new version.
      const same = await admin.patch(typePath(type), { name: 'Renamed' }).set('If-Match', '"3"').expect(200);
      expect(same.body.lockVersion).toBe(4);

      const audits = await auditRows(t, 'device_type', type.deviceTypeId, 'device_type.updated');
      expect(audits.map((row) => row.metadata)).toEqual([
        expect.objectContaining({ changedFields: ['name'], name: { before: 'Thermometer', after: 'Renamed' }, lockVersion: { before: 1, after: 2 } }),
        expect.objectContaining({ changedFields: ['description'], lockVersion: { before: 2, after: 3 } }),
        expect.objectContaining({ changedFields: [], lockVersion: { before: 3, after: 4 } }),
      ]);
      expect(audits[0]).toMatchObject({ tenant_id: tenant.tenantId, action: 'update', outcome: 'success' });

      const read = await admin.get(typePath(type)).expect(200);
      expect(read.headers.etag).toBe('"4"');
    });

    it('If-Match: missing 400 required, malformed 400 pattern, stale 409 lock_version_mismatch', async () => {
      const tenant = await seedTenant(t);
      const type = await createType(tenant);
      expect(fieldsOf(await admin.patch(typePath(type), { name: 'x' }).expect(400))).toEqual([{ path: 'headers.if-match', rule: 'required' }]);
      for (const header of ['1', '"0"', '*', 'W/1']) {
        const res = await admin.patch(typePath(type), { name: 'x' }).set('If-Match', header).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'headers.if-match', rule: 'pattern' }]);
      }
      const stale = await admin.patch(typePath(type), { name: 'x' }).set('If-Match', '"7"').expect(409);
      expect(conflictOf(stale)).toEqual({ reason: 'lock_version_mismatch', currentLockVersion: 1 });
      const unchanged = await admin.get(typePath(type)).expect(200);
      expect(unchanged.body).toEqual(type);
    });

    it('validates the PATCH body: empty → min_properties, key immutable, name blank', async () => {
      const tenant = await seedTenant(t);
      const type = await createType(tenant);
      expect(fieldsOf(await admin.patch(typePath(type), {}).set('If-Match', '"1"').expect(400))).toEqual([{ path: 'body', rule: 'min_properties' }]);
      expect(fieldsOf(await admin.patch(typePath(type), { key: 'other' }).set('If-Match', '"1"').expect(400))).toEqual([
        { path: 'body.key', rule: 'unknown_property' },
      ]);
      expect(fieldsOf(await admin.patch(typePath(type), { name: '' }).set('If-Match', '"1"').expect(400))).toEqual([{ path: 'body.name', rule: 'blank' }]);
      expect(fieldsOf(await admin.get('/v1/device-types/not-a-uuid').expect(400))).toEqual([{ path: 'params.deviceTypeId', rule: 'format' }]);
      // Check order within 400: path, then headers, then body.
      expect(fieldsOf(await admin.patch('/v1/device-types/not-a-uuid', {}).expect(400))).toEqual([{ path: 'params.deviceTypeId', rule: 'format' }]);
      expect(fieldsOf(await admin.patch(typePath(type), { name: '' }).expect(400))).toEqual([{ path: 'headers.if-match', rule: 'required' }]);
      expect(fieldsOf(await admin.patch(`${fieldsPath(type)}/Bad`, {}).expect(400))).toEqual([{ path: 'params.key', rule: 'pattern' }]);
      expect(fieldsOf(await admin.patch(`/v1/device-types/nope/fields/Bad`, {}).expect(400))).toEqual([{ path: 'params.deviceTypeId', rule: 'format' }]);
    });

    it('hides another tenant’s type exactly like a missing one; refuses writes to viewers and unit-scoped admins (403)', async () => {
      const [tenant, other] = [await seedTenant(t), await seedTenant(t)];
      const type = await createType(tenant);
      const outsider = (await member(t, other, 'tenant_admin')).api;
      const missing = await outsider.get(`/v1/device-types/${randomUUID()}`).expect(404);
      expect(missing.body.error.details).toEqual({ resourceType: 'device_type' });
      expect(withoutCorrelation(await outsider.get(typePath(type)).expect(404))).toEqual(withoutCorrelation(missing));
      const foreignPatch = await outsider.patch(typePath(type), { name: 'x' }).set('If-Match', '"1"').expect(404);
      expect(withoutCorrelation(foreignPatch)).toEqual(withoutCorrelation(missing));
      await outsider.post(`${typePath(type)}/disable`).set('If-Match', '"1"').expect(404);

      const viewer = (await member(t, tenant, 'tenant_viewer')).api;
      await viewer.get(typePath(type)).expect(200);
      const denied = await viewer.patch(typePath(type), { name: 'x' }).set('If-Match', '"1"').expect(403);
      expect(denied.body.error.details).toEqual({ reason: 'missing_permission', permission: 'device-types:write' });
      // 403 comes before the If-Match comparison.
      await viewer.patch(typePath(type), { name: 'x' }).set('If-Match', '"9"').expect(403);
      await viewer.post(`${typePath(type)}/disable`).set('If-Match', '"1"').expect(403);

      const unitAdmin = (await member(t, tenant, 'tenant_admin', await seedUnit(t, tenant))).api;
      await unitAdmin.get(typePath(type)).expect(200);
      await unitAdmin.patch(typePath(type), { name: 'x' }).set('If-Match', '"1"').expect(403);

      const [denial] = await t.dataSource.query(
        `SELECT outcome, tenant_id FROM audit_log WHERE outcome = 'denied' AND tenant_id = $1 AND route = '/v1/device-types/{deviceTypeId}'`,
        [tenant.tenantId],
      );
      expect(denial).toEqual({ outcome: 'denied', tenant_id: tenant.tenantId });
    });
  });

  describe('POST /v1/device-types/{deviceTypeId}/disable | reactivate', () => {
    it('moves active ⇄ disabled with If-Match; the same state again is 409 invalid_state; stale wins over state', async () => {
      const tenant = await seedTenant(t);
      const type = await createType(tenant);
      await admin.post(`${typePath(type)}/disable`).expect(400);
      const disabled = await admin.post(`${typePath(type)}/disable`).set('If-Match', '"1"').expect(200);
      expect(disabled.body).toMatchObject({ status: 'disabled', lockVersion: 2 });
      expect(disabled.headers.etag).toBe('"2"');

      const again = await admin.post(`${typePath(type)}/disable`).set('If-Match', '"2"').expect(409);
      expect(conflictOf(again)).toEqual({ reason: 'invalid_state', currentStatus: 'disabled' });
      const stale = await admin.post(`${typePath(type)}/disable`).set('If-Match', '"1"').expect(409);
      expect(conflictOf(stale)).toEqual({ reason: 'lock_version_mismatch', currentLockVersion: 2 });

      const reactivated = await admin.post(`${typePath(type)}/reactivate`).set('If-Match', 'W/"2"').expect(200);
      expect(reactivated.body).toMatchObject({ status: 'active', lockVersion: 3 });
      expect(reactivated.headers.etag).toBe('"3"');
      const twice = await admin.post(`${typePath(type)}/reactivate`).set('If-Match', '"3"').expect(409);
      expect(conflictOf(twice)).toEqual({ reason: 'invalid_state', currentStatus: 'active' });

      const [off] = await auditRows(t, 'device_type', type.deviceTypeId, 'device_type.disabled');
      expect(off).toMatchObject({ action: 'disable', metadata: { status: { before: 'active', after: 'disabled' }, lockVersion: { before: 1, after: 2 } } });
      const [on] = await auditRows(t, 'device_type', type.deviceTypeId, 'device_type.reactivated');
      expect(on).toMatchObject({ action: 'reactivate', metadata: { status: { before: 'disabled', after: 'active' } } });
    });
  });

  describe('fields', () => {
    it('creates a field: 201, lockVersion 1, ETag, Location, canonical storage targets, audit; get and list', async () => {
      const tenant = await seedTenant(t);
      const type = await createType(tenant);
      const tenantAdmin = (await member(t, tenant, 'tenant_admin')).api;
      const res = await tenantAdmin
        .post(fieldsPath(type), { key: 'temp.c', name: 'Temperature', schemaRef: NUMBER_REF, unit: '°C', storageTargets: ['timeseries', 'current'], measurementType: 'gauge' })
        .expect(201);
      expect(res.body).toEqual({
        deviceFieldDefinitionId: expect.stringMatching(UUID),
        tenantId: tenant.tenantId,
        deviceTypeId: type.deviceTypeId,
        key: 'temp.c',
        name: 'Temperature',
        description: '',
        schemaRef: NUMBER_REF,
        unit: '°C',
        storageTargets: ['current', 'timeseries'],
        measurementType: 'gauge',
        status: 'active',
        lockVersion: 1,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
        deprecatedAt: null,
      });
      expect(res.headers.etag).toBe('"1"');
      expect(res.headers.location).toBe(`/v1/device-types/${type.deviceTypeId}/fields/temp.c`);

      const read = await tenantAdmin.get(res.headers.location!).expect(200);
      expect(read.body).toEqual(res.body);
      expect(read.headers.etag).toBe('"1"');

      const noUnit = await admin.post(fieldsPath(type), fieldBody({ key: 'state', unit: undefined, schemaRef: 'platform://schemas/string/v1', measurementType: 'status', storageTargets: ['current'] })).expect(201);
      expect(noUnit.body).toMatchObject({ unit: null, storageTargets: ['current'] });
      const nullUnit = await admin.post(fieldsPath(type), fieldBody({ key: 'evt', unit: null, description: 'Events', storageTargets: ['timeseries'] })).expect(201);
      expect(nullUnit.body).toMatchObject({ unit: null, description: 'Events', storageTargets: ['timeseries'] });

      const list = await tenantAdmin.get(fieldsPath(type)).expect(200);
      expect(Array.isArray(list.body)).toBe(true);
      expect(list.body.map((field: { key: string }) => field.key)).toEqual(['temp.c', 'state', 'evt']);
      expect(list.body[0]).toEqual(res.body);
      expect(JSON.stringify(list.body)).not.toContain('fieldNo');

      const [audit] = await auditRows(t, 'device_field', res.body.deviceFieldDefinitionId, 'device_field.created');
      expect(audit).toMatchObject({ tenant_id: tenant.tenantId, action: 'create', status_code: 201, metadata: { deviceTypeId: type.deviceTypeId, key: 'temp.c' } });
      // The type itself is not a new version when it gains a field.
      expect((await admin.get(typePath(type)).expect(200)).body.lockVersion).toBe(1);
    });

    it('accepts a new field on a disabled type', async () => {
      const tenant = await seedTenant(t);
      const type = await seedDeviceType(t, tenant, { status: 'disabled' });
      await admin.post(fieldsPath(type), fieldBody()).expect(201);
    });

    it('validates the field body: key pattern, enums, storageTargets, unit, unknown property', async () => {
      const tenant = await seedTenant(t);
      const type = await seedDeviceType(t, tenant);
      const rulesOf = async (overrides: Record<string, unknown>) => fieldsOf(await admin.post(fieldsPath(type), fieldBody(overrides)).expect(400));

      expect(await rulesOf({ key: '1abc' })).toEqual([{ path: 'body.key', rule: 'pattern' }]);
      expect(await rulesOf({ key: 'Temp' })).toEqual([{ path: 'body.key', rule: 'pattern' }]);
      expect(await rulesOf({ key: `a${'b'.repeat(120)}` })).toEqual([{ path: 'body.key', rule: 'pattern' }]);
      expect(await rulesOf({ schemaRef: 'platform://schemas/number/v2' })).toEqual([{ path: 'body.schemaRef', rule: 'enum' }]);
      expect(await rulesOf({ measurementType: 'histogram' })).toEqual([{ path: 'body.measurementType', rule: 'enum' }]);
      expect(await rulesOf({ storageTargets: [] })).toEqual([{ path: 'body.storageTargets', rule: 'min_items' }]);
      expect(await rulesOf({ storageTargets: ['current', 'timeseries', 'current'] })).toEqual([{ path: 'body.storageTargets', rule: 'max_items' }]);
      expect(await rulesOf({ storageTargets: ['current', 'current'] })).toEqual([{ path: 'body.storageTargets', rule: 'unique' }]);
      expect(await rulesOf({ storageTargets: ['archive'] })).toEqual([{ path: 'body.storageTargets', rule: 'enum' }]);
      expect(await rulesOf({ storageTargets: 'current' })).toEqual([{ path: 'body.storageTargets', rule: 'type' }]);
      expect(await rulesOf({ unit: '' })).toEqual([{ path: 'body.unit', rule: 'min_length' }]);
      expect(await rulesOf({ unit: 'u'.repeat(41) })).toEqual([{ path: 'body.unit', rule: 'max_length' }]);
      expect(await rulesOf({ name: ' ' })).toEqual([{ path: 'body.name', rule: 'blank' }]);
      expect(await rulesOf({ description: 'd'.repeat(501) })).toEqual([{ path: 'body.description', rule: 'max_length' }]);
      expect(await rulesOf({ fieldNo: 7 })).toEqual([{ path: 'body.fieldNo', rule: 'unknown_property' }]);
      expect(fieldsOf(await admin.post(fieldsPath(type), {}).expect(400))).toEqual(
        expect.arrayContaining(
          ['key', 'name', 'schemaRef', 'storageTargets', 'measurementType'].map((name) => ({ path: `body.${name}`, rule: 'required' })),
        ),
      );
    });

    it('refuses a duplicate key, deprecated keys included; the same key is free on another type', async () => {
      const tenant = await seedTenant(t);
      const type = await seedDeviceType(t, tenant);
      await seedField(t, tenant, type, { key: 'old', status: 'deprecated' });
      await admin.post(fieldsPath(type), fieldBody({ key: 'temp' })).expect(201);
      expect(conflictOf(await admin.post(fieldsPath(type), fieldBody({ key: 'temp' })).expect(409))).toEqual({ reason: 'duplicate_key' });
      expect(conflictOf(await admin.post(fieldsPath(type), fieldBody({ key: 'old' })).expect(409))).toEqual({ reason: 'duplicate_key' });
      await admin.post(fieldsPath(await seedDeviceType(t, tenant)), fieldBody({ key: 'temp' })).expect(201);
    });

    it('holds at most 200 active fields, also under concurrent creates; deprecating one frees a slot', async () => {
      const tenant = await seedTenant(t);
      const type = await seedDeviceType(t, tenant);
      await seedField(t, tenant, type, { key: 'gone', status: 'deprecated' }); // deprecated fields do not count
      await seedManyFields(t, tenant, type, 199, 'f');

      const racing = await Promise.all(Array.from({ length: 5 }, (_, i) => admin.post(fieldsPath(type), fieldBody({ key: `race${i}` }))));
      expect(racing.map((res) => res.status).sort()).toEqual([201, 409, 409, 409, 409]);
      for (const res of racing.filter((r) => r.status === 409)) {
        expect(conflictOf(res)).toEqual({ reason: 'max_fields', maxFields: 200 });
      }
      const [{ active }] = await t.dataSource.query(`SELECT count(*)::int AS active FROM device_field_definitions WHERE device_type_id = $1 AND status = 'active'`, [
        type.deviceTypeId,
      ]);
      expect(active).toBe(200);

      await admin.post(`${fieldPath(type, 'f1')}/deprecate`).set('If-Match', '"1"').expect(200);
      await admin.post(fieldsPath(type), fieldBody({ key: 'after' })).expect(201);
      expect(conflictOf(await admin.post(fieldsPath(type), fieldBody({ key: 'one-more' })).expect(409))).toMatchObject({ reason: 'max_fields' });
      expect((await admin.get(fieldsPath(type)).expect(200)).body).toHaveLength(202); // 1 + 199 seeded, race winner, `after`
    });

    it('updates name, description, unit (null clears) and storageTargets with If-Match; +1 per success; audit', async () => {
      const tenant = await seedTenant(t);
      const type = await seedDeviceType(t, tenant);
      const created = (await admin.post(fieldsPath(type), fieldBody({ key: 'temp', storageTargets: ['current'] })).expect(201)).body;

      const res = await admin
        .patch(fieldPath(type, 'temp'), { name: 'Air temperature', unit: null, storageTargets: ['timeseries', 'current'] })
        .set('If-Match', '"1"')
        .expect(200);
      expect(res.body).toEqual({
        ...created,
        name: 'Air temperature',
        unit: null,
        storageTargets: ['current', 'timeseries'],
        lockVersion: 2,
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(res.headers.etag).toBe('"2"');
      const described = await admin.patch(fieldPath(type, 'temp'), { description: 'Measured at 2 m', unit: 'K' }).set('If-Match', 'W/"2"').expect(200);
      expect(described.body).toMatchObject({ description: 'Measured at 2 m', unit: 'K', lockVersion: 3 });

      const [audit] = await auditRows(t, 'device_field', created.deviceFieldDefinitionId, 'device_field.updated');
      expect(audit).toMatchObject({
        action: 'update',
        metadata: {
          key: 'temp',
          changedFields: ['name', 'unit', 'storageTargets'],
          storageTargets: { before: ['current'], after: ['current', 'timeseries'] },
          lockVersion: { before: 1, after: 2 },
        },
      });
    });

    it('validates field PATCH: If-Match, min_properties, immutable properties, storageTargets, path key', async () => {
      const tenant = await seedTenant(t);
      const type = await seedDeviceType(t, tenant);
      await admin.post(fieldsPath(type), fieldBody({ key: 'temp' })).expect(201);
      const path = fieldPath(type, 'temp');
      expect(fieldsOf(await admin.patch(path, { name: 'x' }).expect(400))).toEqual([{ path: 'headers.if-match', rule: 'required' }]);
      expect(fieldsOf(await admin.patch(path, { name: 'x' }).set('If-Match', '2').expect(400))).toEqual([{ path: 'headers.if-match', rule: 'pattern' }]);
      expect(fieldsOf(await admin.patch(path, {}).set('If-Match', '"1"').expect(400))).toEqual([{ path: 'body', rule: 'min_properties' }]);
      for (const immutable of ['key', 'schemaRef', 'measurementType', 'status']) {
        const res = await admin.patch(path, { [immutable]: 'x' }).set('If-Match', '"1"').expect(400);
        expect(fieldsOf(res)).toEqual([{ path: `body.${immutable}`, rule: 'unknown_property' }]);
      }
      expect(fieldsOf(await admin.patch(path, { storageTargets: [] }).set('If-Match', '"1"').expect(400))).toEqual([
        { path: 'body.storageTargets', rule: 'min_items' },
      ]);
      expect(fieldsOf(await admin.patch(path, { storageTargets: null }).set('If-Match', '"1"').expect(400))).toEqual([
        { path: 'body.storageTargets', rule: 'required' },
      ]);
      expect(fieldsOf(await admin.get(fieldPath(type, 'Temp')).expect(400))).toEqual([{ path: 'params.key', rule: 'pattern' }]);
      expect(fieldsOf(await admin.patch(fieldPath(type, '9x'), { name: 'x' }).set('If-Match', '"1"').expect(400))).toEqual([
        { path: 'params.key', rule: 'pattern' },
      ]);
      const stale = await admin.patch(path, { name: 'x' }).set('If-Match', '"5"').expect(409);
      expect(conflictOf(stale)).toEqual({ reason: 'lock_version_mismatch', currentLockVersion: 1 });
    });

    it('deprecates: 200, deprecatedAt, new ETag, still listed and readable; deprecated is terminal (409 invalid_state)', async () => {
      const tenant = await seedTenant(t);
      const type = await seedDeviceType(t, tenant);
      const created = (await admin.post(fieldsPath(type), fieldBody({ key: 'temp' })).expect(201)).body;
      await admin.post(fieldsPath(type), fieldBody({ key: 'hum' })).expect(201);
      const path = fieldPath(type, 'temp');

      expect(fieldsOf(await admin.post(`${path}/deprecate`).expect(400))).toEqual([{ path: 'headers.if-match', rule: 'required' }]);
      expect(conflictOf(await admin.post(`${path}/deprecate`).set('If-Match', '"2"').expect(409))).toEqual({
        reason: 'lock_version_mismatch',
        currentLockVersion: 1,
      });
      const res = await admin.post(`${path}/deprecate`).set('If-Match', 'W/"1"').expect(200);
      expect(res.body).toEqual({ ...created, status: 'deprecated', lockVersion: 2, updatedAt: expect.stringMatching(ISO_MS), deprecatedAt: expect.stringMatching(ISO_MS) });
      expect(res.body.deprecatedAt).toBe(res.body.updatedAt);
      expect(res.headers.etag).toBe('"2"');

      const list = await admin.get(fieldsPath(type)).expect(200);
      expect(list.body.map((field: { key: string; status: string }) => [field.key, field.status])).toEqual([
        ['temp', 'deprecated'],
        ['hum', 'active'],
      ]);
      expect((await admin.get(path).expect(200)).body).toEqual(res.body);

      const again = await admin.post(`${path}/deprecate`).set('If-Match', '"2"').expect(409);
      expect(conflictOf(again)).toEqual({ reason: 'invalid_state', currentStatus: 'deprecated' });
      const patch = await admin.patch(path, { name: 'x' }).set('If-Match', '"2"').expect(409);
      expect(conflictOf(patch)).toEqual({ reason: 'invalid_state', currentStatus: 'deprecated' });
      // If-Match is compared before the state.
      expect(conflictOf(await admin.patch(path, { name: 'x' }).set('If-Match', '"1"').expect(409))).toMatchObject({ reason: 'lock_version_mismatch' });

      const [audit] = await auditRows(t, 'device_field', created.deviceFieldDefinitionId, 'device_field.deprecated');
      expect(audit).toMatchObject({
        tenant_id: tenant.tenantId,
        action: 'deprecate',
        metadata: { key: 'temp', status: { before: 'active', after: 'deprecated' }, lockVersion: { before: 1, after: 2 } },
      });
    });

    it('404s: unknown key (device_field), another tenant’s type exactly like a random id; 403 for viewers and unit-scoped admins', async () => {
      const [tenant, other] = [await seedTenant(t), await seedTenant(t)];
      const type = await seedDeviceType(t, tenant);
      await seedField(t, tenant, type, { key: 'temp' });
      const noField = await admin.get(fieldPath(type, 'nope')).expect(404);
      expect(noField.body.error.details).toEqual({ resourceType: 'device_field' });
      await admin.patch(fieldPath(type, 'nope'), { name: 'x' }).set('If-Match', '"1"').expect(404);
      await admin.post(`${fieldPath(type, 'nope')}/deprecate`).set('If-Match', '"1"').expect(404);

      const outsider = (await member(t, other, 'tenant_admin')).api;
      const random = { deviceTypeId: randomUUID() };
      const pairs: [(api: Api, target: { deviceTypeId: string }) => Promise<Response>][] = [
        [(api, target) => api.get(fieldsPath(target))],
        [(api, target) => api.get(fieldPath(target, 'temp'))],
        [(api, target) => api.post(fieldsPath(target), fieldBody())],
        [(api, target) => api.patch(fieldPath(target, 'temp'), { name: 'x' }).set('If-Match', '"1"')],
        [(api, target) => api.post(`${fieldPath(target, 'temp')}/deprecate`).set('If-Match', '"1"')],
      ];
      for (const [call] of pairs) {
        const foreign = await call(outsider, type);
        const missing = await call(outsider, random);
        expect(foreign.status).toBe(404);
        expect(withoutCorrelation(foreign)).toEqual(withoutCorrelation(missing));
        expect(foreign.body.error.details).toEqual({ resourceType: 'device_type' });
      }

      for (const reader of [(await member(t, tenant, 'tenant_viewer')).api, (await member(t, tenant, 'tenant_admin', await seedUnit(t, tenant))).api]) {
        await reader.get(fieldsPath(type)).expect(200);
        await reader.get(fieldPath(type, 'temp')).expect(200);
        const denied = await reader.post(fieldsPath(type), fieldBody()).expect(403);
        expect(denied.body.error.details).toEqual({ reason: 'missing_permission', permission: 'device-types:write' });
        await reader.patch(fieldPath(type, 'temp'), { name: 'x' }).set('If-Match', '"1"').expect(403);
        await reader.post(`${fieldPath(type, 'temp')}/deprecate`).set('If-Match', '"1"').expect(403);
      }
      const [field] = await t.dataSource.query(`SELECT status, lock_version FROM device_field_definitions WHERE device_type_id = $1`, [type.deviceTypeId]);
      expect(field).toEqual({ status: 'active', lock_version: 1 });
    });
  });
});
