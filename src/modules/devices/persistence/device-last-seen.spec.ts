import type { EntityManager } from 'typeorm';
import { recordDevicesLastSeen } from './device-last-seen';

function fakeManager() {
  const calls: { sql: string; params: unknown[] }[] = [];
  const manager = { query: (sql: string, params: unknown[]) => (calls.push({ sql, params }), Promise.resolve([])) } as unknown as EntityManager;
  return { manager, calls };
}

describe('recordDevicesLastSeen', () => {
  it('sends one statement for the whole batch with each device\'s latest receipt time', async () => {
    const { manager, calls } = fakeManager();
    const a = 'aaaaaaaa-0000-4000-8000-000000000001';
    const b = 'bbbbbbbb-0000-4000-8000-000000000002';
    await recordDevicesLastSeen(manager, [
      { deviceId: a, receivedAt: new Date('2026-03-14T10:00:00.000Z') },
      { deviceId: b, receivedAt: new Date('2026-03-14T10:00:01.000Z') },
      { deviceId: a, receivedAt: new Date('2026-03-14T10:00:02.500Z') },
      { deviceId: a, receivedAt: new Date('2026-03-14T10:00:01.000Z') },
    ]);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.sql).toMatch(/UPDATE devices/);
    expect(calls[0]!.params).toEqual([
      [a, b],
      ['2026-03-14T10:00:02.500Z', '2026-03-14T10:00:01.000Z'],
    ]);
  });

  it('sends nothing when no device was seen', async () => {
    const { manager, calls } = fakeManager();
    await recordDevicesLastSeen(manager, []);
    expect(calls).toHaveLength(0);
  });
});
