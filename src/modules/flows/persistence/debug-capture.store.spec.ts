import type { EntityManager } from 'typeorm';
import { DebugCaptureStore } from './debug-capture.store';

const FLOW_A = 'aaaaaaaa-0000-4000-8000-000000000001';
const FLOW_B = 'bbbbbbbb-0000-4000-8000-000000000002';

/** A manager answering the list of active captures with `active` and the locked rows with `remaining`. */
function fakeManager(active: string[], remaining: Record<string, number>) {
  const statements: { sql: string; params?: unknown[] }[] = [];
  const manager = {
    query: (sql: string, params?: unknown[]) => {
      statements.push({ sql, params });
      if (/FOR UPDATE/.test(sql)) return Promise.resolve([...(params![0] as string[])].sort().filter((id) => id in remaining).map((id) => ({ flow_id: id, remaining_executions: remaining[id] })));
      if (/^SELECT flow_id FROM flow_debug_captures/.test(sql)) return Promise.resolve(active.map((id) => ({ flow_id: id })));
      return Promise.resolve([]);
    },
  } as unknown as EntityManager;
  return { manager, statements };
}

const candidates = (flowId: string, n: number, prefix: string) => Array.from({ length: n }, (_, i) => ({ flowId, flowExecutionId: `${prefix}-${i}` }));

describe('DebugCaptureStore.capture', () => {
  it('without an active capture: one cached read of the list, then nothing for the next batches', async () => {
    const store = new DebugCaptureStore();
    const { manager, statements } = fakeManager([], {});
    for (let i = 0; i < 5; i++) expect((await store.capture(manager, candidates(FLOW_A, 100, `b${i}`))).size).toBe(0);
    expect(statements).toHaveLength(1);
  });

  it('an empty batch sends nothing at all', async () => {
    const { manager, statements } = fakeManager([FLOW_A], { [FLOW_A]: 5 });
    expect((await new DebugCaptureStore().capture(manager, [])).size).toBe(0);
    expect(statements).toHaveLength(0);
  });

  it('captures the first `remaining` executions of each captured flow, locks in flow order and counts them in one statement', async () => {
    const store = new DebugCaptureStore();
    const { manager, statements } = fakeManager([FLOW_A, FLOW_B], { [FLOW_A]: 2, [FLOW_B]: 10 });
    const batch = [...candidates(FLOW_B, 3, 'b'), ...candidates(FLOW_A, 4, 'a'), { flowId: 'cccccccc-0000-4000-8000-000000000003', flowExecutionId: 'c-0' }];
    const captured = await store.capture(manager, batch);
    expect([...captured].sort()).toEqual(['a-0', 'a-1', 'b-0', 'b-1', 'b-2']);
    expect(statements).toHaveLength(3);
    expect(statements[1]!.sql).toMatch(/ORDER BY flow_id\s+FOR UPDATE/);
    expect(statements[2]!.params).toEqual([[FLOW_A, FLOW_B], [2, 3]]);
  });

  it('forget() makes the next batch read the list again', async () => {
    const store = new DebugCaptureStore();
    const { manager, statements } = fakeManager([], {});
    await store.capture(manager, candidates(FLOW_A, 1, 'x'));
    store.forget();
    await store.capture(manager, candidates(FLOW_A, 1, 'y'));
    expect(statements).toHaveLength(2);
  });
});
