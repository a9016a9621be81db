import { AuditLogEntity } from '../src/shared/audit/audit-log.entity';
import { DomainError } from '../src/shared/errors/domain-error';
import { KeysetPaginator } from '../src/shared/pagination/keyset-paginator';
import { startTestApp, TestApp } from './support/test-app';

/*
 * The "Chronological" family (measurements) on real PostgreSQL, with audit rows standing in for
 * measurements until telemetry exists: (time, key) ascending, ties broken by the key, no total.
 */
describe('keyset paginator: chronological family', () => {
  let t: TestApp;
  let paginator: KeysetPaginator;

  beforeAll(async () => {
    t = await startTestApp();
    paginator = t.app.get(KeysetPaginator);
    // 250 rows over 50 distinct instants (5 rows share each instant: the key must break the ties).
    await t.dataSource.query(`
      INSERT INTO audit_log (event_type, actor_type, actor_id, action, entity_type, outcome, correlation_id, occurred_at)
      SELECT 'chrono.recorded', 'system', 'system', 'record', 'chrono', 'success', 'chrono-' || g,
             timestamptz '2026-01-01T00:00:00.000001Z' + make_interval(secs => (g / 5) * 0.000001)
        FROM generate_series(0, 249) AS g`);
  });
  afterAll(() => t.close());

  const query = () =>
    t.dataSource.getRepository(AuditLogEntity).createQueryBuilder('a').where(`a.event_type = 'chrono.recorded'`);
  const request = (limit: number, cursor?: string) => ({
    actorId: 'tester',
    scope: 'chrono',
    filters: { eventType: 'chrono.recorded' },
    limit,
    ...(cursor ? { cursor } : {}),
  });
  const keys = { createdAt: 'a.occurred_at', id: 'a.audit_log_id' };

  it('walks every row exactly once, in (time, key) order, across microsecond ties', async () => {
    const seen: AuditLogEntity[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await paginator.chronological(query(), keys, request(100, cursor));
      expect(page).not.toHaveProperty('totalCount');
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(3);
    expect(new Set(seen.map((row) => row.auditLogId)).size).toBe(250);
    const expected = await query().orderBy('a.occurred_at', 'ASC').addOrderBy('a.audit_log_id', 'ASC').getMany();
    expect(seen.map((row) => row.auditLogId)).toEqual(expected.map((row) => row.auditLogId));
  });

  it('binds the limit: a continuation with another limit is cursor_mismatch, a tampered one cursor_invalid', async () => {
    const first = await paginator.chronological(query(), keys, request(100));
    const reasonOf = async (promise: Promise<unknown>) => {
      try {
        await promise;
        return null;
      } catch (error) {
        return (error as DomainError).details;
      }
    };
    expect(await reasonOf(paginator.chronological(query(), keys, request(1000, first.nextCursor)))).toEqual({
      fields: [expect.objectContaining({ path: 'query.cursor', rule: 'cursor_mismatch' })],
    });
    expect(await reasonOf(paginator.chronological(query(), keys, request(100, `${first.nextCursor}x`)))).toEqual({
      fields: [expect.objectContaining({ path: 'query.cursor', rule: 'cursor_invalid' })],
    });
  });
});
