import { storesMappingColumns, withStoredMapping } from './stored-mapping';

const body = (value: unknown) => Buffer.from(JSON.stringify(value));

describe('withStoredMapping', () => {
  it('maps a webhook row kept as its body alone again, with the mapper of its source', () => {
    const row = withStoredMapping({
      source: 'chirpstack' as const,
      raw_payload: null,
      connection_data: null,
      mapped_body: body({ deviceInfo: { devEui: '0a0b0c0d0e0f1011' }, data: 'AQI=', fPort: 2 }),
    });
    expect(row.raw_payload).toEqual({ encoding: 'base64', data: 'AQI=' });
    expect(row.connection_data).toMatchObject({ networkServer: 'chirpstack', fPort: 2 });
    const http = withStoredMapping({
      source: 'http' as const,
      raw_payload: null,
      connection_data: null,
      mapped_body: body({ devEui: '0a0b0c0d0e0f1011', payload: { encoding: 'hex', data: '01' }, connectionData: { rssi: -90 } }),
    });
    expect([http.raw_payload, http.connection_data]).toEqual([{ encoding: 'hex', data: '01' }, { rssi: -90 }]);
  });

  it('keeps the columns of a row that stores its mapping, and leaves an unmapped row without one', () => {
    const kept = { source: 'chirpstack' as const, raw_payload: { encoding: 'hex', data: 'ff' }, connection_data: { kept: true }, mapped_body: null };
    expect(withStoredMapping({ ...kept })).toEqual(kept);
    const rejected = { source: 'tts' as const, raw_payload: null, connection_data: null, mapped_body: null };
    expect(withStoredMapping({ ...rejected })).toEqual(rejected);
    // A body that no longer maps (never the case for a stored uplink) leaves the mapping empty rather than failing the read.
    expect(withStoredMapping({ source: 'tts' as const, raw_payload: null, connection_data: null, mapped_body: Buffer.from('{') }).raw_payload).toBeNull();
  });
});

describe('storesMappingColumns', () => {
  it('keeps columns only where the body alone does not decide the mapping (MQTT: the broker format)', () => {
    expect(['chirpstack', 'tts', 'http', 'mqtt'].map((source) => storesMappingColumns(source as 'mqtt'))).toEqual([false, false, false, true]);
  });
});
