import { Client } from 'pg';
import { loginAdmin } from './support/auth';
import { randomDevEui, seedDevice, seedDeviceType } from './support/devices';
import { as, expectEnvelope, fieldsOf } from './support/http';
import { legacyCode, legacyDevEui, LegacySource, LegacyTenant } from './support/legacy-source';
import { member } from './support/member';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { freePort } from './support/free-port';

type Api = ReturnType<typeof as>;

const importPath = (tenant: { tenantNumber: number }, dryRun = false) =>
  `/v1/tenants/${tenant.tenantNumber}/imports/legacy-snapshot${dryRun ? '?dryRun=true' : ''}`;

describe('legacy snapshot import', () => {
  let t: TestApp;
  let admin: Api;
  const source = new LegacySource();
  let credentials: { baseUrl: string; username: string; password: string };

  beforeAll(async () => {
    t = await startTestApp({ env: { LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: 'true' } });
    admin = as(t, (await loginAdmin(t)).accessToken);
    const baseUrl = await source.start();
    credentials = { baseUrl, username: source.username, password: source.password };
  });
  afterAll(async () => {
    await source.close();
    await t.close();
  });
  beforeEach(() => source.reset());

  /** What the tenant holds: device types by key, devices by devEui. */
  async function contents(tenant: SeededTenant) {
    const types = await t.dataSource.query<{ device_type_id: string; key: string; name: string; description: string; status: string }[]>(
      `SELECT device_type_id, key, name, description, status FROM device_types WHERE tenant_id = $1 ORDER BY key`,
      [tenant.tenantId],
    );
    const devices = await t.dataSource.query<{ device_id: string; dev_eui: string; name: string; status: string; metadata: Record<string, string>; device_type_id: string }[]>(
      `SELECT device_id, dev_eui, name, status, metadata, device_type_id FROM devices WHERE tenant_id = $1 ORDER BY dev_eui`,
      [tenant.tenantId],
    );
    const assignments = await t.dataSource.query<unknown[]>(`SELECT 1 FROM device_assignments WHERE tenant_id = $1`, [tenant.tenantId]);
    const audit = await t.dataSource.query<{ event_type: string; actor_type: string; actor_id: string; outcome: string; status_code: number | null; metadata: Record<string, unknown> }[]>(
      `SELECT event_type, actor_type, actor_id, outcome, status_code, metadata FROM audit_log WHERE tenant_id = $1 ORDER BY occurred_at, event_type`,
      [tenant.tenantId],
    );
    return { types, devices, assignments, audit };
  }

  /** One source tenant with `types` device types and `perType` devices of each. */
  function sourceTenant(id: string, types: number, perType: number): LegacyTenant {
    const tenant: LegacyTenant = { id, name: `Legacy ${id}`, deviceTypes: [], devices: [] };
    for (let i = 0; i < types; i++) {
      const typeId = `${id}-t${i}`;
      tenant.deviceTypes.push({ id: typeId, code: legacyCode('Sensor'), name: `Sensor ${i}`, description: 'from the old system' });
      for (let j = 0; j < perType; j++) {
        tenant.devices.push({ id: `${typeId}-d${j}`, devEui: legacyDevEui(), name: `Device ${i}.${j}`, deviceTypeId: typeId, metadata: { site: `site-${j}` } });
      }
    }
    return tenant;
  }

  describe('access and request rules', () => {
    it('answers 403 to a tenant admin before looking at the body, 401 without a token', async () => {
      const tenant = await seedTenant(t);
      const tenantAdmin = await member(t, tenant, 'tenant_admin');
      const res = await tenantAdmin.api.post(importPath(tenant), {}).expect(403);
      expect(res.body.error.details.reason).toBe('platform_admin_required');
      await t.http().post(importPath(tenant)).send({}).expect(401);
    });

    it('checks the body, then the pattern of baseUrl, before the tenant', async () => {
      const res = await admin.post(importPath({ tenantNumber: 2147483647 }), { baseUrl: 'x'.repeat(301), username: '', extra: 1 }).expect(400);
      expect(fieldsOf(res)).toEqual(
        expect.arrayContaining([
          { path: 'body.baseUrl', rule: 'max_length' },
          { path: 'body.username', rule: 'min_length' },
          { path: 'body.password', rule: 'required' },
          { path: 'body.extra', rule: 'unknown_property' },
        ]),
      );
      for (const baseUrl of [
        'https://legacy.example.com/api',
        'http://10.0.0.7:8080/api',
        'http://127.0.0.1.example.com:80/api',
        `${credentials.baseUrl}?x=1`,
        credentials.baseUrl.replace('http://', 'http://user:pw@'),
      ]) {
        const refused = await admin.post(importPath({ tenantNumber: 2147483647 }), { ...credentials, baseUrl }).expect(400);
        expect(fieldsOf(refused)).toEqual([{ path: 'body.baseUrl', rule: 'pattern' }]);
      }
      expect(source.requests).toEqual([]);
      await admin.post(importPath({ tenantNumber: 2147483647 }), credentials).expect(404);
    });

    it.each([
      ['0', 'minimum'],
      ['2147483648', 'maximum'],
      ['1e3', 'type'],
    ])('refuses tenantNumber %s (%s)', async (tenantNumber, rule) => {
      const res = await admin.post(`/v1/tenants/${tenantNumber}/imports/legacy-snapshot`, credentials).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'params.tenantNumber', rule }]);
    });

    it('refuses a dryRun that is not a boolean', async () => {
      const tenant = await seedTenant(t);
      const res = await admin.post(`${importPath(tenant)}?dryRun=yes`, credentials).expect(400);
      expect(fieldsOf(res)).toEqual([{ path: 'query.dryRun', rule: 'type' }]);
    });

    it('answers 409 tenant_disabled for a disabled tenant, without calling the source', async () => {
      const tenant = await seedTenant(t, { status: 'disabled' });
      const res = await admin.post(importPath(tenant), credentials).expect(409);
      expectEnvelope(res, { code: 'CONFLICT' });
      expect(res.body.error.details.reason).toBe('tenant_disabled');
      expect(source.requests).toEqual([]);
    });
  });

  describe('a well-behaved source', () => {
    it('imports every valid record of every source tenant, page by page, atomically audited; a second run creates nothing', async () => {
      const tenant = await seedTenant(t);
      source.tenants = [sourceTenant('north', 3, 3), sourceTenant('south', 2, 2)];
      source.pageSize = 2;
      const res = await admin.post(importPath(tenant), credentials).expect(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.body).toEqual({
        targetTenantId: tenant.tenantId,
        completedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        source: { tenantCount: 2, deviceTypeCount: 5, deviceCount: 13 },
        deviceTypes: { created: 5, existing: 0, skipped: 0 },
        devices: { created: 13, existing: 0, skipped: 0 },
        issues: [],
      });
      // Pagination: each list was read until `next` was null, with the token and the cursor.
      const urls = source.requests.map((request) => request.url);
      expect(urls).toEqual(expect.arrayContaining(['/api/auth/login', '/api/tenants', '/api/tenants/north/devices?cursor=page-2', '/api/tenants/north/devices?cursor=page-8']));
      expect(source.requests.filter((request) => request.url !== '/api/auth/login').every((request) => request.authorization === `Bearer ${source.accessToken}`)).toBe(true);

      const { types, devices, assignments, audit } = await contents(tenant);
      expect(types).toHaveLength(5);
      expect(types.every((type) => type.status === 'active' && type.key === type.key.toLowerCase() && type.description === 'from the old system')).toBe(true);
      expect(devices).toHaveLength(13);
      expect(assignments).toEqual([]);
      const first = source.tenants[0]!.devices[0]!;
      const device = devices.find((row) => row.dev_eui === first.devEui)!;
      expect(device).toMatchObject({ name: first.name, status: 'active', metadata: { site: 'site-0', 'legacy.sourceId': first.id, 'legacy.tenantId': 'north' } });
      expect(device.device_type_id).toBe(types.find((type) => type.key === String(source.tenants[0]!.deviceTypes[0]!.code).toLowerCase())!.device_type_id);

      const userId = (await t.dataSource.query<{ user_id: string }[]>(`SELECT user_id FROM users WHERE username = 'root-admin'`))[0]!.user_id;
      expect(audit.filter((row) => row.event_type === 'device_type.created')).toHaveLength(5);
      expect(audit.filter((row) => row.event_type === 'device.created')).toHaveLength(13);
      expect(audit.every((row) => row.actor_type === 'import' && row.actor_id === userId && row.outcome === 'success' && row.status_code === 200)).toBe(true);
      const completed = audit.filter((row) => row.event_type === 'import.completed');
      expect(completed).toHaveLength(1);
      expect(completed[0]!.metadata).toEqual({
        source: { tenantCount: 2, deviceTypeCount: 5, deviceCount: 13 },
        deviceTypes: { created: 5, existing: 0, skipped: 0 },
        devices: { created: 13, existing: 0, skipped: 0 },
        issueCount: 0,
        sourceHost: new URL(credentials.baseUrl).host,
      });

      const again = await admin.post(importPath(tenant), credentials).expect(200);
      expect(again.body.deviceTypes).toEqual({ created: 0, existing: 5, skipped: 0 });
      expect(again.body.devices).toEqual({ created: 0, existing: 13, skipped: 0 });
      const after = await contents(tenant);
      expect(after.types).toEqual(types);
      expect(after.devices).toEqual(devices);
    });

    it('shows what an import would do on a dry run, persisting nothing but one import.previewed event', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      source.tenants = [sourceTenant('dry', 2, 3)];
      const taken = source.tenants[0]!.devices[1]!;
      const otherType = await seedDeviceType(t, other);
      await seedDevice(t, other, otherType, null, { devEui: String(taken.devEui) });
      source.tenants[0]!.devices.push({ id: 'asset-1', kind: 'asset', devEui: legacyDevEui(), name: 'Pump house', deviceTypeId: 'dry-t0' });

      const preview = await admin.post(importPath(tenant, true), credentials).expect(200);
      expect(preview.body).toMatchObject({
        source: { tenantCount: 1, deviceTypeCount: 2, deviceCount: 7 },
        deviceTypes: { created: 2, existing: 0, skipped: 0 },
        devices: { created: 5, existing: 0, skipped: 2 },
        issues: [
          { entity: 'device', code: 'device_exists_in_other_tenant', sourceIdentifier: taken.id },
          { entity: 'device', code: 'asset_excluded', sourceIdentifier: 'asset-1' },
        ],
      });
      const afterPreview = await contents(tenant);
      expect(afterPreview.types).toEqual([]);
      expect(afterPreview.devices).toEqual([]);
      expect(afterPreview.audit.map((row) => [row.event_type, row.actor_type])).toEqual([['import.previewed', 'import']]);
      expect(afterPreview.audit[0]!.metadata).toMatchObject({ issueCount: 2, devices: { created: 5, existing: 0, skipped: 2 } });

      const real = await admin.post(importPath(tenant), credentials).expect(200);
      const { completedAt: _a, ...previewed } = preview.body;
      const { completedAt: _b, ...imported } = real.body;
      expect(imported).toEqual(previewed);
      expect((await contents(tenant)).devices).toHaveLength(5);
    });

    it('keeps one issue per skipped record, every rule of the validity table, in source order', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      const activeKey = legacyCode('present');
      const disabledKey = legacyCode('retired-type');
      const present = await seedDeviceType(t, tenant, { key: activeKey });
      await seedDeviceType(t, tenant, { key: disabledKey, status: 'disabled' });
      const otherType = await seedDeviceType(t, other);
      const [inOther, sameInTarget, differentInTarget, duplicate, retiredElsewhere] = [randomDevEui(), randomDevEui(), randomDevEui(), randomDevEui(), randomDevEui()];
      await seedDevice(t, other, otherType, null, { devEui: inOther });
      await seedDevice(t, other, otherType, null, { devEui: retiredElsewhere, status: 'retired' });
      await seedDevice(t, tenant, present, null, { devEui: sameInTarget, name: 'Kept as is' });
      await seedDevice(t, tenant, present, null, { devEui: differentInTarget, name: 'Old name' });
      const mergedCode = legacyCode('Shared');
      source.tenants = [
        {
          id: 7,
          name: 'First',
          deviceTypes: [
            { id: 'ok', code: mergedCode.toUpperCase(), name: 'Shared type' },
            { code: legacyCode(), name: 'No id' },
            { id: 'noname', code: legacyCode() },
            { id: 'longname', code: legacyCode(), name: 'n'.repeat(201) },
            { id: 'blank', code: legacyCode(), name: '   ' },
            {},
            { id: 'badcode', code: 'Not a key!', name: 'Bad code' },
            { id: 'present', code: activeKey.toUpperCase(), name: 'Already there' },
            { id: 'disabled', code: disabledKey, name: 'Disabled there' },
          ],
          devices: [
            { id: 'asset', kind: 'asset', devEui: randomDevEui(), name: 'An asset', deviceTypeId: 'ok' },
            { id: 'no-eui', name: 'No devEui', deviceTypeId: 'ok' },
            { devEui: randomDevEui(), name: 'No id', deviceTypeId: 'ok' },
            { id: 'no-type', devEui: randomDevEui(), name: 'No type' },
            { id: 'long', devEui: randomDevEui(), name: 'x'.repeat(201), deviceTypeId: 'ok' },
            { id: 'bad-eui', devEui: '70-B3-D5-7E-D0-00-12', name: 'Short devEui', deviceTypeId: 'ok' },
            { id: 'separators', devEui: randomDevEui().toLowerCase().replace(/(..)(?!$)/g, '$1:'), name: 'Colons, lower case', deviceTypeId: 'ok' },
            { id: 'unknown-type', devEui: randomDevEui(), name: 'Unknown type', deviceTypeId: 'nope' },
            { id: 'invalid-type', devEui: randomDevEui(), name: 'Invalid type', deviceTypeId: 'badcode' },
            { id: 'disabled-type', devEui: randomDevEui(), name: 'Disabled type', deviceTypeId: 'disabled' },
            { id: 'dup-1', devEui: duplicate, name: 'Twice', deviceTypeId: 'ok' },
            { id: 'other-tenant', devEui: inOther, name: 'Elsewhere', deviceTypeId: 'ok' },
            { id: 'same', devEui: sameInTarget.replace(/(....)/g, '$1 ').trim(), name: 'Kept as is', deviceTypeId: 'present' },
            { id: 'mismatch', devEui: differentInTarget, name: 'New name', deviceTypeId: 'present' },
            { id: 'freed', devEui: retiredElsewhere, name: 'Freed by retirement', deviceTypeId: 'ok', metadata: { a: '1', n: 2, 'legacy.sourceId': 'spoofed' } },
          ],
        },
        {
          id: 'second',
          name: 'Second',
          deviceTypes: [{ id: 'ok', code: mergedCode, name: 'Shared type again' }],
          devices: [
            { id: 'dup-2', devEui: duplicate.toLowerCase(), name: 'Twice', deviceTypeId: 'ok' },
            { id: 'merged-type', devEui: randomDevEui(), name: 'Uses the merged type', deviceTypeId: 'ok' },
          ],
        },
      ];
      const res = await admin.post(importPath(tenant), credentials).expect(200);
      expect(res.body.source).toEqual({ tenantCount: 2, deviceTypeCount: 10, deviceCount: 17 });
      expect(res.body.deviceTypes).toEqual({ created: 1, existing: 2, skipped: 7 });
      expect(res.body.devices).toEqual({ created: 3, existing: 1, skipped: 13 });
      expect(res.body.issues).toEqual([
        { entity: 'device_type', code: 'incomplete_source_record', sourceIdentifier: expect.stringMatching(/^type-/) },
        { entity: 'device_type', code: 'incomplete_source_record', sourceIdentifier: 'noname' },
        { entity: 'device_type', code: 'incomplete_source_record', sourceIdentifier: 'longname' },
        { entity: 'device_type', code: 'incomplete_source_record', sourceIdentifier: 'blank' },
        { entity: 'device_type', code: 'incomplete_source_record', sourceIdentifier: 'index:5' },
        { entity: 'device_type', code: 'invalid_device_type_code', sourceIdentifier: 'badcode' },
        { entity: 'device_type', code: 'disabled_existing_device_type', sourceIdentifier: 'disabled' },
        { entity: 'device', code: 'asset_excluded', sourceIdentifier: 'asset' },
        { entity: 'device', code: 'incomplete_source_record', sourceIdentifier: 'no-eui' },
        { entity: 'device', code: 'incomplete_source_record', sourceIdentifier: expect.stringMatching(/^[A-F0-9]{16}$/) },
        { entity: 'device', code: 'incomplete_source_record', sourceIdentifier: 'no-type' },
        { entity: 'device', code: 'incomplete_source_record', sourceIdentifier: 'long' },
        { entity: 'device', code: 'invalid_dev_eui', sourceIdentifier: 'bad-eui' },
        { entity: 'device', code: 'missing_device_type', sourceIdentifier: 'unknown-type' },
        { entity: 'device', code: 'missing_device_type', sourceIdentifier: 'invalid-type' },
        { entity: 'device', code: 'disabled_existing_device_type', sourceIdentifier: 'disabled-type' },
        { entity: 'device', code: 'duplicate_source_dev_eui', sourceIdentifier: 'dup-1' },
        { entity: 'device', code: 'device_exists_in_other_tenant', sourceIdentifier: 'other-tenant' },
        { entity: 'device', code: 'existing_device_mismatch', sourceIdentifier: 'mismatch' },
        { entity: 'device', code: 'duplicate_source_dev_eui', sourceIdentifier: 'dup-2' },
      ]);
      const { types, devices } = await contents(tenant);
      expect(types.map((type) => type.key).sort()).toEqual([activeKey, disabledKey, mergedCode.toLowerCase()].sort());
      const created = devices.filter((device) => device.metadata['legacy.sourceId']);
      expect(created.map((device) => device.metadata['legacy.sourceId']).sort()).toEqual(['freed', 'merged-type', 'separators']);
      expect(created.find((device) => device.metadata['legacy.sourceId'] === 'freed')!.metadata).toEqual({ a: '1', 'legacy.sourceId': 'freed', 'legacy.tenantId': '7' });
      const merged = types.find((type) => type.key === mergedCode.toLowerCase())!;
      expect(merged.name).toBe('Shared type');
      expect(created.every((device) => device.device_type_id === merged.device_type_id)).toBe(true);
      // Existing records are never changed.
      expect(devices.find((device) => device.dev_eui === differentInTarget)!.name).toBe('Old name');
      expect(types.find((type) => type.key === disabledKey)!.status).toBe('disabled');
    });

    it('returns the first 200 issues and counts every record', async () => {
      const tenant = await seedTenant(t);
      const many = sourceTenant('many', 1, 0);
      for (let i = 0; i < 250; i++) many.devices.push({ id: `bad-${i}`, devEui: `not-a-dev-eui-${i}`, name: `Bad ${i}`, deviceTypeId: 'many-t0' });
      many.devices.push({ id: `long-${'z'.repeat(300)}`, devEui: 'nope', name: 'Long id', deviceTypeId: 'many-t0' });
      source.tenants = [many];
      source.pageSize = 40;
      const res = await admin.post(importPath(tenant), credentials).expect(200);
      expect(res.body.devices).toEqual({ created: 0, existing: 0, skipped: 251 });
      expect(res.body.issues).toHaveLength(200);
      expect(res.body.issues[199]).toEqual({ entity: 'device', code: 'invalid_dev_eui', sourceIdentifier: 'bad-199' });
      const [completed] = (await contents(tenant)).audit.filter((row) => row.event_type === 'import.completed');
      expect(completed!.metadata.issueCount).toBe(251);
    });
  });

  describe('atomicity and concurrency', () => {
    it('persists nothing when the database fails in the middle of the import', async () => {
      const tenant = await seedTenant(t);
      source.tenants = [sourceTenant('boom', 2, 3)];
      source.tenants[0]!.devices[4]!.name = 'explode on insert';
      await t.dataSource.query(`
        CREATE FUNCTION import_test_explode() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN IF NEW.name = 'explode on insert' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$;
        CREATE TRIGGER import_test_explode BEFORE INSERT ON devices FOR EACH ROW EXECUTE FUNCTION import_test_explode();`);
      try {
        const res = await admin.post(importPath(tenant), credentials).expect(500);
        expectEnvelope(res, { code: 'INTERNAL_ERROR' });
      } finally {
        await t.dataSource.query(`DROP TRIGGER import_test_explode ON devices; DROP FUNCTION import_test_explode();`);
      }
      const { types, devices, audit } = await contents(tenant);
      expect(types).toEqual([]);
      expect(devices).toEqual([]);
      expect(audit).toEqual([]);
      // And the tenant is not left locked.
      await admin.post(importPath(tenant), credentials).expect(200);
    });

    it('runs one import per tenant at a time: a second one meanwhile is 409 import_in_progress', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      source.tenants = [sourceTenant('slow', 1, 2)];
      source.misbehaviour.set('login', { kind: 'delay', ms: 1500 });
      const first = admin.post(importPath(tenant), credentials).then((res) => res);
      await new Promise((done) => setTimeout(done, 400));
      const [second, elsewhere] = await Promise.all([admin.post(importPath(tenant), credentials), admin.post(importPath(other), credentials)]);
      expect(second.status).toBe(409);
      expect(second.body.error.details.reason).toBe('import_in_progress');
      expect(elsewhere.status).toBe(200);
      expect((await first).status).toBe(200);
      expect((await first).body.devices.created).toBe(2);
      expect(elsewhere.body.devices).toEqual({ created: 0, existing: 0, skipped: 2 });
      source.misbehaviour.clear();
      await admin.post(importPath(tenant), credentials).expect(200);
    });

    /** Inserts a device in an open transaction, starts the import, commits once the import waits on that devEui. */
    async function raceWithDeviceCreation(tenant: SeededTenant, insert: { tenantId: string; deviceTypeId: string; devEui: string; name: string }) {
      const client = new Client({ connectionString: t.database.url });
      await client.connect();
      try {
        await client.query('BEGIN');
        await client.query(`INSERT INTO devices (tenant_id, device_type_id, dev_eui, name) VALUES ($1, $2, $3, $4)`, [insert.tenantId, insert.deviceTypeId, insert.devEui, insert.name]);
        const pid = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
        const pending = admin.post(importPath(tenant), credentials).then((res) => res);
        const deadline = Date.now() + 15_000;
        for (;;) {
          const { rows } = await t.dataSource
            .query<{ n: number }[]>(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))`, [pid])
            .then((result) => ({ rows: result }));
          if (rows[0]!.n > 0) break;
          if (Date.now() > deadline) throw new Error('the import never waited for the concurrent device');
          await new Promise((done) => setTimeout(done, 25));
        }
        await client.query('COMMIT');
        return await pending;
      } finally {
        await client.end();
      }
    }

    it('turns a device of another tenant created during the import into device_exists_in_other_tenant, never a 500', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      const otherType = await seedDeviceType(t, other);
      source.tenants = [sourceTenant('race', 1, 3)];
      const contested = source.tenants[0]!.devices[1]!;
      const res = await raceWithDeviceCreation(tenant, { tenantId: other.tenantId, deviceTypeId: otherType.deviceTypeId, devEui: String(contested.devEui), name: 'Won the race' });
      expect(res.status).toBe(200);
      expect(res.body.devices).toEqual({ created: 2, existing: 0, skipped: 1 });
      expect(res.body.issues).toEqual([{ entity: 'device', code: 'device_exists_in_other_tenant', sourceIdentifier: contested.id }]);
      const { devices, audit } = await contents(tenant);
      expect(devices).toHaveLength(2);
      expect(audit.filter((row) => row.event_type === 'device.created')).toHaveLength(2);
    });

    it('turns the same device created in the target during the import into existing', async () => {
      const tenant = await seedTenant(t);
      const code = legacyCode('raced');
      const type = await seedDeviceType(t, tenant, { key: code });
      source.tenants = [{ id: 'r', name: 'R', deviceTypes: [{ id: 't', code, name: 'Raced' }], devices: [{ id: 'd1', devEui: legacyDevEui(), name: 'Same', deviceTypeId: 't' }, { id: 'd2', devEui: legacyDevEui(), name: 'Other', deviceTypeId: 't' }] }];
      const res = await raceWithDeviceCreation(tenant, { tenantId: tenant.tenantId, deviceTypeId: type.deviceTypeId, devEui: String(source.tenants[0]!.devices[0]!.devEui), name: 'Same' });
      expect(res.status).toBe(200);
      expect(res.body.deviceTypes).toEqual({ created: 0, existing: 1, skipped: 0 });
      expect(res.body.devices).toEqual({ created: 1, existing: 1, skipped: 0 });
    });

    it('answers the API device creation that loses against an import 409 duplicate_dev_eui', async () => {
      const tenant = await seedTenant(t);
      const other = await seedTenant(t);
      const otherType = await seedDeviceType(t, other);
      source.tenants = [sourceTenant('api-race', 1, 1)];
      await admin.post(importPath(tenant), credentials).expect(200);
      const res = await admin
        .post(`/v1/tenants/${other.tenantNumber}/devices`, { devEui: source.tenants[0]!.devices[0]!.devEui, name: 'Too late', deviceTypeId: otherType.deviceTypeId })
        .expect(409);
      expect(res.body.error.details.reason).toBe('duplicate_dev_eui');
    });
  });

  describe('a misbehaving source: 502 import_source, nothing persisted', () => {
    async function expectSourceFailure(reason: string, baseUrl = credentials.baseUrl, password = credentials.password) {
      const tenant = await seedTenant(t);
      const res = await admin.post(importPath(tenant), { ...credentials, baseUrl, password });
      expect(res.status).toBe(502);
      expectEnvelope(res, { code: 'DEPENDENCY_FAILURE', category: 'dependency_failure' });
      expect(res.body.error.details).toEqual({ dependency: 'import_source', reason });
      expect(res.headers['retry-after']).toBeUndefined();
      const { types, devices, audit } = await contents(tenant);
      expect(types).toEqual([]);
      expect(devices).toEqual([]);
      expect(audit).toEqual([
        {
          event_type: 'import.failed',
          actor_type: 'import',
          actor_id: expect.any(String),
          outcome: 'failure',
          status_code: 502,
          metadata: { reason, sourceHost: new URL(baseUrl).host, dryRun: false },
        },
      ]);
      return res;
    }

    beforeEach(() => {
      source.tenants = [sourceTenant('m', 2, 2)];
    });

    it('source_unreachable: nothing listens there', async () => {
      await expectSourceFailure('source_unreachable', `http://127.0.0.1:${await freePort()}/api`);
    });

    it('source_authentication_failed: wrong password (401), a 403, a token refused on a list', async () => {
      await expectSourceFailure('source_authentication_failed', credentials.baseUrl, 'not-the-password');
      source.misbehaviour.set('login', { kind: 'status', status: 403 });
      await expectSourceFailure('source_authentication_failed');
      source.misbehaviour.clear();
      source.misbehaviour.set('devices', { kind: 'status', status: 401 });
      await expectSourceFailure('source_authentication_failed');
    });

    it('source_unreachable: the source answers 500', async () => {
      source.misbehaviour.set('tenants', { kind: 'status', status: 500 });
      await expectSourceFailure('source_unreachable');
    });

    it.each([
      ['invalid JSON', 'devices', '{"items": [ {"id": "1", '],
      ['a list without next', 'device-types', '{"items": []}'],
      ['items that are not objects', 'devices', '{"items": [1, 2], "next": null}'],
      ['a tenant without an id', 'tenants', '{"items": [{"name": "no id"}], "next": null}'],
      ['a login without accessToken', 'login', '{"token": "x"}'],
      ['a repeated cursor', 'tenants', '{"items": [{"id": "m", "name": "m"}], "next": "again"}'],
    ] as const)('source_invalid_response: %s', async (_name, kind, body) => {
      source.misbehaviour.set(kind, { kind: 'body', body });
      await expectSourceFailure('source_invalid_response');
    });

    it('source_invalid_response: a redirect, which is never followed', async () => {
      const elsewhere = new LegacySource();
      const elsewhereUrl = await elsewhere.start();
      try {
        source.misbehaviour.set('login', { kind: 'redirect', location: `${elsewhereUrl}/auth/login` });
        await expectSourceFailure('source_invalid_response');
        expect(elsewhere.requests).toEqual([]);
      } finally {
        await elsewhere.close();
      }
    });

    it('source_invalid_response: the connection closes in the middle of the body', async () => {
      source.misbehaviour.set('device-types', { kind: 'cut' });
      await expectSourceFailure('source_invalid_response');
    });

    it('source_too_large: a body without end is cut off while streaming, never buffered', async () => {
      source.misbehaviour.set('devices', { kind: 'endless' });
      await expectSourceFailure('source_too_large');
      expect(source.endlessBytes).toBeLessThan(256 * 1024 * 1024);
    });

    it('source_too_large: more than 20,000 devices, 1,000 device types or 200 tenants', async () => {
      source.tenants = [sourceTenant('big', 1, 0)];
      for (let i = 0; i < 20_001; i++) source.tenants[0]!.devices.push({ id: i, devEui: 'x', name: 'n', deviceTypeId: 'big-t0' });
      source.pageSize = 5000;
      await expectSourceFailure('source_too_large');
      source.tenants = [sourceTenant('types', 1001, 0)];
      await expectSourceFailure('source_too_large');
      source.tenants = Array.from({ length: 201 }, (_, i) => ({ id: i, name: `T${i}`, deviceTypes: [], devices: [] }));
      await expectSourceFailure('source_too_large');
    });

    it('source_timeout: a call that takes longer than 10 s', async () => {
      source.misbehaviour.set('tenants', { kind: 'delay', ms: 11_000 });
      const started = Date.now();
      await expectSourceFailure('source_timeout');
      expect(Date.now() - started).toBeLessThan(10_900 + 3000);
    }, 40_000);
  });
});
