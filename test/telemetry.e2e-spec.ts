import { randomUUID } from 'node:crypto';
import { TelemetryWriter, TelemetryRow, TelemetryWriteRefusedError } from '../src/modules/telemetry/persistence/telemetry-writer';
import { login, loginAdmin, seedUser } from './support/auth';
import { seedAssignment, seedDevice, seedDeviceType, seedField, SeededDevice, SeededDeviceType, SeededField } from './support/devices';
import { as, fieldsOf, withoutCorrelation } from './support/http';
import { seedGrant, seedTenant, seedUnit, SeededTenant, SeededUnit } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

type Api = ReturnType<typeof as>;

const T0 = Date.parse('2026-01-01T00:00:00.000Z');
const at = (seconds: number) => new Date(T0 + seconds * 1000);
const iso = (seconds: number) => at(seconds).toISOString();
const DAY = 86400;

const currentPath = (device: SeededDevice) => `/v1/devices/${device.deviceId}/current-values`;
const measurementsPath = (device: SeededDevice | string, query: Record<string, string | number>) => {
  const id = typeof device === 'string' ? device : device.deviceId;
  const search = new URLSearchParams(Object.entries(query).map(([key, value]): [string, string] => [key, String(value)]));
  return `/v1/devices/${id}/measurements?${search.toString()}`;
};

interface Point {
  fieldKey: string;
  observedAt: string;
  value: unknown;
}
interface BucketItem {
  fieldKey: string;
  bucketStart: string;
  value: unknown;
  count: number;
}

describe('telemetry: write API, current values, measurements', () => {
  let t: TestApp;
  let admin: Api;
  let writer: TelemetryWriter;
  let tenant: SeededTenant;
  let type: SeededDeviceType;
  const fields: Record<string, SeededField> = {};

  const write = (rows: TelemetryRow[]) => writer.writeMeasurements(t.dataSource.manager, rows);
  const writeCurrent = (rows: TelemetryRow[]) => writer.writeCurrentValues(t.dataSource.manager, rows);
  const row = (device: SeededDevice, field: string, observed: number, value: TelemetryRow['value'], received = observed + 1): TelemetryRow => ({
    deviceId: device.deviceId,
    fieldNo: fields[field]!.fieldNo,
    observedAt: at(observed),
    rawReceivedAt: at(received),
    value,
  });

  /** Every page of a query, following nextCursor; fails on a non-200. */
  async function walk(api: Api, device: SeededDevice, query: Record<string, string | number>): Promise<{ items: unknown[]; pages: number }> {
    const items: unknown[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const res = await api.get(measurementsPath(device, cursor ? { ...query, cursor } : query));
      expect(res.status).toBe(200);
      items.push(...res.body.items);
      cursor = res.body.nextCursor;
      pages += 1;
      expect(pages).toBeLessThan(200);
    } while (cursor);
    return { items, pages };
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    writer = t.app.get(TelemetryWriter);
    tenant = await seedTenant(t);
    type = await seedDeviceType(t, tenant);
    // Creation order is the current-values order.
    fields.temp = await seedField(t, tenant, type, { key: 'temp', kind: 'number' });
    fields.hum = await seedField(t, tenant, type, { key: 'hum', kind: 'number', targets: ['timeseries'] });
    fields.label = await seedField(t, tenant, type, { key: 'label', kind: 'string' });
    fields.flag = await seedField(t, tenant, type, { key: 'flag', kind: 'boolean', targets: ['current'] });
    fields.cfg = await seedField(t, tenant, type, { key: 'cfg', kind: 'json' });
    fields.old = await seedField(t, tenant, type, { key: 'old', kind: 'number', status: 'deprecated' });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe('current values', () => {
    it('lists every active field in creation order, null until the first storage, deprecated ones omitted', async () => {
      const device = await seedDevice(t, tenant, type);
      const res = await admin.get(currentPath(device));
      expect(res.status).toBe(200);
      // Creation order is (createdAt, id): fields seeded within one millisecond come in id order.
      const order = await t.dataSource.query<{ key: string }[]>(
        `SELECT key FROM device_field_definitions WHERE device_type_id = $1 AND status = 'active' ORDER BY created_at, device_field_definition_id`,
        [type.deviceTypeId],
      );
      expect(order.map((row) => row.key).sort()).toEqual(['temp', 'hum', 'label', 'flag', 'cfg'].sort());
      expect(res.body).toEqual({
        tenantId: tenant.tenantId,
        deviceId: device.deviceId,
        deviceTypeId: type.deviceTypeId,
        fields: order.map(({ key }) => ({
          definition: expect.objectContaining({ key, deviceFieldDefinitionId: fields[key]!.deviceFieldDefinitionId, status: 'active' }),
          currentValue: null,
          observedAt: null,
        })),
      });
      const definition = res.body.fields[0].definition;
      expect(Object.keys(definition).sort()).toEqual(
        [
          'deviceFieldDefinitionId', 'tenantId', 'deviceTypeId', 'key', 'name', 'description', 'schemaRef', 'unit', 'storageTargets',
          'measurementType', 'status', 'lockVersion', 'createdAt', 'updatedAt', 'deprecatedAt',
        ].sort(),
      );
      expect(definition).not.toHaveProperty('fieldNo');
    });

    it('stores values of every kind; newer observedAt wins, older is ignored, equal observedAt goes to the later receipt', async () => {
      const device = await seedDevice(t, tenant, type);
      await writeCurrent([
        row(device, 'temp', 100, 21.5),
        row(device, 'label', 100, 'hello'),
        row(device, 'flag', 100, false),
        row(device, 'cfg', 100, { mode: 'eco', levels: [1, 2] }),
      ]);
      const values = async () =>
        Object.fromEntries(
          ((await admin.get(currentPath(device))).body.fields as { definition: { key: string }; currentValue: unknown }[]).map((entry) => [
            entry.definition.key,
            entry.currentValue,
          ]),
        );
      expect(await values()).toEqual({ temp: 21.5, hum: null, label: 'hello', flag: false, cfg: { mode: 'eco', levels: [1, 2] } });

      await writeCurrent([row(device, 'temp', 200, 22)]); // newer
      expect((await values()).temp).toBe(22);
      await writeCurrent([row(device, 'temp', 150, 99, 1000)]); // older observation, later receipt: ignored
      expect((await values()).temp).toBe(22);
      await writeCurrent([row(device, 'temp', 200, 23, 300)]); // same observation, later receipt
      expect((await values()).temp).toBe(23);
      await writeCurrent([row(device, 'temp', 200, 24, 250)]); // same observation, earlier receipt
      expect((await values()).temp).toBe(23);

      // In one batch: the newest (observedAt, rawReceivedAt) of a pair wins, whatever the order; no error.
      const result = await writeCurrent([row(device, 'label', 500, 'newest', 501), row(device, 'label', 400, 'older'), row(device, 'label', 500, 'early', 500)]);
      expect(result.written).toBe(1);
      expect((await values()).label).toBe('newest');

      // Each entry carries the observedAt of the value it shows (null until the first storage).
      const times = Object.fromEntries(
        ((await admin.get(currentPath(device))).body.fields as { definition: { key: string }; observedAt: unknown }[]).map((entry) => [entry.definition.key, entry.observedAt]),
      );
      expect(times).toEqual({ temp: at(200).toISOString(), hum: null, label: at(500).toISOString(), flag: at(100).toISOString(), cfg: at(100).toISOString() });
    });

    it('refuses a batch with a non-finite number, a value of the wrong kind or a field without current storage, writing nothing', async () => {
      const device = await seedDevice(t, tenant, type);
      await expect(writeCurrent([row(device, 'temp', 1, Number.NaN)])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      await expect(writeCurrent([row(device, 'temp', 1, 5), row(device, 'label', 1, 7)])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      await expect(writeCurrent([row(device, 'hum', 1, 5)])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      const other = await seedDeviceType(t, tenant);
      const foreignField = await seedField(t, tenant, other, { kind: 'number' });
      await expect(
        writeCurrent([{ deviceId: device.deviceId, fieldNo: foreignField.fieldNo, observedAt: at(1), rawReceivedAt: at(2), value: 1 }]),
      ).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM device_current_values WHERE device_id = $1`, [device.deviceId]);
      expect(count).toBe(0);
      await expect(write([row(device, 'flag', 1, true)])).rejects.toBeInstanceOf(TelemetryWriteRefusedError); // current-only field
    });
  });

  describe('measurement storage', () => {
    it('upserts on (device, field, observedAt): re-sending changes nothing, a later receipt replaces, an earlier one is ignored', async () => {
      const device = await seedDevice(t, tenant, type);
      expect(await write([row(device, 'temp', 10, 1, 20)])).toEqual({ written: 1 });
      expect(await write([row(device, 'temp', 10, 1, 20)])).toEqual({ written: 0 });
      expect(await write([row(device, 'temp', 10, 2, 15)])).toEqual({ written: 0 });
      expect(await write([row(device, 'temp', 10, 3, 30)])).toEqual({ written: 1 });
      const [stored] = await t.dataSource.query(`SELECT value_num, raw_received_at FROM measurements WHERE device_id = $1`, [device.deviceId]);
      expect(stored).toEqual({ value_num: 3, raw_received_at: at(30) });
    });

    it('takes duplicate keys in one batch without error, keeping the latest receipt', async () => {
      const device = await seedDevice(t, tenant, type);
      const result = await write([row(device, 'temp', 10, 1, 11), row(device, 'temp', 10, 3, 13), row(device, 'temp', 10, 2, 12), row(device, 'hum', 10, 7)]);
      expect(result).toEqual({ written: 2 });
      const res = await admin.get(measurementsPath(device, { from: iso(0), to: iso(60) }));
      expect(res.body.items).toEqual([
        { fieldKey: 'hum', observedAt: iso(10), value: 7 },
        { fieldKey: 'temp', observedAt: iso(10), value: 3 },
      ]);
    });

    it('refuses values that would corrupt data and fields without timeseries storage', async () => {
      const device = await seedDevice(t, tenant, type);
      await expect(write([row(device, 'temp', 1, Infinity)])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      await expect(write([row(device, 'temp', 1, 'warm')])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      await expect(write([row(device, 'label', 1, true)])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      await expect(write([{ ...row(device, 'temp', 1, 1), deviceId: randomUUID() }])).rejects.toBeInstanceOf(TelemetryWriteRefusedError);
      const [{ count }] = await t.dataSource.query(`SELECT count(*)::int AS count FROM measurements WHERE device_id = $1`, [device.deviceId]);
      expect(count).toBe(0);
    });
  });

  describe('both tables in one write', () => {
    const stored = async (device: SeededDevice) => {
      const [{ points }] = await t.dataSource.query(`SELECT count(*)::int AS points FROM measurements WHERE device_id = $1`, [device.deviceId]);
      const [{ current }] = await t.dataSource.query(`SELECT count(*)::int AS current FROM device_current_values WHERE device_id = $1`, [device.deviceId]);
      return { points, current };
    };

    it('writes a row given in both lists to both tables, and each list by its own rules', async () => {
      const device = await seedDevice(t, tenant, type);
      const shared = row(device, 'temp', 20, 21.5);
      const older = row(device, 'temp', 10, 20);
      const result = await writer.writeValues(t.dataSource.manager, {
        series: [older, shared, row(device, 'hum', 20, 40)],
        current: [shared, older, row(device, 'flag', 20, true)],
      });
      // Both temp points are stored; of the two temp current values only the newest is.
      expect(result).toEqual({ series: 3, current: 2 });
      expect(await stored(device)).toEqual({ points: 3, current: 2 });
      const res = await admin.get(currentPath(device));
      const byKey = Object.fromEntries(
        (res.body.fields as { definition: { key: string }; currentValue: unknown }[]).map((entry) => [entry.definition.key, entry.currentValue]),
      );
      expect(byKey).toMatchObject({ temp: 21.5, flag: true });
      // Sent again: the point stays (an equal receipt does not replace it), the current value is rewritten as is.
      expect(await writer.writeValues(t.dataSource.manager, { series: [shared], current: [shared] })).toEqual({ series: 0, current: 1 });
    });

    it('refuses the whole batch when one row does not fit one of its targets, naming that target', async () => {
      const device = await seedDevice(t, tenant, type);
      const flag = row(device, 'flag', 1, true); // current only: refused as a time series point
      await expect(writer.writeValues(t.dataSource.manager, { series: [row(device, 'temp', 1, 5), flag], current: [flag] })).rejects.toThrow(
        /has no timeseries field .*nothing of the batch was written/,
      );
      const hum = row(device, 'hum', 1, 5); // time series only: refused as a current value
      await expect(writer.writeValues(t.dataSource.manager, { series: [hum], current: [hum] })).rejects.toThrow(/has no current field/);
      expect(await stored(device)).toEqual({ points: 0, current: 0 });
    });
  });

  describe('raw reads', () => {
    let device: SeededDevice;

    beforeAll(async () => {
      device = await seedDevice(t, tenant, type);
      await write([
        row(device, 'temp', 0, 20),
        row(device, 'hum', 0, 40),
        row(device, 'label', 0, 'a'),
        row(device, 'cfg', 0, { x: 1 }),
        row(device, 'old', 0, 1.25),
        row(device, 'temp', 60, 21),
        row(device, 'label', 120, 'b'),
        row(device, 'temp', 180, 22),
      ]);
    });

    it('returns the points of [from, to) of every timeseries field (deprecated included) by (observedAt, fieldKey)', async () => {
      const res = await admin.get(measurementsPath(device, { from: iso(0), to: iso(180) }));
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        deviceId: device.deviceId,
        items: [
          { fieldKey: 'cfg', observedAt: iso(0), value: { x: 1 } },
          { fieldKey: 'hum', observedAt: iso(0), value: 40 },
          { fieldKey: 'label', observedAt: iso(0), value: 'a' },
          { fieldKey: 'old', observedAt: iso(0), value: 1.25 },
          { fieldKey: 'temp', observedAt: iso(0), value: 20 },
          { fieldKey: 'temp', observedAt: iso(60), value: 21 },
          { fieldKey: 'label', observedAt: iso(120), value: 'b' },
        ],
      });
    });

    it('filters by fieldKeys and accepts any offset', async () => {
      const res = await admin.get(
        measurementsPath(device, { from: '2026-01-01T01:00:30+01:00', to: '2026-01-01T00:03:00.001Z', fieldKeys: 'temp,old' }),
      );
      expect(res.status).toBe(200);
      expect((res.body.items as Point[]).map((item) => [item.fieldKey, item.observedAt])).toEqual([
        ['temp', iso(60)],
        ['temp', iso(180)],
      ]);
    });

    it('walks a cursor over every point exactly once, in order', async () => {
      const walked = await seedDevice(t, tenant, type);
      const rows: TelemetryRow[] = [];
      for (let i = 0; i < 25; i++) {
        rows.push(row(walked, 'temp', i * 10, i), row(walked, 'hum', i * 10, 100 + i), row(walked, 'old', i * 10 + (i % 2), 200 + i));
      }
      await write(rows);
      const { items, pages } = await walk(admin, walked, { from: iso(0), to: iso(1000), limit: 7 });
      expect(pages).toBe(Math.ceil(75 / 7));
      const expected = rows
        .map((r) => ({ fieldKey: Object.keys(fields).find((key) => fields[key]!.fieldNo === r.fieldNo)!, observedAt: r.observedAt.toISOString(), value: r.value }))
        .sort((a, b) => a.observedAt.localeCompare(b.observedAt) || (a.fieldKey < b.fieldKey ? -1 : 1));
      expect(items).toEqual(expected);

      const exact = await walk(admin, walked, { from: iso(0), to: iso(1000), limit: 75 });
      expect(exact).toEqual({ items: expected, pages: 1 });
    });
  });

  describe('bucketed reads', () => {
    let device: SeededDevice;
    // hum: 1 @ 00:00:10, 3 @ 00:00:50, 5 @ 00:01:30, 10 @ 00:05:00, 20 @ 01:00:00, 40 @ 07:00:00, 80 @ next day 00:00:00.
    const humPoints: [number, number][] = [
      [10, 1],
      [50, 3],
      [90, 5],
      [300, 10],
      [3600, 20],
      [7 * 3600, 40],
      [DAY, 80],
    ];
    const buckets = async (query: Record<string, string | number>) => {
      const res = await admin.get(measurementsPath(device, { from: iso(0), to: iso(2 * DAY), fieldKeys: 'hum', ...query }));
      expect(res.status).toBe(200);
      return (res.body.items as BucketItem[]).map((item) => [item.bucketStart.slice(0, 19), item.value, item.count]);
    };
    const day = '2026-01-01T';

    beforeAll(async () => {
      device = await seedDevice(t, tenant, type);
      await write([
        ...humPoints.map(([seconds, value]) => row(device, 'hum', seconds, value)),
        row(device, 'label', 10, 'x'),
        row(device, 'label', 20, 'y'),
        row(device, 'label', 4000, 'z'),
        row(device, 'cfg', 30, { v: 1 }),
        row(device, 'cfg', 40, [2]),
      ]);
    });

    it('aggregates into epoch-aligned buckets of every width, in SQL', async () => {
      expect(await buckets({ bucket: '1m' })).toEqual([
        [`${day}00:00:00`, 2, 2],
        [`${day}00:01:00`, 5, 1],
        [`${day}00:05:00`, 10, 1],
        [`${day}01:00:00`, 20, 1],
        [`${day}07:00:00`, 40, 1],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
      expect(await buckets({ bucket: '5m' })).toEqual([
        [`${day}00:00:00`, 3, 3],
        [`${day}00:05:00`, 10, 1],
        [`${day}01:00:00`, 20, 1],
        [`${day}07:00:00`, 40, 1],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
      expect(await buckets({ bucket: '15m', aggregation: 'avg' })).toEqual([
        [`${day}00:00:00`, 4.75, 4],
        [`${day}01:00:00`, 20, 1],
        [`${day}07:00:00`, 40, 1],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
      expect(await buckets({ bucket: '1h', aggregation: 'sum' })).toEqual([
        [`${day}00:00:00`, 19, 4],
        [`${day}01:00:00`, 20, 1],
        [`${day}07:00:00`, 40, 1],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
      expect(await buckets({ bucket: '6h', aggregation: 'max' })).toEqual([
        [`${day}00:00:00`, 20, 5],
        [`${day}06:00:00`, 40, 1],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
      expect(await buckets({ bucket: '1d', aggregation: 'min' })).toEqual([
        [`${day}00:00:00`, 1, 6],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
      expect(await buckets({ bucket: '1d', aggregation: 'count' })).toEqual([
        [`${day}00:00:00`, 6, 6],
        ['2026-01-02T00:00:00', 1, 1],
      ]);
      expect(await buckets({ bucket: '1d', aggregation: 'last' })).toEqual([
        [`${day}00:00:00`, 40, 6],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
      expect(await buckets({ bucket: '1d', aggregation: 'avg' })).toEqual([
        [`${day}00:00:00`, 79 / 6, 6],
        ['2026-01-02T00:00:00', 80, 1],
      ]);
    });

    it('counts only the points in [from, to), even when a bucket starts before from', async () => {
      expect(await buckets({ bucket: '1h', from: iso(50), to: iso(3600) })).toEqual([[`${day}00:00:00`, 6, 3]]);
    });

    it('allows count and last on non-number fields, and refuses numeric aggregations on them', async () => {
      expect(await buckets({ bucket: '1h', aggregation: 'last', fieldKeys: 'label,cfg' })).toEqual([
        [`${day}00:00:00`, [2], 2],
        [`${day}00:00:00`, 'y', 2],
        [`${day}01:00:00`, 'z', 1],
      ]);
      expect(await buckets({ bucket: '1d', aggregation: 'count', fieldKeys: 'label' })).toEqual([[`${day}00:00:00`, 3, 3]]);
      for (const aggregation of ['avg', 'min', 'max', 'sum']) {
        const res = await admin.get(measurementsPath(device, { from: iso(0), to: iso(DAY), fieldKeys: 'hum,label', bucket: '1h', aggregation }));
        expect(res.status).toBe(400);
        expect(fieldsOf(res)).toEqual([{ path: 'query.aggregation', rule: 'aggregation_not_applicable' }]);
      }
      const implicitAvg = await admin.get(measurementsPath(device, { from: iso(0), to: iso(DAY), fieldKeys: 'cfg', bucket: '1h' }));
      expect(fieldsOf(implicitAvg)).toEqual([{ path: 'query.aggregation', rule: 'aggregation_not_applicable' }]);
    });

    it('without fieldKeys, aggregates the number fields for a numeric aggregation and every timeseries field for count', async () => {
      const avg = await admin.get(measurementsPath(device, { from: iso(0), to: iso(2 * DAY), bucket: '1d' }));
      expect((avg.body.items as BucketItem[]).map((item) => item.fieldKey)).toEqual(['hum', 'hum']);
      const count = await admin.get(measurementsPath(device, { from: iso(0), to: iso(2 * DAY), bucket: '1d', aggregation: 'count' }));
      expect((count.body.items as BucketItem[]).map((item) => [item.fieldKey, item.value])).toEqual([
        ['cfg', 2],
        ['hum', 6],
        ['label', 3],
        ['hum', 1],
      ]);
    });

    it('walks a bucketed cursor over every bucket exactly once', async () => {
      const walked = await seedDevice(t, tenant, type);
      const rows: TelemetryRow[] = [];
      for (let i = 0; i < 25; i++) {
        rows.push(row(walked, 'temp', i * 60 + 5, i), row(walked, 'temp', i * 60 + 30, i + 2), row(walked, 'hum', i * 60, i));
        if (i % 3 === 0) rows.push(row(walked, 'old', i * 60 + 59, 7));
      }
      await write(rows);
      const query = { from: iso(0), to: iso(3600), bucket: '1m', aggregation: 'sum', limit: 4 };
      const { items } = await walk(admin, walked, query);
      const expected: BucketItem[] = [];
      for (let i = 0; i < 25; i++) {
        const bucketStart = iso(i * 60);
        expected.push({ fieldKey: 'hum', bucketStart, value: i, count: 1 });
        if (i % 3 === 0) expected.push({ fieldKey: 'old', bucketStart, value: 7, count: 1 });
        expected.push({ fieldKey: 'temp', bucketStart, value: 2 * i + 2, count: 2 });
      }
      expect(items).toEqual(expected);
    });
  });

  describe('bucketed reads over gaps', () => {
    it('pages across long gaps in the data, every bucket exactly once (each read spans at most limit + 1 buckets)', async () => {
      const sparse = await seedDevice(t, tenant, type);
      const minutes = [0, 1, 2, 500, 501, 2000, 2879];
      await write(minutes.flatMap((minute) => [row(sparse, 'hum', minute * 60 + 7, minute), row(sparse, 'temp', minute * 60 + 9, 1000 - minute)]));
      const query = { from: iso(0), to: iso(2 * DAY), bucket: '1m', aggregation: 'max', limit: 3 };
      const { items, pages } = await walk(admin, sparse, query);
      expect(items).toEqual(
        minutes.flatMap((minute) => [
          { fieldKey: 'hum', bucketStart: iso(minute * 60), value: minute, count: 1 },
          { fieldKey: 'temp', bucketStart: iso(minute * 60), value: 1000 - minute, count: 1 },
        ]),
      );
      expect(pages).toBe(5);
    });
  });

  describe('query validation and cursors', () => {
    let device: SeededDevice;

    beforeAll(async () => {
      device = await seedDevice(t, tenant, type);
      const rows: TelemetryRow[] = [];
      for (let i = 0; i < 10; i++) rows.push(row(device, 'temp', i, i));
      await write(rows);
    });

    const expectViolation = async (query: Record<string, string | number>, path: string, rule: string) => {
      const res = await admin.get(measurementsPath(device, query));
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('VALIDATION_FAILED');
      expect(fieldsOf(res)).toContainEqual({ path, rule });
    };

    it('validates from, to, spans, field keys, bucket, aggregation and limit', async () => {
      await expectViolation({ to: iso(10) }, 'query.from', 'required');
      await expectViolation({ from: iso(0) }, 'query.to', 'required');
      await expectViolation({ from: '2026-01-01', to: iso(10) }, 'query.from', 'format');
      await expectViolation({ from: iso(10), to: iso(10) }, 'query.to', 'range');
      await expectViolation({ from: iso(10), to: iso(0) }, 'query.to', 'range');
      await expectViolation({ from: iso(0), to: iso(31 * DAY + 1) }, 'query.to', 'max_span');
      expect((await admin.get(measurementsPath(device, { from: iso(0), to: iso(31 * DAY) }))).status).toBe(200);
      await expectViolation({ from: iso(0), to: iso(366 * DAY + 1), bucket: '1d' }, 'query.to', 'max_span');
      expect((await admin.get(measurementsPath(device, { from: iso(0), to: iso(366 * DAY), bucket: '1d' }))).status).toBe(200);
      await expectViolation({ from: iso(0), to: iso(10), fieldKeys: 'nope' }, 'query.fieldKeys', 'reference_not_found');
      await expectViolation({ from: iso(0), to: iso(10), fieldKeys: 'temp,flag' }, 'query.fieldKeys', 'not_timeseries_field');
      const many = Array.from({ length: 51 }, (_, i) => `k${i}`).join(',');
      await expectViolation({ from: iso(0), to: iso(10), fieldKeys: many }, 'query.fieldKeys', 'max_items');
      await expectViolation({ from: iso(0), to: iso(10), fieldKeys: '' }, 'query.fieldKeys', 'min_items');
      await expectViolation({ from: iso(0), to: iso(10), fieldKeys: 'temp,' }, 'query.fieldKeys', 'pattern');
      await expectViolation({ from: iso(0), to: iso(10), fieldKeys: 'temp,temp' }, 'query.fieldKeys', 'unique');
      await expectViolation({ from: iso(0), to: iso(10), aggregation: 'max' }, 'query.bucket', 'required');
      await expectViolation({ from: iso(0), to: iso(10), bucket: '2m' }, 'query.bucket', 'enum');
      await expectViolation({ from: iso(0), to: iso(10), bucket: '1m', aggregation: 'median' }, 'query.aggregation', 'enum');
      await expectViolation({ from: iso(0), to: iso(10), limit: 0 }, 'query.limit', 'minimum');
      await expectViolation({ from: iso(0), to: iso(10), limit: 1001 }, 'query.limit', 'maximum');
      await expectViolation({ from: iso(0), to: iso(10), sort: 'desc' }, 'query.sort', 'unknown_property');
      const ok = await admin.get(measurementsPath(device, { from: iso(0), to: iso(10), limit: 1000 }));
      expect(ok.status).toBe(200);
      expect(ok.body.items).toHaveLength(10);
      const defaultLimit = await admin.get(measurementsPath(device, { from: iso(0), to: iso(10) }));
      expect(defaultLimit.body.nextCursor).toBeUndefined();
    });

    it('binds the cursor to every filter and the limit; an altered cursor is cursor_invalid', async () => {
      const query = { from: iso(0), to: iso(10), fieldKeys: 'temp', limit: 3 };
      const first = await admin.get(measurementsPath(device, query));
      const cursor = first.body.nextCursor as string;
      expect(cursor).toEqual(expect.any(String));
      expect((await admin.get(measurementsPath(device, { ...query, cursor }))).status).toBe(200);
      const changes: Record<string, string | number>[] = [{ to: iso(11) }, { from: '2026-01-01T00:00:00.001Z' }, { limit: 4 }, { fieldKeys: 'temp,hum' }, { bucket: '1m' }];
      for (const changed of changes) {
        await expectViolation({ ...query, ...changed, cursor }, 'query.cursor', 'cursor_mismatch');
      }
      // Same instants in another offset are the same filters.
      expect((await admin.get(measurementsPath(device, { ...query, from: '2026-01-01T01:00:00+01:00', cursor }))).status).toBe(200);
      const bucketQuery = { from: iso(0), to: iso(600), fieldKeys: 'temp', bucket: '1m', limit: 1 };
      const other = await seedDevice(t, tenant, type);
      await write([row(other, 'temp', 0, 1), row(other, 'temp', 60, 2)]);
      const bucketCursor = (await admin.get(measurementsPath(other, bucketQuery))).body.nextCursor as string;
      await expectViolation({ ...bucketQuery, aggregation: 'max', cursor: bucketCursor }, 'query.cursor', 'cursor_mismatch');
      // Another device's cursor, another caller's cursor.
      await expectViolation({ ...query, cursor: bucketCursor }, 'query.cursor', 'cursor_mismatch');
      const flipped = cursor.slice(0, 10) + (cursor[10] === 'A' ? 'B' : 'A') + cursor.slice(11);
      await expectViolation({ ...query, cursor: flipped }, 'query.cursor', 'cursor_invalid');
      await expectViolation({ ...query, cursor: 'not-a-cursor' }, 'query.cursor', 'cursor_invalid');
    });

    it('checks the query before the device: a bad query on a missing device is a 400', async () => {
      const res = await admin.get(measurementsPath(randomUUID(), { from: iso(10), to: iso(0) }));
      expect(res.status).toBe(400);
      expect((await admin.get(`/v1/devices/not-a-uuid/current-values`)).status).toBe(400);
    });
  });

  describe('visibility', () => {
    let unitA: SeededUnit;
    let unitB: SeededUnit;
    let viewer: Api;
    let moved: SeededDevice;

    beforeAll(async () => {
      const root = await seedUnit(t, tenant);
      unitA = await seedUnit(t, tenant, root);
      unitB = await seedUnit(t, tenant, root);
      const user = await seedUser(t);
      await seedGrant(t, user.userId, tenant, 'tenant_viewer', unitB);
      viewer = as(t, (await login(t, user.username, user.password)).accessToken);
      // In A during the first hour, then in B.
      moved = await seedDevice(t, tenant, type);
      await seedAssignment(t, tenant, moved, unitA, at(-DAY), at(3600));
      await seedAssignment(t, tenant, moved, unitB, at(3600));
      const rows: TelemetryRow[] = [];
      for (let minute = 0; minute < 120; minute += 10) rows.push(row(moved, 'temp', minute * 60, minute));
      await write(rows);
      await writeCurrent([row(moved, 'temp', 7000, 99)]);
    });

    it('shows a unit-scoped viewer only the points observed while the device was in its unit', async () => {
      const res = await viewer.get(measurementsPath(moved, { from: iso(0), to: iso(DAY) }));
      expect(res.status).toBe(200);
      expect((res.body.items as Point[]).map((item) => item.value)).toEqual([60, 70, 80, 90, 100, 110]);
      const all = await admin.get(measurementsPath(moved, { from: iso(0), to: iso(DAY) }));
      expect(all.body.items).toHaveLength(12);

      const walked = await walk(viewer, moved, { from: iso(0), to: iso(DAY), limit: 4 });
      expect((walked.items as Point[]).map((item) => item.value)).toEqual([60, 70, 80, 90, 100, 110]);

      const daily = await viewer.get(measurementsPath(moved, { from: iso(0), to: iso(DAY), bucket: '1d', aggregation: 'sum' }));
      expect(daily.body.items).toEqual([{ fieldKey: 'temp', bucketStart: iso(0), value: 510, count: 6 }]);
      const hidden = await viewer.get(measurementsPath(moved, { from: iso(0), to: iso(3600) }));
      expect(hidden.body).toEqual({ deviceId: moved.deviceId, items: [] });

      const current = await viewer.get(currentPath(moved));
      expect(current.status).toBe(200);
      expect(current.body.fields[0]).toMatchObject({ definition: { key: 'temp' }, currentValue: 99 });
    });

    it('joins several visible periods: out of the viewer’s unit and back again', async () => {
      // B for the first hour, A for the second, B again from the third on.
      const roaming = await seedDevice(t, tenant, type);
      await seedAssignment(t, tenant, roaming, unitB, at(-DAY), at(3600));
      await seedAssignment(t, tenant, roaming, unitA, at(3600), at(7200));
      await seedAssignment(t, tenant, roaming, unitB, at(7200));
      const rows: TelemetryRow[] = [];
      for (let minute = 0; minute < 180; minute += 15) rows.push(row(roaming, 'temp', minute * 60, minute), row(roaming, 'hum', minute * 60 + 1, 1));
      await write(rows);
      const visibleMinutes = [0, 15, 30, 45, 120, 135, 150, 165];

      const raw = await walk(viewer, roaming, { from: iso(0), to: iso(DAY), fieldKeys: 'temp', limit: 3 });
      expect((raw.items as Point[]).map((item) => item.value)).toEqual(visibleMinutes);
      const hourly = await viewer.get(measurementsPath(roaming, { from: iso(0), to: iso(DAY), bucket: '1h', aggregation: 'count' }));
      expect((hourly.body.items as BucketItem[]).map((item) => [item.fieldKey, item.bucketStart, item.value])).toEqual([
        ['hum', iso(0), 4],
        ['temp', iso(0), 4],
        ['hum', iso(7200), 4],
        ['temp', iso(7200), 4],
      ]);
      const daily = await walk(viewer, roaming, { from: iso(0), to: iso(DAY), bucket: '1d', aggregation: 'sum', limit: 1 });
      expect(daily.items).toEqual([
        { fieldKey: 'hum', bucketStart: iso(0), value: 8, count: 8 },
        { fieldKey: 'temp', bucketStart: iso(0), value: visibleMinutes.reduce((sum, minute) => sum + minute, 0), count: 8 },
      ]);
      const everything = await admin.get(measurementsPath(roaming, { from: iso(0), to: iso(DAY), bucket: '1d', aggregation: 'count' }));
      expect((everything.body.items as BucketItem[]).map((item) => item.value)).toEqual([12, 12]);
    });

    it('answers a device outside the scope or in another tenant exactly like a missing one', async () => {
      const inA = await seedDevice(t, tenant, type, unitA);
      const otherTenant = await seedTenant(t);
      const otherType = await seedDeviceType(t, otherTenant);
      const foreign = await seedDevice(t, otherTenant, otherType);
      const outsider = await seedUser(t);
      await seedGrant(t, outsider.userId, otherTenant, 'tenant_admin');
      const tenantAdmin = as(t, (await login(t, outsider.username, outsider.password)).accessToken);
      const query = { from: iso(0), to: iso(10) };

      const missingCurrent = await viewer.get(`/v1/devices/${randomUUID()}/current-values`);
      const missingMeasurements = await viewer.get(measurementsPath(randomUUID(), query));
      expect(missingCurrent.status).toBe(404);
      expect(missingCurrent.body.error.details).toEqual({ resourceType: 'device' });
      const cases: [Api, SeededDevice][] = [
        [viewer, inA],
        [viewer, foreign],
        [tenantAdmin, moved],
      ];
      for (const [api, target] of cases) {
        expect(withoutCorrelation(await api.get(currentPath(target)))).toEqual(withoutCorrelation(missingCurrent));
        expect(withoutCorrelation(await api.get(measurementsPath(target, query)))).toEqual(withoutCorrelation(missingMeasurements));
      }
    });
  });
});
