import type { DataSource, EntityManager } from 'typeorm';
import type { AppConfig } from '../../config/app-config';
import { AUTH_CACHE_CHANNEL, AuthCache } from './auth-cache';

/** A cache whose LISTEN connection is taken as up (`live`), without a database. */
function liveCache(ttlMs = 30_000): AuthCache {
  const cache = new AuthCache({ options: {} } as DataSource, { authCacheTtlMs: ttlMs, authCacheListenUrl: null } as AppConfig);
  (cache as unknown as { live: boolean }).live = true;
  return cache;
}

function recordingManager(): { manager: EntityManager; sent: { sql: string; params: unknown[] }[] } {
  const sent: { sql: string; params: unknown[] }[] = [];
  const manager = { query: (sql: string, params: unknown[]) => (sent.push({ sql, params }), Promise.resolve([])) } as unknown as EntityManager;
  return { manager, sent };
}

describe('AuthCache', () => {
  afterEach(() => jest.useRealTimers());

  it('serves a stored entry until the TTL, and never past the entry’s own deadline', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = liveCache(30_000);
    cache.set(cache.mark(), 'a', 'A', ['user:1']);
    cache.set(cache.mark(), 'b', 'B', ['user:1'], 1_000_000 + 5_000);
    expect(cache.get('a')).toBe('A');
    jest.setSystemTime(1_000_000 + 5_000);
    expect(cache.get('b')).toBeUndefined();
    expect(cache.get('a')).toBe('A');
    jest.setSystemTime(1_000_000 + 30_000);
    expect(cache.get('a')).toBeUndefined();
  });

  it('is bypassed while the LISTEN connection is down, and stores nothing then', () => {
    const cache = liveCache();
    cache.set(cache.mark(), 'a', 'A', []);
    (cache as unknown as { live: boolean }).live = false;
    expect(cache.get('a')).toBeUndefined();
    cache.set(cache.mark(), 'b', 'B', []);
    (cache as unknown as { live: boolean }).live = true;
    expect(cache.get('b')).toBeUndefined();
  });

  it('with AUTH_CACHE_TTL_MS=0 is off', () => {
    const cache = new AuthCache({ options: {} } as DataSource, { authCacheTtlMs: 0, authCacheListenUrl: null } as AppConfig);
    expect(cache.enabled).toBe(false);
    cache.onApplicationBootstrap(); // opens no connection
    cache.set(cache.mark(), 'a', 'A', []);
    expect(cache.get('a')).toBeUndefined();
  });

  it('drops the entries tagged with a changed session, user or tenant, and only those', async () => {
    const cache = liveCache();
    cache.set(cache.mark(), 'session:s1', 1, ['session:s1', 'user:u1']);
    cache.set(cache.mark(), 'session:s2', 2, ['session:s2', 'user:u2']);
    cache.set(cache.mark(), 'grants:u1:t1', 3, ['user:u1', 'tenant:t1']);
    cache.set(cache.mark(), 'grants:u2:t2', 4, ['user:u2', 'tenant:t2']);
    const { manager, sent } = recordingManager();
    await cache.invalidate(manager, { userId: 'u1' });
    expect(cache.get('session:s1')).toBeUndefined();
    expect(cache.get('grants:u1:t1')).toBeUndefined();
    expect(cache.get('session:s2')).toBe(2);
    await cache.invalidate(manager, { tenantId: 't2' });
    expect(cache.get('grants:u2:t2')).toBeUndefined();
    expect(cache.get('session:s2')).toBe(2);
    expect(sent[0]!.sql).toContain('pg_notify');
    expect(sent[0]!.params[0]).toBe(AUTH_CACHE_CHANNEL);
    expect(JSON.parse(sent[0]!.params[1] as string)).toMatchObject({ tags: ['user:u1'] });
  });

  it('does not store a load that started before an invalidation', () => {
    const cache = liveCache();
    const mark = cache.mark();
    cache.receive(JSON.stringify({ origin: 'elsewhere', tags: ['user:u9'] }));
    cache.set(mark, 'a', 'A', ['user:u1']);
    expect(cache.get('a')).toBeUndefined();
  });

  it('stores nothing a local change touched until its notification comes back (the commit); other keys still cache', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = liveCache();
    const { manager, sent } = recordingManager();
    await cache.invalidate(manager, { sessionId: 's1' });
    cache.set(cache.mark(), 'session:s1', 'old', ['session:s1', 'user:u1']);
    expect(cache.get('session:s1')).toBeUndefined();
    cache.set(cache.mark(), 'session:s2', 'other', ['session:s2', 'user:u2']);
    expect(cache.get('session:s2')).toBe('other');
    cache.receive(sent[0]!.params[1] as string);
    cache.set(cache.mark(), 'session:s1', 'new', ['session:s1', 'user:u1']);
    expect(cache.get('session:s1')).toBe('new');
  });

  it('a change that never commits stops blocking after a while', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const cache = liveCache();
    await cache.invalidate(recordingManager().manager, { userId: 'u1' });
    jest.setSystemTime(1_000_000 + 10_000);
    cache.set(cache.mark(), 'k', 'v', ['user:u1']);
    expect(cache.get('k')).toBe('v');
  });

  it('an unreadable notification drops everything', () => {
    const cache = liveCache();
    cache.set(cache.mark(), 'a', 'A', ['user:u1']);
    cache.receive('not json');
    expect(cache.get('a')).toBeUndefined();
  });
});
