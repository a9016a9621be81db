import { instant, mapChirpStackUp, mapHttpUplink, mapTtsMessage } from './uplink-mapping';

describe('instant', () => {
  it('reads RFC 3339 with nanoseconds and offsets, cut to milliseconds', () => {
    expect(instant('2026-03-14T09:34:15.775023242+00:00')?.toISOString()).toBe('2026-03-14T09:34:15.775Z');
    expect(instant('2026-03-14T11:34:15.7+02:00')?.toISOString()).toBe('2026-03-14T09:34:15.700Z');
    expect(instant('2026-03-14T09:34:15Z')?.toISOString()).toBe('2026-03-14T09:34:15.000Z');
  });

  it('treats absent and Go\'s zero time as none, and anything else as invalid', () => {
    expect(instant(undefined)).toBeNull();
    expect(instant('0001-01-01T00:00:00Z')).toBeNull();
    expect(instant('0001-01-01T00:00:00.000000000+00:00')).toBeNull();
    expect(instant('yesterday')).toBeUndefined();
    expect(instant(1700000000)).toBeUndefined();
    expect(instant('2026-13-40T25:00:00Z')).toBeUndefined();
  });
});

describe('mapChirpStackUp', () => {
  it('fills omitted zero values and upper-cases the devEui', () => {
    const result = mapChirpStackUp({ deviceInfo: { devEui: '0a0b0c0d0e0f1011' } });
    expect(result).toEqual({
      kind: 'uplink',
      uplink: {
        devEui: '0A0B0C0D0E0F1011',
        observedAt: null,
        rawPayload: { encoding: 'base64', data: '' },
        connectionData: { networkServer: 'chirpstack', deduplicationId: null, devAddr: null, fPort: 0, fCnt: 0, dr: 0, adr: false, confirmed: false, rxInfo: [], txInfo: {} },
        dedupKey: null,
      },
    });
  });

  it('refuses non-base64 data and a bad time', () => {
    expect(mapChirpStackUp({ deviceInfo: { devEui: '0a0b0c0d0e0f1011' }, data: 'not base64!' })).toMatchObject({ kind: 'malformed' });
    expect(mapChirpStackUp({ deviceInfo: { devEui: '0a0b0c0d0e0f1011' }, time: 'now' })).toMatchObject({ kind: 'malformed' });
    expect(mapChirpStackUp([])).toMatchObject({ kind: 'malformed' });
  });

  it('keeps the dedup key within its 300-character column', () => {
    const result = mapChirpStackUp({ deviceInfo: { devEui: '0a0b0c0d0e0f1011' }, deduplicationId: 'x'.repeat(400) });
    expect(result).toMatchObject({ kind: 'uplink', uplink: { dedupKey: `chirpstack:${'x'.repeat(289)}` } });
  });
});

describe('mapTtsMessage', () => {
  it('ignores non-uplink messages and keys uplinks by the as:up correlation id', () => {
    expect(mapTtsMessage({ end_device_ids: {}, downlink_ack: {} })).toEqual({ kind: 'ignored' });
    const result = mapTtsMessage({
      end_device_ids: { dev_eui: '0004A30B001C0530' },
      correlation_ids: ['ns:uplink:1', 'as:up:01ABC'],
      uplink_message: { frm_payload: 'AQ==' },
    });
    expect(result).toMatchObject({ kind: 'uplink', uplink: { dedupKey: 'tts:as:up:01ABC', observedAt: null, connectionData: { fPort: null, fCnt: 0 } } });
  });

  it('has no dedup key without a correlation id or a receive time', () => {
    expect(mapTtsMessage({ end_device_ids: { dev_eui: '0004A30B001C0530' }, uplink_message: {} })).toMatchObject({ uplink: { dedupKey: null } });
  });
});

describe('mapHttpUplink', () => {
  it('reports every violation at once', () => {
    const result = mapHttpUplink({ payload: { encoding: 'rot13', data: 1 }, observedAt: 'soon', connectionData: [], messageId: '' });
    expect(result.kind).toBe('malformed');
    const paths = result.kind === 'malformed' ? result.violations.map((v) => `${v.path}:${v.rule}`) : [];
    expect(paths).toEqual([
      'body.devEui:required',
      'body.payload.encoding:enum',
      'body.payload.data:type',
      'body.observedAt:format',
      'body.connectionData:type',
      'body.messageId:min_length',
    ]);
  });

  it('refuses connectionData over 16 KiB', () => {
    const result = mapHttpUplink({ devEui: '0004A30B001C0530', payload: { encoding: 'utf8', data: '' }, connectionData: { x: 'y'.repeat(17 * 1024) } });
    expect(result).toMatchObject({ kind: 'malformed', violations: [{ path: 'body.connectionData', rule: 'max_length' }] });
  });
});
