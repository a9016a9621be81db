import { chirpStackDedupKey, DEDUP_EXPIRY, dedupClaimSql, dedupMapKey, dedupScope, DEDUP_WINDOW_HOURS, httpDedupKey, ttsDedupKey } from './deduplication';

describe('deduplication', () => {
  it('scopes keys by the delivering credential’s tenant, else platform', () => {
    expect(dedupScope('3f1c0e2a-0000-4000-8000-000000000001')).toBe('tenant:3f1c0e2a-0000-4000-8000-000000000001');
    expect(dedupScope(null)).toBe('platform');
  });

  it('derives each source’s key; none when the message carries nothing to recognise a repeat by', () => {
    expect(chirpStackDedupKey('9c4d')).toBe('chirpstack:9c4d');
    expect(chirpStackDedupKey(null)).toBeNull();
    expect(chirpStackDedupKey('x'.repeat(400))).toHaveLength(300);
    expect(httpDedupKey('m-1')).toBe('http:m-1');
    expect(httpDedupKey(undefined)).toBeNull();
    const received = new Date('2026-01-01T00:00:00.000Z');
    expect(ttsDedupKey({ correlation_ids: ['gs:uplink:1', 'as:up:01ABC'] }, {}, '70B3D57ED005A1B2', 7, received)).toBe('tts:as:up:01ABC');
    expect(ttsDedupKey({}, { correlation_ids: ['as:up:02DEF'] }, '70B3D57ED005A1B2', 7, received)).toBe('tts:as:up:02DEF');
    expect(ttsDedupKey({ correlation_ids: ['as:up:'] }, {}, '70B3D57ED005A1B2', 7, received)).toBe('tts:70B3D57ED005A1B2:7:2026-01-01T00:00:00.000Z');
    expect(ttsDedupKey({}, {}, '70B3D57ED005A1B2', 7, null)).toBeNull();
  });

  it('keeps scope and key apart in a map key', () => {
    expect(dedupMapKey('a', 'b:c')).not.toBe(dedupMapKey('a:b', 'c'));
  });

  it('claims for the window and expires inclusively', () => {
    expect(dedupClaimSql('true')).toContain(`make_interval(hours => ${DEDUP_WINDOW_HOURS})`);
    expect(dedupClaimSql('(SELECT n FROM locked) >= 0')).toContain('WHERE (SELECT n FROM locked) >= 0');
    expect(DEDUP_EXPIRY).toEqual({ table: 'ingestion_dedup_keys', column: 'expires_at', inclusive: true });
  });
});
