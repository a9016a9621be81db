import { setTimeout as sleep } from 'node:timers/promises';
import { loginAdmin } from './support/auth';
import { as } from './support/http';
import { ConflictError } from '../src/shared/errors/domain-error';
import { UnitOfWork } from '../src/shared/events/unit-of-work';
import { deliveredProbeEvents } from './support/pipeline-probe.module';
import { startTestApp, TEST_ORIGIN, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

interface AuditRow {
  event_type: string;
  entity_id: string;
  correlation_id: string;
  method: string;
  route: string;
  actor_type: string;
  actor_id: string;
  outcome: string;
  status_code: number;
  metadata: Record<string, unknown>;
}

describe('unit of work, audit and events', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const auditRows = (): Promise<AuditRow[]> =>
    t.dataSource.query(`SELECT * FROM audit_log WHERE event_type = 'probe.recorded' ORDER BY occurred_at`);
  const eventsFor = (probeId: string) => deliveredProbeEvents.filter((event) => event.probeId === probeId);

  it('commits the audit row with the change and publishes exactly one event after commit', async () => {
    const before = (await auditRows()).length;
    const res = await t
      .http()
      .post('/v1/_probe/commands')
      .set('X-Correlation-Id', 'tx-commit-1')
      .send({ name: 'first' })
      .expect(201);
    const { probeId } = res.body as { probeId: string };
    await sleep(50);

    expect(eventsFor(probeId)).toEqual([{ probeId, committedWhenDelivered: true }]);
    const rows = await auditRows();
    expect(rows).toHaveLength(before + 1);
    expect(rows.at(-1)).toMatchObject({
      event_type: 'probe.recorded',
      entity_id: probeId,
      correlation_id: 'tx-commit-1',
      method: 'POST',
      route: '/v1/_probe/commands',
      actor_type: 'anonymous',
      outcome: 'success',
      status_code: 201,
    });
  });

  it('keeps secrets out of audit metadata, at any depth', async () => {
    const res = await t.http().post('/v1/_probe/commands').send({ name: 'scrub' }).expect(201);
    const [row] = await t.dataSource.query<AuditRow[]>(`SELECT * FROM audit_log WHERE entity_id = $1`, [res.body.probeId]);
    expect(row.metadata).toEqual({ name: 'scrub', nested: { kept: 1 } });
    // Its event is delivered after the commit, asynchronously: waited for here, so it cannot land in the next test.
    await waitUntil(() => eventsFor(res.body.probeId).length === 1);
  });

  it('rolls back: no audit row and no event when the command fails', async () => {
    const rowsBefore = (await auditRows()).length;
    const eventsBefore = deliveredProbeEvents.length;
    const res = await t.http().post('/v1/_probe/commands').send({ name: 'doomed', fail: true }).expect(409);
    expect(res.body.error.code).toBe('CONFLICT');
    await sleep(20);
    expect(await auditRows()).toHaveLength(rowsBefore);
    expect(deliveredProbeEvents).toHaveLength(eventsBefore);
  });

  it('keeps the audit log append-only', async () => {
    await t.http().post('/v1/_probe/commands').send({ name: 'immutable' }).expect(201);
    await expect(t.dataSource.query(`UPDATE audit_log SET action = 'tampered'`)).rejects.toThrow(/append-only/);
    await expect(t.dataSource.query(`DELETE FROM audit_log`)).rejects.toThrow(/append-only/);
  });
});

describe('correlation id', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

  it('adopts a well-formed caller id and echoes it on success and in the error body', async () => {
    const ok = await t.http().get('/healthz').set('X-Correlation-Id', 'console:req-42.a_b').expect(200);
    expect(ok.headers['x-correlation-id']).toBe('console:req-42.a_b');

    const err = await t.http().get('/v1/nowhere').set('X-Correlation-Id', 'trace-123').expect(404);
    expect(err.headers['x-correlation-id']).toBe('trace-123');
    expect(err.body.error.correlationId).toBe('trace-123');
  });

  it('replaces a missing, malformed or oversized id with a fresh UUID', async () => {
    const missing = await t.http().get('/v1/nowhere').expect(404);
    expect(missing.headers['x-correlation-id']).toMatch(uuidPattern);
    expect(missing.body.error.correlationId).toBe(missing.headers['x-correlation-id']);

    for (const bad of ['has space', 'semi;colon', 'x'.repeat(129), '<script>']) {
      const res = await t.http().get('/v1/nowhere').set('X-Correlation-Id', bad).expect(404);
      expect(res.headers['x-correlation-id']).toMatch(uuidPattern);
      expect(res.body.error.correlationId).toBe(res.headers['x-correlation-id']);
    }
  });

  it('gives every request its own id', async () => {
    const [a, b] = await Promise.all([t.http().get('/healthz'), t.http().get('/healthz')]);
    expect(a.headers['x-correlation-id']).not.toBe(b.headers['x-correlation-id']);
  });

  it('writes the same id into the audit row of the request', async () => {
    const res = await t.http().post('/v1/_probe/commands').set('X-Correlation-Id', 'audit-corr-7').send({ name: 'c' });
    expect(res.status).toBe(201);
    const [row] = await t.dataSource.query<AuditRow[]>(`SELECT * FROM audit_log WHERE entity_id = $1`, [res.body.probeId]);
    expect(row.correlation_id).toBe('audit-corr-7');
  });
});

describe('unit of work: constraint names mapped to domain errors', () => {
  let t: TestApp;
  let uow: UnitOfWork;
  const duplicate = () => new ConflictError('duplicate_key', 'A gadget with this key already exists.');

  beforeAll(async () => {
    t = await startTestApp();
    uow = t.app.get(UnitOfWork);
    await t.dataSource.query(`
      CREATE TABLE gadgets (
        key text NOT NULL,
        CONSTRAINT gadgets_key_key UNIQUE (key),
        CONSTRAINT gadgets_key_late UNIQUE (key) DEFERRABLE INITIALLY DEFERRED
      )`);
  });
  afterAll(() => t.close());

  it('maps a violation raised by a statement of the work', async () => {
    await t.dataSource.query(`INSERT INTO gadgets (key) VALUES ('stmt')`);
    const run = uow.run((tx) => tx.manager.query(`INSERT INTO gadgets (key) VALUES ('stmt')`), { constraints: { gadgets_key_key: duplicate } });
    await expect(run).rejects.toMatchObject({ code: 'CONFLICT', details: { reason: 'duplicate_key' } });
  });

  it('maps a violation raised only at COMMIT (a deferred constraint)', async () => {
    await t.dataSource.query(`ALTER TABLE gadgets DROP CONSTRAINT gadgets_key_key`);
    const run = uow.run(
      async (tx) => {
        await tx.manager.query(`INSERT INTO gadgets (key) VALUES ('late'), ('late')`);
        return 'inserted';
      },
      { constraints: { gadgets_key_late: duplicate } },
    );
    await expect(run).rejects.toBeInstanceOf(ConflictError);
    expect(await t.dataSource.query(`SELECT key FROM gadgets WHERE key = 'late'`)).toEqual([]);
  });

  it('leaves violations of constraints it was not given alone', async () => {
    await t.dataSource.query(`INSERT INTO gadgets (key) VALUES ('other')`);
    const run = uow.run((tx) => tx.manager.query(`INSERT INTO gadgets (key) VALUES ('other')`), { constraints: { gadgets_pkey: duplicate } });
    await expect(run).rejects.toMatchObject({ driverError: expect.objectContaining({ code: '23505', constraint: 'gadgets_key_late' }) });
  });
});

describe('audit rows record the status the route answered', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  const statusOf = async (eventType: string, entityId: string): Promise<number | null> => {
    const [row] = await t.dataSource.query<{ status_code: number | null }[]>(
      `SELECT status_code FROM audit_log WHERE event_type = $1 AND entity_id = $2`,
      [eventType, entityId],
    );
    return row?.status_code ?? null;
  };

  it('201 for a create, 200 for a POST action with @HttpCode(200), 204 for logout, 401 for a failed login', async () => {
    const { accessToken } = await loginAdmin(t);
    const api = as(t, accessToken);
    const created = await api.post('/v1/tenants', { key: `audit-status-${Date.now()}`, name: 'Audit status' });
    expect(created.status).toBe(201);
    expect(await statusOf('tenant.created', created.body.tenantId)).toBe(201);

    const disabled = await api.post(`/v1/tenants/${created.body.tenantNumber}/disable`);
    expect(disabled.status).toBe(200);
    expect(await statusOf('tenant.disabled', created.body.tenantId)).toBe(200);

    const { sid: sessionId } = JSON.parse(Buffer.from(accessToken.split('.')[1]!, 'base64url').toString()) as { sid: string };
    const out = await t.http().post('/v1/auth/logout').set('Authorization', `Bearer ${accessToken}`).set('Origin', TEST_ORIGIN);
    expect(out.status).toBe(204);
    expect(await statusOf('session.logged_out', sessionId)).toBe(204);

    await t.http().post('/v1/auth/login').send({ identifier: 'nobody-here', password: 'wrong-password-1' }).expect(401);
    const [failed] = await t.dataSource.query<{ status_code: number }[]>(
      `SELECT status_code FROM audit_log WHERE event_type = 'session.login_failed' ORDER BY occurred_at DESC LIMIT 1`,
    );
    expect(failed?.status_code).toBe(401);
  });
});
