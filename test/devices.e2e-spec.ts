import { randomUUID } from 'node:crypto';
import type { TenantRole } from '../src/shared/access/permissions';
import { login, loginAdmin, seedUser } from './support/auth';
import { randomDevEui, seedAssignment, seedDevice, seedDeviceType, SeededDeviceType } from './support/devices';
import { as, fieldsOf, withoutCorrelation } from './support/http';
import { seedChain, seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { auditRows } from './support/audit';
import { member } from './support/member';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;

type Api = ReturnType<typeof as>;

const devicesPath = (tenant: SeededTenant) => `/v1/tenants/${tenant.tenantNumber}/devices`;
const devicePath = (device: { deviceId: string }) => `/v1/devices/${device.deviceId}`;
const assignmentsPath = (device: { deviceId: string }) => `/v1/devices/${device.deviceId}/assignments`;
const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();

describe('devices API', () => {
  let t: TestApp;
  let admin: Api;
  let tenant: SeededTenant;
  let type: SeededDeviceType;

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
    type = await seedDeviceType(t, tenant);
  });
  afterAll(() => t.close());

  describe('POST /v1/tenants/{tenantNumber}/devices', () => {
    it('creates an unassigned device: 201, Location, record, audit', async () => {
      const devEui = randomDevEui();
      const res = await admin
        .post(devicesPath(tenant), { devEui, name: 'Boiler sensor', deviceTypeId: type.deviceTypeId, metadata: { floor: '2' } })
        .expect(201);
      expect(res.body).toEqual({
        deviceId: expect.stringMatching(UUID),
        tenantId: tenant.tenantId,
        deviceTypeId: type.deviceTypeId,
        devEui,
        name: 'Boiler sensor',
        status: 'active',
        metadata: { floor: '2' },
        currentAssignment: null,
        lastSeenAt: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(res.headers.location).toBe(`/v1/devices/${res.body.deviceId}`);
      const [event] = await auditRows(t, 'device', res.body.deviceId, 'device.created');
      expect(event).toMatchObject({ tenant_id: tenant.tenantId, action: 'create' });
    });

    it('creates a device straight into a unit, opening its first period', async () => {
      const unit = await seedUnit(t, tenant);
      const res = await admin
        .post(devicesPath(tenant), { devEui: randomDevEui(), name: 'In a unit', deviceTypeId: type.deviceTypeId, organizationUnitId: unit.organizationUnitId })
        .expect(201);
      expect(res.body.currentAssignment).toEqual({
        deviceAssignmentId: expect.stringMatching(UUID),
        deviceId: res.body.deviceId,
        tenantId: tenant.tenantId,
        organizationUnitId: unit.organizationUnitId,
        validFrom: expect.stringMatching(ISO_MS),
        validTo: null,
        assignedAt: expect.stringMatching(ISO_MS),
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(await auditRows(t, 'device', res.body.deviceId, 'device.assigned')).toHaveLength(1);
    });

    it.each([
      ['lowercase', 'a1b2c3d4e5f60718', 'pattern'],
      ['too short', 'A1B2C3D4E5F6071', 'pattern'],
      ['separators', 'A1-B2-C3-D4-E5-F6', 'pattern'],
      ['not a string', 1234, 'type'],
    ])('rejects a %s devEui as sent (no normalising)', async (_name, devEui, rule) => {
      const res = await admin.post(devicesPath(tenant), { devEui, name: 'x', deviceTypeId: type.deviceTypeId }).expect(400);
      expect(fieldsOf(res)).toContainEqual({ path: 'body.devEui', rule });
    });

    it('rejects missing fields, unknown properties and bad metadata', async () => {
      const res = await admin.post(devicesPath(tenant), { extra: 1, metadata: { a: 1 } }).expect(400);
      expect(fieldsOf(res)).toEqual(
        expect.arrayContaining([
          { path: 'body.devEui', rule: 'required' },
          { path: 'body.name', rule: 'required' },
          { path: 'body.deviceTypeId', rule: 'required' },
          { path: 'body.extra', rule: 'unknown_property' },
          { path: 'body.metadata', rule: 'type' },
        ]),
      );
    });

    it('refuses a devEui held by a non-retired device of another tenant, without naming it', async () => {
      const other = await seedTenant(t);
      const otherType = await seedDeviceType(t, other);
      const held = await seedDevice(t, other, otherType);
      const res = await admin.post(devicesPath(tenant), { devEui: held.devEui, name: 'Clash', deviceTypeId: type.deviceTypeId }).expect(409);
      expect(res.body.error.details).toEqual({ reason: 'duplicate_dev_eui' });
      expect(JSON.stringify(res.body)).not.toContain(other.tenantId);
      expect(JSON.stringify(res.body)).not.toContain(other.key);
    });

    it('gives one 201 and one 409 when two tenants race for one devEui', async () => {
      const other = await seedTenant(t);
      const otherType = await seedDeviceType(t, other);
      const devEui = randomDevEui();
      const results = await Promise.all([
        admin.post(devicesPath(tenant), { devEui, name: 'A', deviceTypeId: type.deviceTypeId }),
        admin.post(devicesPath(other), { devEui, name: 'B', deviceTypeId: otherType.deviceTypeId }),
      ]);
      expect(results.map((res) => res.status).sort()).toEqual([201, 409]);
    });

    it('lets a retired device’s devEui be registered again', async () => {
      const devEui = randomDevEui();
      const first = await admin.post(devicesPath(tenant), { devEui, name: 'First', deviceTypeId: type.deviceTypeId }).expect(201);
      await admin.post(devicesPath(tenant), { devEui, name: 'Second', deviceTypeId: type.deviceTypeId }).expect(409);
      await admin.post(`${devicePath(first.body)}/retire`).expect(200);
      const second = await admin.post(devicesPath(tenant), { devEui, name: 'Second', deviceTypeId: type.deviceTypeId }).expect(201);
      expect(second.body.deviceId).not.toBe(first.body.deviceId);
    });

    it('refuses a disabled device type (409) and an unknown or foreign one (400)', async () => {
      const disabled = await seedDeviceType(t, tenant, { status: 'disabled' });
      const res = await admin.post(devicesPath(tenant), { devEui: randomDevEui(), name: 'x', deviceTypeId: disabled.deviceTypeId }).expect(409);
      expect(res.body.error.details).toEqual({ reason: 'device_type_disabled' });

      const foreignType = await seedDeviceType(t, await seedTenant(t));
      for (const deviceTypeId of [randomUUID(), foreignType.deviceTypeId]) {
        const bad = await admin.post(devicesPath(tenant), { devEui: randomDevEui(), name: 'x', deviceTypeId }).expect(400);
        expect(fieldsOf(bad)).toEqual([{ path: 'body.deviceTypeId', rule: 'reference_not_found' }]);
      }
    });

    it('refuses a disabled unit (409) and an unknown one (400)', async () => {
      const root = await seedUnit(t, tenant, null, { status: 'disabled' });
      const below = await seedUnit(t, tenant, root);
      const res = await admin
        .post(devicesPath(tenant), { devEui: randomDevEui(), name: 'x', deviceTypeId: type.deviceTypeId, organizationUnitId: below.organizationUnitId })
        .expect(409);
      expect(res.body.error.details).toEqual({ reason: 'organization_unit_disabled' });
      const bad = await admin
        .post(devicesPath(tenant), { devEui: randomDevEui(), name: 'x', deviceTypeId: type.deviceTypeId, organizationUnitId: randomUUID() })
        .expect(400);
      expect(fieldsOf(bad)).toEqual([{ path: 'body.organizationUnitId', rule: 'reference_not_found' }]);
    });

    it('makes a unit-scoped operator name one of its units, and refuses a viewer', async () => {
      const [root, child] = await seedChain(t, tenant, 2);
      const sibling = await seedUnit(t, tenant);
      const operator = (await member(t, tenant, 'tenant_operator', root!)).api;
      const body = { name: 'Scoped', deviceTypeId: type.deviceTypeId };

      const unassigned = await operator.post(devicesPath(tenant), { ...body, devEui: randomDevEui() }).expect(400);
      expect(fieldsOf(unassigned)).toEqual([{ path: 'body.organizationUnitId', rule: 'required' }]);
      const outside = await operator.post(devicesPath(tenant), { ...body, devEui: randomDevEui(), organizationUnitId: sibling.organizationUnitId }).expect(400);
      expect(fieldsOf(outside)).toEqual([{ path: 'body.organizationUnitId', rule: 'reference_not_found' }]);
      await operator.post(devicesPath(tenant), { ...body, devEui: randomDevEui(), organizationUnitId: child!.organizationUnitId }).expect(201);

      const viewer = (await member(t, tenant, 'tenant_viewer')).api;
      const denied = await viewer.post(devicesPath(tenant), { ...body, devEui: randomDevEui() }).expect(403);
      expect(denied.body.error.details).toEqual({ reason: 'missing_permission', permission: 'devices:write' });
    });

    it('answers 404 for a tenant the caller has no grant in', async () => {
      const other = await seedTenant(t);
      const outsider = (await member(t, other, 'tenant_admin')).api;
      const res = await outsider.post(devicesPath(tenant), { devEui: randomDevEui(), name: 'x', deviceTypeId: type.deviceTypeId }).expect(404);
      expect(res.body.error.details).toEqual({ resourceType: 'tenant' });
    });
  });

  describe('GET /v1/tenants/{tenantNumber}/devices', () => {
    let listTenant: SeededTenant;
    let listType: SeededDeviceType;
    let otherType: SeededDeviceType;
    let chain: SeededUnit[];
    let sibling: SeededUnit;
    const devices: Record<string, { deviceId: string; devEui: string }> = {};

    beforeAll(async () => {
      listTenant = await seedTenant(t);
      listType = await seedDeviceType(t, listTenant);
      otherType = await seedDeviceType(t, listTenant);
      chain = await seedChain(t, listTenant, 2);
      sibling = await seedUnit(t, listTenant);
      devices.unassigned = await seedDevice(t, listTenant, listType, null, { name: 'Unassigned pump' });
      devices.root = await seedDevice(t, listTenant, listType, chain[0]!, { name: 'Root meter' });
      devices.child = await seedDevice(t, listTenant, otherType, chain[1]!, { name: 'Child meter', devEui: 'ABCDEF0000000001' });
      devices.sibling = await seedDevice(t, listTenant, listType, sibling, { name: 'Sibling valve', status: 'disabled' });
      // Seeded rows can share a millisecond, and equal createdAt falls back to id order: space them out in seeding order.
      const seeded = [devices.unassigned, devices.root, devices.child, devices.sibling].map((device) => device.deviceId);
      await t.dataSource.query(
        `UPDATE devices d SET created_at = '2026-01-01T00:00:00Z'::timestamptz + (o.n * interval '1 second')
           FROM unnest($1::uuid[]) WITH ORDINALITY AS o(device_id, n) WHERE d.device_id = o.device_id`,
        [seeded],
      );
    });

    const names = (res: { body: { items: { name: string }[] } }) => res.body.items.map((item) => item.name);

    it('lists every device to a tenant admin, with its open period and totalCount', async () => {
      const res = await admin.get(devicesPath(listTenant)).expect(200);
      expect(names(res)).toEqual(['Unassigned pump', 'Root meter', 'Child meter', 'Sibling valve']);
      expect(res.body.totalCount).toBe(4);
      expect(res.body.items[1].currentAssignment.organizationUnitId).toBe(chain[0]!.organizationUnitId);
    });

    it('filters by status, type, unit (with and without descendants), devEui and q', async () => {
      expect(names(await admin.get(`${devicesPath(listTenant)}?status=disabled`).expect(200))).toEqual(['Sibling valve']);
      expect(names(await admin.get(`${devicesPath(listTenant)}?deviceTypeId=${otherType.deviceTypeId}`).expect(200))).toEqual(['Child meter']);
      const unit = chain[0]!.organizationUnitId;
      expect(names(await admin.get(`${devicesPath(listTenant)}?organizationUnitId=${unit}`).expect(200))).toEqual(['Root meter', 'Child meter']);
      expect(names(await admin.get(`${devicesPath(listTenant)}?organizationUnitId=${unit}&includeDescendants=false`).expect(200))).toEqual([
        'Root meter',
      ]);
      expect(names(await admin.get(`${devicesPath(listTenant)}?devEui=ABCDEF0000000001`).expect(200))).toEqual(['Child meter']);
      expect(names(await admin.get(`${devicesPath(listTenant)}?q=METER`).expect(200))).toEqual(['Root meter', 'Child meter']);
      expect(names(await admin.get(`${devicesPath(listTenant)}?q=abcdef`).expect(200))).toEqual(['Child meter']);
    });

    it('shows a unit-scoped viewer only the devices currently in its units', async () => {
      const viewer = (await member(t, listTenant, 'tenant_viewer', chain[1]!)).api;
      const res = await viewer.get(devicesPath(listTenant)).expect(200);
      expect(names(res)).toEqual(['Child meter']);
      expect(res.body.totalCount).toBe(1);
      await viewer.get(devicePath(devices.child!)).expect(200);
      for (const hidden of [devices.unassigned!, devices.root!, devices.sibling!]) {
        const outside = await viewer.get(devicePath(hidden)).expect(404);
        expect(withoutCorrelation(outside)).toEqual(withoutCorrelation(await viewer.get(`/v1/devices/${randomUUID()}`)));
      }
      const filter = await viewer.get(`${devicesPath(listTenant)}?organizationUnitId=${sibling.organizationUnitId}`).expect(400);
      expect(fieldsOf(filter)).toEqual([{ path: 'query.organizationUnitId', rule: 'reference_not_found' }]);
    });

    it('walks pages with a signed cursor bound to the filters', async () => {
      const first = await admin.get(`${devicesPath(listTenant)}?limit=25`).expect(200);
      expect(first.body.nextCursor).toBeUndefined();
      for (let i = 0; i < 26; i++) await seedDevice(t, listTenant, listType);
      const page1 = await admin.get(`${devicesPath(listTenant)}?limit=25`).expect(200);
      const page2 = await admin.get(`${devicesPath(listTenant)}?limit=25&cursor=${page1.body.nextCursor}`).expect(200);
      const seen = [...page1.body.items, ...page2.body.items].map((item: { deviceId: string }) => item.deviceId);
      expect(new Set(seen).size).toBe(30);
      const mismatch = await admin.get(`${devicesPath(listTenant)}?limit=25&status=active&cursor=${page1.body.nextCursor}`).expect(400);
      expect(fieldsOf(mismatch)).toEqual([{ path: 'query.cursor', rule: 'cursor_mismatch' }]);
    });

    it('validates its filters', async () => {
      const res = await admin
        .get(`${devicesPath(listTenant)}?status=gone&deviceTypeId=nope&includeDescendants=maybe&devEui=abc&limit=7&q=${'x'.repeat(101)}`)
        .expect(400);
      expect(fieldsOf(res)).toEqual(
        expect.arrayContaining([
          { path: 'query.status', rule: 'enum' },
          { path: 'query.deviceTypeId', rule: 'format' },
          { path: 'query.includeDescendants', rule: 'type' },
          { path: 'query.devEui', rule: 'pattern' },
          { path: 'query.limit', rule: 'enum' },
          { path: 'query.q', rule: 'max_length' },
        ]),
      );
      const unknownType = await admin.get(`${devicesPath(listTenant)}?deviceTypeId=${randomUUID()}`).expect(400);
      expect(fieldsOf(unknownType)).toEqual([{ path: 'query.deviceTypeId', rule: 'reference_not_found' }]);
    });
  });

  describe('GET / PATCH /v1/devices/{deviceId} and lifecycle', () => {
    it('reads a device with its current assignment; malformed id is 400', async () => {
      const unit = await seedUnit(t, tenant);
      const device = await seedDevice(t, tenant, type, unit);
      const res = await admin.get(devicePath(device)).expect(200);
      expect(res.body.currentAssignment.organizationUnitId).toBe(unit.organizationUnitId);
      const bad = await admin.get('/v1/devices/not-a-uuid').expect(400);
      expect(fieldsOf(bad)).toEqual([{ path: 'params.deviceId', rule: 'format' }]);
    });

    it('renames and replaces metadata; immutable fields are unknown properties; empty body is min_properties', async () => {
      const device = await seedDevice(t, tenant, type);
      const res = await admin.patch(devicePath(device), { name: 'Renamed', metadata: { a: 'b' } }).expect(200);
      expect(res.body).toMatchObject({ name: 'Renamed', metadata: { a: 'b' } });
      const [event] = await auditRows(t, 'device', device.deviceId, 'device.updated');
      expect(event!.metadata).toMatchObject({ changedFields: ['name', 'metadata'] });
      const immutable = await admin.patch(devicePath(device), { devEui: randomDevEui(), deviceTypeId: type.deviceTypeId }).expect(400);
      expect(fieldsOf(immutable)).toEqual(
        expect.arrayContaining([
          { path: 'body.devEui', rule: 'unknown_property' },
          { path: 'body.deviceTypeId', rule: 'unknown_property' },
        ]),
      );
      expect(fieldsOf(await admin.patch(devicePath(device), {}).expect(400))).toEqual([{ path: 'body', rule: 'min_properties' }]);
    });

    it('moves active ⇄ disabled → retired, with invalid_state for anything else', async () => {
      const unit = await seedUnit(t, tenant);
      const device = await seedDevice(t, tenant, type, unit);
      expect((await admin.post(`${devicePath(device)}/disable`).expect(200)).body.status).toBe('disabled');
      const again = await admin.post(`${devicePath(device)}/disable`).expect(409);
      expect(again.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'disabled' });
      expect((await admin.post(`${devicePath(device)}/reactivate`).expect(200)).body.status).toBe('active');
      await admin.post(`${devicePath(device)}/reactivate`).expect(409);

      const retired = await admin.post(`${devicePath(device)}/retire`).expect(200);
      expect(retired.body).toMatchObject({ status: 'retired', currentAssignment: null });
      const periods = await admin.get(assignmentsPath(device)).expect(200);
      expect(periods.body.items[0].validTo).toEqual(expect.stringMatching(ISO_MS));
      for (const move of ['disable', 'reactivate', 'retire']) {
        const res = await admin.post(`${devicePath(device)}/${move}`).expect(409);
        expect(res.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'retired' });
      }
      expect((await admin.patch(devicePath(device), { name: 'x' }).expect(409)).body.error.details.reason).toBe('invalid_state');
      expect(await auditRows(t, 'device', device.deviceId, 'device.retired')).toHaveLength(1);
    });

    it('refuses writes to a viewer (403) and answers 404 for a foreign device', async () => {
      const device = await seedDevice(t, tenant, type);
      const viewer = (await member(t, tenant, 'tenant_viewer')).api;
      await viewer.get(devicePath(device)).expect(200);
      const denied = await viewer.patch(devicePath(device), { name: 'x' }).expect(403);
      expect(denied.body.error.details).toEqual({ reason: 'missing_permission', permission: 'devices:write' });
      await viewer.post(`${devicePath(device)}/retire`).expect(403);

      const other = await seedTenant(t);
      const foreign = await seedDevice(t, other, await seedDeviceType(t, other));
      const res = await viewer.get(devicePath(foreign)).expect(404);
      expect(res.body.error.details).toEqual({ resourceType: 'device' });
    });
  });

  describe('assignments', () => {
    it('assigns, moves (closing the previous period at validFrom), lists and reads periods', async () => {
      const [a, b] = [await seedUnit(t, tenant), await seedUnit(t, tenant)];
      const device = await seedDevice(t, tenant, type);
      const first = await admin.post(assignmentsPath(device), { organizationUnitId: a.organizationUnitId, validFrom: ago(60) }).expect(201);
      expect(first.headers.location).toBe(`${assignmentsPath(device)}/${first.body.deviceAssignmentId}`);
      const moveAt = ago(30);
      const second = await admin.post(assignmentsPath(device), { organizationUnitId: b.organizationUnitId, validFrom: moveAt }).expect(201);
      expect(second.body).toMatchObject({ organizationUnitId: b.organizationUnitId, validFrom: moveAt, validTo: null });

      const closed = await admin.get(`${assignmentsPath(device)}/${first.body.deviceAssignmentId}`).expect(200);
      expect(closed.body.validTo).toBe(moveAt);
      const list = await admin.get(assignmentsPath(device)).expect(200);
      expect(list.body.items.map((item: { deviceAssignmentId: string }) => item.deviceAssignmentId)).toEqual([
        first.body.deviceAssignmentId,
        second.body.deviceAssignmentId,
      ]);
      expect(list.body.totalCount).toBe(2);
      expect((await admin.get(devicePath(device)).expect(200)).body.currentAssignment.deviceAssignmentId).toBe(second.body.deviceAssignmentId);

      const events = await auditRows(t, 'device', device.deviceId, 'device.assigned');
      expect(events.map((event) => event.metadata.previousOrganizationUnitId)).toEqual([null, a.organizationUnitId]);
    });

    it('validates validFrom: before the open period’s start, in the future, malformed', async () => {
      const [a, b] = [await seedUnit(t, tenant), await seedUnit(t, tenant)];
      const start = ago(10);
      const device = await seedDevice(t, tenant, type, a, { validFrom: new Date(start) });
      for (const validFrom of [ago(20), start, new Date(Date.now() + 60_000).toISOString()]) {
        const res = await admin.post(assignmentsPath(device), { organizationUnitId: b.organizationUnitId, validFrom }).expect(400);
        expect(fieldsOf(res)).toEqual([{ path: 'body.validFrom', rule: 'range' }]);
      }
      const malformed = await admin.post(assignmentsPath(device), { organizationUnitId: b.organizationUnitId, validFrom: 'yesterday' }).expect(400);
      expect(fieldsOf(malformed)).toEqual([{ path: 'body.validFrom', rule: 'format' }]);
    });

    it('refuses the same unit again, a disabled unit and a retired device', async () => {
      const unit = await seedUnit(t, tenant);
      const disabled = await seedUnit(t, tenant, null, { status: 'disabled' });
      const device = await seedDevice(t, tenant, type, unit);
      expect((await admin.post(assignmentsPath(device), { organizationUnitId: unit.organizationUnitId }).expect(409)).body.error.details.reason).toBe(
        'already_assigned',
      );
      expect((await admin.post(assignmentsPath(device), { organizationUnitId: disabled.organizationUnitId }).expect(409)).body.error.details.reason).toBe(
        'organization_unit_disabled',
      );
      await admin.post(`${devicePath(device)}/retire`).expect(200);
      const retired = await admin.post(assignmentsPath(device), { organizationUnitId: unit.organizationUnitId }).expect(409);
      expect(retired.body.error.details).toEqual({ reason: 'invalid_state', currentStatus: 'retired' });
    });

    it('ends the open period (device unassigned), then answers assignment_closed', async () => {
      const unit = await seedUnit(t, tenant);
      const device = await seedDevice(t, tenant, type, unit, { validFrom: new Date(ago(60)) });
      const open = (await admin.get(devicePath(device)).expect(200)).body.currentAssignment;
      const before = await admin.post(`${assignmentsPath(device)}/${open.deviceAssignmentId}/end`, { validTo: ago(90) }).expect(400);
      expect(fieldsOf(before)).toEqual([{ path: 'body.validTo', rule: 'range' }]);
      const endAt = ago(5);
      const ended = await admin.post(`${assignmentsPath(device)}/${open.deviceAssignmentId}/end`, { validTo: endAt }).expect(200);
      expect(ended.body.validTo).toBe(endAt);
      expect((await admin.get(devicePath(device)).expect(200)).body.currentAssignment).toBeNull();
      const again = await admin.post(`${assignmentsPath(device)}/${open.deviceAssignmentId}/end`).expect(409);
      expect(again.body.error.details.reason).toBe('assignment_closed');
      expect(await auditRows(t, 'device', device.deviceId, 'device.assignment_ended')).toHaveLength(1);

      // A new period may not start before the last one ended.
      const early = await admin.post(assignmentsPath(device), { organizationUnitId: unit.organizationUnitId, validFrom: ago(10) }).expect(400);
      expect(fieldsOf(early)).toEqual([{ path: 'body.validFrom', rule: 'range' }]);
      await admin.post(assignmentsPath(device), { organizationUnitId: unit.organizationUnitId }).expect(201);
    });

    it('two parallel moves of one device leave one open period and no overlap', async () => {
      const units = [await seedUnit(t, tenant), await seedUnit(t, tenant), await seedUnit(t, tenant)];
      const device = await seedDevice(t, tenant, type, units[0]!, { validFrom: new Date(ago(60)) });
      const results = await Promise.all(units.slice(1).map((unit) => admin.post(assignmentsPath(device), { organizationUnitId: unit.organizationUnitId })));
      expect(results.every((res) => res.status === 201 || res.status === 409)).toBe(true);
      const [{ open, overlapping }] = await t.dataSource.query<{ open: number; overlapping: number }[]>(
        `SELECT (SELECT count(*)::int FROM device_assignments WHERE device_id = $1 AND valid_to IS NULL) AS open,
                (SELECT count(*)::int FROM device_assignments x JOIN device_assignments y
                    ON x.device_id = y.device_id AND x.device_assignment_id < y.device_assignment_id
                   AND tstzrange(x.valid_from, x.valid_to) && tstzrange(y.valid_from, y.valid_to)
                  WHERE x.device_id = $1) AS overlapping`,
        [device.deviceId],
      );
      expect({ open, overlapping }).toEqual({ open: 1, overlapping: 0 });
    });

    it('the database itself refuses a second open period and an overlap', async () => {
      const [a, b] = [await seedUnit(t, tenant), await seedUnit(t, tenant)];
      const start = new Date(ago(60));
      const device = await seedDevice(t, tenant, type, a, { validFrom: start });
      await expect(seedAssignment(t, tenant, device, b, new Date(ago(30)))).rejects.toThrow(/device_assignments_open_key|device_assignments_no_overlap/);
      await expect(seedAssignment(t, tenant, device, b, new Date(ago(90)), new Date(ago(30)))).rejects.toThrow(/device_assignments_no_overlap/);
      // Half-open periods: one may end exactly where the next starts.
      await seedAssignment(t, tenant, device, b, new Date(ago(120)), start);
    });

    it('needs devices:assign covering both the current and the target unit', async () => {
      const [mine, other] = [await seedUnit(t, tenant), await seedUnit(t, tenant)];
      const operator = (await member(t, tenant, 'tenant_operator', mine)).api;
      const device = await seedDevice(t, tenant, type, mine);
      // The target is outside the operator's scope: invisible, so a reference error.
      const outside = await operator.post(assignmentsPath(device), { organizationUnitId: other.organizationUnitId }).expect(400);
      expect(fieldsOf(outside)).toEqual([{ path: 'body.organizationUnitId', rule: 'reference_not_found' }]);
      const viewer = (await member(t, tenant, 'tenant_viewer')).api;
      const denied = await viewer.post(assignmentsPath(device), { organizationUnitId: other.organizationUnitId }).expect(403);
      expect(denied.body.error.details).toEqual({ reason: 'missing_permission', permission: 'devices:assign' });

      // A caller who sees both units but may assign in only one of them: refused whichever one it lacks.
      const [current, target] = [await seedUnit(t, tenant), await seedUnit(t, tenant)];
      const twoGrants = async (onCurrent: TenantRole, onTarget: TenantRole) => {
        const user = await seedUser(t);
        await seedGrant(t, user.userId, tenant, onCurrent, current);
        await seedGrant(t, user.userId, tenant, onTarget, target);
        return as(t, (await login(t, user.username, user.password)).accessToken);
      };
      const placed = await seedDevice(t, tenant, type, current, { validFrom: new Date(ago(60)) });
      const move = { organizationUnitId: target.organizationUnitId };
      for (const caller of [await twoGrants('tenant_viewer', 'tenant_operator'), await twoGrants('tenant_operator', 'tenant_viewer')]) {
        const refused = await caller.post(assignmentsPath(placed), move).expect(403);
        expect(refused.body.error.details).toEqual({ reason: 'missing_permission', permission: 'devices:assign' });
      }
      const [open] = await t.dataSource.query<{ organization_unit_id: string }[]>(
        'SELECT organization_unit_id FROM device_assignments WHERE device_id = $1 AND valid_to IS NULL',
        [placed.deviceId],
      );
      expect(open).toEqual({ organization_unit_id: current.organizationUnitId });
      // Covering both, the same move succeeds.
      await (await twoGrants('tenant_operator', 'tenant_operator')).post(assignmentsPath(placed), move).expect(201);
    });

    it('shows a unit-scoped viewer only the periods in its units, and 404 for the others', async () => {
      const [before, mine] = [await seedUnit(t, tenant), await seedUnit(t, tenant)];
      const device = await seedDevice(t, tenant, type, before, { validFrom: new Date(ago(120)) });
      const moved = await admin.post(assignmentsPath(device), { organizationUnitId: mine.organizationUnitId, validFrom: ago(60) }).expect(201);
      const viewer = (await member(t, tenant, 'tenant_viewer', mine)).api;
      const list = await viewer.get(assignmentsPath(device)).expect(200);
      expect(list.body.items.map((item: { deviceAssignmentId: string }) => item.deviceAssignmentId)).toEqual([moved.body.deviceAssignmentId]);
      expect(list.body.totalCount).toBe(1);
      const all = await admin.get(assignmentsPath(device)).expect(200);
      const hidden = all.body.items[0].deviceAssignmentId as string;
      const res = await viewer.get(`${assignmentsPath(device)}/${hidden}`).expect(404);
      expect(withoutCorrelation(res)).toEqual(withoutCorrelation(await viewer.get(`${assignmentsPath(device)}/${randomUUID()}`)));
      expect(res.body.error.details).toEqual({ resourceType: 'device_assignment' });
    });
  });
});
