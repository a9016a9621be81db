import type { DataSource } from 'typeorm';

/** Polls `condition` until it holds; fails after `timeoutMs` (a deadline, not a fixed sleep, so load only slows it). */
export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`${what} not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Waits until `count` connections of the test database are blocked on a lock. */
export async function lockWaiters(t: { dataSource: DataSource }, count: number, timeoutMs = 10_000): Promise<void> {
  await waitUntil(
    async () => {
      const [{ waiting }] = await t.dataSource.query<{ waiting: number }[]>(
        `SELECT count(*)::int AS waiting FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`,
      );
      return waiting >= count;
    },
    timeoutMs,
    `${count} requests waiting for a lock`,
  );
}
