import { mapChirpStackUp, mapTtsMessage } from '../ingest/uplink-mapping';
import { looksLikeJson, mqttMapper, RECONNECT_MAX_MS, reconnectDelayMs } from './mqtt-message';

describe('mqttMapper', () => {
  it('maps ChirpStack uplinks by the last topic level and ignores its other events', () => {
    expect(mqttMapper('chirpstack', 'application/17c82e96/device/0101010101010101/event/up')).toBe(mapChirpStackUp);
    expect(mqttMapper('chirpstack', 'up')).toBe(mapChirpStackUp);
    for (const event of ['join', 'status', 'ack', 'txack', 'log', 'location', 'integration', 'upx']) {
      expect(mqttMapper('chirpstack', `application/17c82e96/device/0101010101010101/event/${event}`)).toBeNull();
    }
  });

  it('leaves The Things Stack to its body (uplink_message or not), whatever the topic', () => {
    expect(mqttMapper('tts', 'v3/water-meters@ttn/devices/eui-0004a30b001c0530/up')).toBe(mapTtsMessage);
    expect(mqttMapper('tts', 'v3/water-meters@ttn/devices/eui-0004a30b001c0530/join')).toBe(mapTtsMessage);
  });
});

describe('looksLikeJson', () => {
  it('tells JSON from a Protobuf body', () => {
    expect(looksLikeJson(Buffer.from('  {"deduplicationId":"x"}'))).toBe(true);
    expect(looksLikeJson(Buffer.from([0x0a, 0x24, 0x33, 0x61]))).toBe(false);
    expect(looksLikeJson(Buffer.alloc(0))).toBe(false);
  });
});

describe('reconnectDelayMs', () => {
  it('doubles from one second to at most 30 seconds, within ±20 %', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 40].map((attempt) => reconnectDelayMs(attempt, () => 0.5))).toEqual([
      1000, 2000, 4000, 8000, 16000, 30000, 30000, 30000,
    ]);
    expect(reconnectDelayMs(0, () => 0)).toBe(800);
    expect(reconnectDelayMs(0, () => 1)).toBe(1200);
    expect(reconnectDelayMs(99, () => 1)).toBe(RECONNECT_MAX_MS * 1.2);
  });
});
