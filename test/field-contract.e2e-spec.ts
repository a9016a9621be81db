import { FieldContractReader } from '../src/modules/device-types/persistence/field-contract.reader';
import { TelemetryWriter, TelemetryWriteRefusedError } from '../src/modules/telemetry/persistence/telemetry-writer';
import { loginAdmin } from './support/auth';
import { seedDevice, seedDeviceType, seedField } from './support/devices';
import { as } from './support/http';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

/*
 * The field contract reader: other modules read a device type's fields only through it, cached per type under the
 * type's field contract version, which the database raises with every field change. A change made elsewhere (here
 * straight in SQL, as another replica's commit would look) is seen at the next check, by the cached reader of
 * this service, by the telemetry writer and by the current-values read.
 */
describe('field contract reader', () => {
  let t: TestApp;
  let admin: ReturnType<typeof as>;
  let tenant: SeededTenant;
  let reader: FieldContractReader;
  let writer: TelemetryWriter;

  const version = async (deviceTypeId: string) =>
    (await t.dataSource.query<{ v: string }[]>(`SELECT field_contract_version::text AS v FROM device_types WHERE device_type_id = $1`, [deviceTypeId]))[0]!.v;

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
    reader = t.app.get(FieldContractReader);
    writer = t.app.get(TelemetryWriter);
  });
  afterAll(() => t.close());

  it('every insert and update of a field raises its type’s version; other types keep theirs', async () => {
    const type = await seedDeviceType(t, tenant);
    const other = await seedDeviceType(t, tenant);
    const start = Number(await version(type.deviceTypeId));
    const field = await seedField(t, tenant, type, { key: 'level' });
    expect(Number(await version(type.deviceTypeId))).toBe(start + 1);
    await t.dataSource.query(`UPDATE device_field_definitions SET name = 'Renamed' WHERE device_field_definition_id = $1`, [field.deviceFieldDefinitionId]);
    expect(Number(await version(type.deviceTypeId))).toBe(start + 2);
    expect(Number(await version(other.deviceTypeId))).toBe(start);
  });

  it('caches a contract under its version and reads it again only when the version moved', async () => {
    const type = await seedDeviceType(t, tenant);
    await seedField(t, tenant, type, { key: 'a' });
    const first = await reader.current(type.deviceTypeId);
    expect(first.fields.map((field) => field.key)).toEqual(['a']);
    expect(await reader.current(type.deviceTypeId)).toBe(first);
    expect(await reader.at(type.deviceTypeId, first.version)).toBe(first);
    await seedField(t, tenant, type, { key: 'b' });
    const second = await reader.current(type.deviceTypeId);
    expect(second).not.toBe(first);
    expect(second.fields.map((field) => field.key)).toEqual(['a', 'b']);
    expect(second.fieldNos.get('b')).toEqual(expect.any(Number));
    expect(Object.isFrozen(second.fields[0])).toBe(true);
  });

  it('the telemetry writer sees a storage change made after it cached the contract, without a restart', async () => {
    const type = await seedDeviceType(t, tenant);
    const field = await seedField(t, tenant, type, { key: 'level' });
    const device = await seedDevice(t, tenant, type);
    const row = (second: number) => ({ deviceId: device.deviceId, fieldNo: field.fieldNo, observedAt: new Date(1_767_225_600_000 + second * 1000), rawReceivedAt: new Date(), value: 1 });
    expect(await writer.writeCurrentValues(t.dataSource.manager, [row(1)])).toEqual({ written: 1 });
    // The field stops being a current value elsewhere: the cached contract is stale, the write is refused.
    await t.dataSource.query(`UPDATE device_field_definitions SET storage_targets = '{timeseries}' WHERE device_field_definition_id = $1`, [field.deviceFieldDefinitionId]);
    await expect(writer.writeCurrentValues(t.dataSource.manager, [row(2)])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
    // And back: accepted again.
    await t.dataSource.query(`UPDATE device_field_definitions SET storage_targets = '{current,timeseries}' WHERE device_field_definition_id = $1`, [field.deviceFieldDefinitionId]);
    expect(await writer.writeCurrentValues(t.dataSource.manager, [row(3)])).toEqual({ written: 1 });
  });

  it('current values list a field added after the first read, and drop one deprecated after it', async () => {
    const type = await seedDeviceType(t, tenant);
    const a = await seedField(t, tenant, type, { key: 'a' });
    const device = await seedDevice(t, tenant, type);
    const keys = async () => ((await admin.get(`/v1/devices/${device.deviceId}/current-values`).expect(200)).body.fields as { definition: { key: string } }[]).map((f) => f.definition.key);
    expect(await keys()).toEqual(['a']);
    await seedField(t, tenant, type, { key: 'b' });
    expect(await keys()).toEqual(['a', 'b']);
    await t.dataSource.query(`UPDATE device_field_definitions SET status = 'deprecated', deprecated_at = clock_timestamp() WHERE device_field_definition_id = $1`, [a.deviceFieldDefinitionId]);
    expect(await keys()).toEqual(['b']);
  });
});
