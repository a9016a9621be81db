import type { LegacySnapshot } from '../source/legacy-source.client';
import { planImport, TargetState } from './legacy-import-plan';

const TARGET = 'target-tenant';
const OTHER = 'other-tenant';
const EUI = (n: number) => n.toString(16).toUpperCase().padStart(16, '0');

function target(overrides: Partial<Omit<TargetState, 'tenantId'>> = {}): TargetState {
  return { tenantId: TARGET, typesByKey: new Map(), devicesByDevEui: new Map(), ...overrides };
}

/** One source tenant `s` with one valid type `t` (code `meter`) plus the given records. */
function snapshot(devices: Record<string, unknown>[], deviceTypes: Record<string, unknown>[] = []): LegacySnapshot {
  return {
    tenantCount: 1,
    deviceTypes: [{ id: 't', code: 'Meter', name: 'Meter' }, ...deviceTypes].map((record) => ({ sourceTenantId: 's', record })),
    devices: devices.map((record) => ({ sourceTenantId: 's', record })),
  };
}

const device = (overrides: Record<string, unknown> = {}) => ({ id: 'd', devEui: EUI(1), name: 'Device', deviceTypeId: 't', ...overrides });

describe('planImport: device types', () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['no id', { code: 'x1', name: 'X' }, 'x1'],
    ['no code', { id: 'x', name: 'X' }, 'x'],
    ['no name', { id: 'x', code: 'x1' }, 'x'],
    ['a name over 200', { id: 'x', code: 'x1', name: 'n'.repeat(201) }, 'x'],
    ['a blank name', { id: 'x', code: 'x1', name: ' \t' }, 'x'],
    ['nothing at all', {}, 'index:1'],
  ])('skips a type with %s as incomplete_source_record', (_case, record, sourceIdentifier) => {
    const plan = planImport(snapshot([], [record]), target());
    expect(plan.deviceTypes).toEqual({ created: 1, existing: 0, skipped: 1 });
    expect(plan.issues).toEqual([{ entity: 'device_type', code: 'incomplete_source_record', sourceIdentifier }]);
  });

  it.each(['has space', '-leading', 'x'.repeat(65), 'ümlaut'])('skips the code %j as invalid_device_type_code', (code) => {
    const plan = planImport(snapshot([], [{ id: 7, code, name: 'X' }]), target());
    expect(plan.issues).toEqual([{ entity: 'device_type', code: 'invalid_device_type_code', sourceIdentifier: '7' }]);
  });

  it('creates a type under its lower-cased code, with the description cut to 500', () => {
    const plan = planImport(snapshot([], [{ id: 'x', code: 'Water.Meter_2', name: 'Water', description: 'd'.repeat(600) }]), target());
    expect(plan.newTypes[1]).toEqual({ deviceTypeId: expect.any(String), key: 'water.meter_2', name: 'Water', description: 'd'.repeat(500) });
  });

  it('merges one code of several source tenants into the first record, counting the others existing', () => {
    const plan = planImport(
      {
        tenantCount: 2,
        deviceTypes: [
          { sourceTenantId: 'a', record: { id: 1, code: 'meter', name: 'First' } },
          { sourceTenantId: 'b', record: { id: 1, code: 'METER', name: 'Second' } },
        ],
        devices: [
          { sourceTenantId: 'a', record: device({ id: 'a1', devEui: EUI(1), deviceTypeId: 1 }) },
          { sourceTenantId: 'b', record: device({ id: 'b1', devEui: EUI(2), deviceTypeId: 1 }) },
        ],
      },
      target(),
    );
    expect(plan.deviceTypes).toEqual({ created: 1, existing: 1, skipped: 0 });
    expect(plan.newTypes.map((type) => type.name)).toEqual(['First']);
    expect(new Set(plan.newDevices.map((created) => created.deviceTypeId))).toEqual(new Set([plan.newTypes[0]!.deviceTypeId]));
  });

  it('uses an active type of the target (existing) and skips onto a disabled one', () => {
    const plan = planImport(
      snapshot([], [{ id: 'x', code: 'off', name: 'Off' }]),
      target({
        typesByKey: new Map([
          ['meter', { deviceTypeId: 'existing-meter', key: 'meter', status: 'active' }],
          ['off', { deviceTypeId: 'existing-off', key: 'off', status: 'disabled' }],
        ]),
      }),
    );
    expect(plan.deviceTypes).toEqual({ created: 0, existing: 1, skipped: 1 });
    expect(plan.issues).toEqual([{ entity: 'device_type', code: 'disabled_existing_device_type', sourceIdentifier: 'x' }]);
  });
});

describe('planImport: devices', () => {
  const issueOf = (records: Record<string, unknown>[], state = target(), types: Record<string, unknown>[] = []) => planImport(snapshot(records, types), state).issues;

  it('excludes assets before any other rule', () => {
    expect(issueOf([{ kind: 'asset' }])).toEqual([{ entity: 'device', code: 'asset_excluded', sourceIdentifier: 'index:0' }]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['no id', { id: undefined }],
    ['no devEui', { devEui: undefined }],
    ['no name', { name: undefined }],
    ['no type', { deviceTypeId: undefined }],
    ['a name over 200', { name: 'n'.repeat(201) }],
    ['a blank name', { name: '  ' }],
    ['a devEui that is not a string', { devEui: 1234 }],
  ])('skips a device with %s as incomplete_source_record', (_case, overrides) => {
    const record = JSON.parse(JSON.stringify(device(overrides))) as Record<string, unknown>;
    expect(issueOf([record]).map((issue) => issue.code)).toEqual(['incomplete_source_record']);
  });

  it('normalises devEuis (separators, case) and skips what is still not 16 hex digits', () => {
    const plan = planImport(
      snapshot([
        device({ id: 'a', devEui: '70:b3:d5:7e:d0:00:00:01' }),
        device({ id: 'b', devEui: '70-B3-D5-7E-D0-00-00-02' }),
        device({ id: 'c', devEui: '70B3 D57E D000 0003' }),
        device({ id: 'd', devEui: '70B3D57ED000000' }),
        device({ id: 'e', devEui: '70B3D57ED00000GG' }),
        device({ id: 'f', devEui: '70.B3.D5.7E.D0.00.00.04' }),
      ]),
      target(),
    );
    expect(plan.newDevices.map((created) => created.devEui)).toEqual(['70B3D57ED0000001', '70B3D57ED0000002', '70B3D57ED0000003']);
    expect(plan.issues.map((issue) => [issue.sourceIdentifier, issue.code])).toEqual([
      ['d', 'invalid_dev_eui'],
      ['e', 'invalid_dev_eui'],
      ['f', 'invalid_dev_eui'],
    ]);
  });

  it('skips a device whose type is unknown or invalid (missing_device_type) or an existing disabled one', () => {
    const state = target({ typesByKey: new Map([['off', { deviceTypeId: 'x', key: 'off', status: 'disabled' }]]) });
    const issues = issueOf(
      [device({ id: 'a', deviceTypeId: 'nope' }), device({ id: 'b', devEui: EUI(2), deviceTypeId: 'bad' }), device({ id: 'c', devEui: EUI(3), deviceTypeId: 'off' })],
      state,
      [
        { id: 'bad', code: 'not valid', name: 'Bad' },
        { id: 'off', code: 'off', name: 'Off' },
      ],
    );
    expect(issues.filter((issue) => issue.entity === 'device').map((issue) => [issue.sourceIdentifier, issue.code])).toEqual([
      ['a', 'missing_device_type'],
      ['b', 'missing_device_type'],
      ['c', 'disabled_existing_device_type'],
    ]);
  });

  it('skips every occurrence of a devEui the source lists twice, however it is written', () => {
    const issues = issueOf([device({ id: 'a' }), device({ id: 'b', devEui: EUI(1).toLowerCase() }), device({ id: 'c', devEui: EUI(3) })]);
    expect(issues).toEqual([
      { entity: 'device', code: 'duplicate_source_dev_eui', sourceIdentifier: 'a' },
      { entity: 'device', code: 'duplicate_source_dev_eui', sourceIdentifier: 'b' },
    ]);
  });

  it('skips a devEui another tenant holds, keeps a matching one of the target, skips a differing one', () => {
    const meter = { deviceTypeId: 'existing-meter', key: 'meter', status: 'active' as const };
    const holder = (devEui: string, tenantId: string, name: string, deviceTypeId = 'existing-meter') => [devEui, { deviceId: 'x', tenantId, deviceTypeId, devEui, name }] as const;
    const plan = planImport(
      snapshot([
        device({ id: 'other', devEui: EUI(1) }),
        device({ id: 'same', devEui: EUI(2), name: 'Same' }),
        device({ id: 'renamed', devEui: EUI(3), name: 'New' }),
        device({ id: 'retyped', devEui: EUI(4), name: 'Same' }),
      ]),
      target({
        typesByKey: new Map([['meter', meter]]),
        devicesByDevEui: new Map([holder(EUI(1), OTHER, 'Device'), holder(EUI(2), TARGET, 'Same'), holder(EUI(3), TARGET, 'Old'), holder(EUI(4), TARGET, 'Same', 'another-type')]),
      }),
    );
    expect(plan.devices).toEqual({ created: 0, existing: 1, skipped: 3 });
    expect(plan.issues.map((issue) => [issue.sourceIdentifier, issue.code])).toEqual([
      ['other', 'device_exists_in_other_tenant'],
      ['renamed', 'existing_device_mismatch'],
      ['retyped', 'existing_device_mismatch'],
    ]);
  });

  it('creates active devices with the source string metadata (first 48 that fit) and the legacy ids', () => {
    const metadata: Record<string, unknown> = { number: 5, nested: {}, ['k'.repeat(65)]: 'too long a name', long: 'v'.repeat(1025), 'legacy.sourceId': 'spoof' };
    for (let i = 0; i < 60; i++) metadata[`m${i}`] = `v${i}`;
    const plan = planImport(snapshot([device({ id: 42, metadata })]), target());
    const created = plan.newDevices[0]!.metadata;
    expect(Object.keys(created)).toHaveLength(50);
    expect(created.m0).toBe('v0');
    expect(created.m47).toBe('v47');
    expect(created.m48).toBeUndefined();
    expect(created).toMatchObject({ 'legacy.sourceId': '42', 'legacy.tenantId': 's' });
  });

  it('cuts a source identifier to 200 characters and counts every record', () => {
    const plan = planImport(snapshot([device({ id: 'i'.repeat(300), devEui: 'bad' }), device({ id: 'ok', devEui: EUI(9) })]), target());
    expect(plan.issues[0]!.sourceIdentifier).toBe('i'.repeat(200));
    expect(plan.devices).toEqual({ created: 1, existing: 0, skipped: 1 });
  });
});
