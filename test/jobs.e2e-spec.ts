import { Client } from 'pg';
import { JobQueue } from '../src/shared/jobs/job-queue';
import { JobWorker } from '../src/shared/jobs/job-worker';
import { UnitOfWork } from '../src/shared/events/unit-of-work';
import { JobProbeModule, ProbeRun, probeRuns } from './support/job-probe.module';
import { startTestApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function runsTagged(tag: string): ProbeRun[] {
  return probeRuns.filter((run) => run.payload.tag === tag);
}

interface JobRow {
  job_id: string;
  name: string;
  state: string;
  attempts: number;
  last_error: string | null;
  run_at: Date;
  finished_at: Date | null;
}

async function jobRow(t: TestApp, jobId: string): Promise<JobRow | undefined> {
  const [row] = await t.dataSource.query<JobRow[]>(`SELECT * FROM jobs WHERE job_id = $1`, [jobId]);
  return row;
}

async function stateOf(t: TestApp, jobId: string): Promise<string | undefined> {
  return (await jobRow(t, jobId))?.state;
}

const FAST = { JOBS_POLL_INTERVAL_MS: '100', JOBS_LEASE_MS: '600' };

describe('background jobs on one replica', () => {
  let t: TestApp;
  let unitOfWork: UnitOfWork;
  let queue: JobQueue;

  beforeAll(async () => {
    t = await startTestApp({ env: FAST, extraModules: [JobProbeModule] });
    unitOfWork = t.app.get(UnitOfWork);
    queue = t.app.get(JobQueue);
  });
  afterAll(() => t.close());

  it('never runs a job enqueued in a transaction that rolled back', async () => {
    let rolledBack: string | null = null;
    await expect(
      unitOfWork.run(async (scope) => {
        rolledBack = await scope.enqueue({ name: 'probe.record', payload: { tag: 'rolled-back' } });
        throw new Error('command failed');
      }),
    ).rejects.toThrow('command failed');
    expect(rolledBack).toMatch(/^\d+$/);

    // A job committed afterwards runs; by then the rolled-back one would have run too.
    await unitOfWork.run((scope) => scope.enqueue({ name: 'probe.record', payload: { tag: 'after-rollback' } }));
    await waitUntil(() => runsTagged('after-rollback').length === 1);
    await sleep(300);
    expect(runsTagged('rolled-back')).toEqual([]);
    expect(await jobRow(t, rolledBack!)).toBeUndefined();
  });

  it('runs a committed job once, and only after COMMIT', async () => {
    let jobId: string | null = null;
    let committing = 0;
    await unitOfWork.run(async (scope) => {
      jobId = await scope.enqueue({ name: 'probe.record', payload: { tag: 'committed' } });
      // Several polls pass while the transaction is open; an uncommitted job must stay invisible to them.
      await sleep(400);
      committing = Date.now();
    });
    await waitUntil(() => runsTagged('committed').length === 1);
    await sleep(400);
    const runs = runsTagged('committed');
    expect(runs).toHaveLength(1);
    expect(runs[0]!.jobId).toBe(jobId);
    expect(runs[0]!.attempt).toBe(1);
    expect(runs[0]!.startedAt).toBeGreaterThanOrEqual(committing);
    await waitUntil(async () => (await stateOf(t, jobId!)) === 'completed');
    expect(await jobRow(t, jobId!)).toMatchObject({ attempts: 1, last_error: null });
  });

  it('enqueues outside a command, committing the job on its own', async () => {
    const jobId = await queue.enqueue({ name: 'probe.record', payload: { tag: 'standalone' } });
    await waitUntil(async () => (await stateOf(t, jobId!)) === 'completed');
    expect(runsTagged('standalone')).toHaveLength(1);
  });

  it('refuses a job name no handler is registered for, and a payload that is not an object', async () => {
    await expect(queue.enqueue({ name: 'probe.unknown' })).rejects.toThrow('No @JobHandler is registered for job "probe.unknown"');
    await expect(queue.enqueue({ name: 'probe.record', payload: [1, 2] })).rejects.toThrow('payload must be a JSON object');
  });

  it('retries a failing job with exponential backoff, then marks it dead', async () => {
    const jobId = (await queue.enqueue({ name: 'probe.fail', payload: { tag: 'always-fails' } }))!;
    await waitUntil(async () => (await stateOf(t, jobId)) === 'dead');
    const runs = runsTagged('always-fails');
    expect(runs.map((run) => run.attempt)).toEqual([1, 2, 3]);
    // Backoff of 200 ms, then 400 ms.
    expect(runs[1]!.startedAt - runs[0]!.finishedAt!).toBeGreaterThanOrEqual(190);
    expect(runs[2]!.startedAt - runs[1]!.finishedAt!).toBeGreaterThanOrEqual(390);
    const row = (await jobRow(t, jobId))!;
    expect(row).toMatchObject({ attempts: 3, state: 'dead' });
    expect(row.last_error).toContain('probe failure on attempt 3');
    expect(row.finished_at).not.toBeNull();
    await sleep(500);
    expect(runsTagged('always-fails')).toHaveLength(3);

    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.text).toContain('jobs_processed_total{queue="default",name="probe.fail",outcome="retried"} 2');
    expect(metrics.text).toContain('jobs_processed_total{queue="default",name="probe.fail",outcome="dead"} 1');
    expect(metrics.text).toMatch(/^job_claim_latency_seconds_count\{queue="default"\} \d+/m);
    expect(metrics.text).toMatch(/^jobs_queue_depth\{queue="default",state="pending"\} \d+/m);
  });

  it('completes a job on the attempt after a failure', async () => {
    const jobId = (await queue.enqueue({ name: 'probe.fail', payload: { tag: 'fails-once', failures: 1 } }))!;
    await waitUntil(async () => (await stateOf(t, jobId)) === 'completed');
    expect(runsTagged('fails-once').map((run) => run.attempt)).toEqual([1, 2]);
    expect(await jobRow(t, jobId)).toMatchObject({ attempts: 2, last_error: null });
  });

  it('runs again a job whose worker died holding it, once the lease has expired', async () => {
    // A claim by a worker that never completes nor renews it.
    const [{ job_id: jobId, locked_until: lockedUntil }] = await t.dataSource.query<{ job_id: string; locked_until: Date }[]>(
      `INSERT INTO jobs (name, payload, state, attempts, max_attempts, locked_by, locked_until, started_at)
       VALUES ('probe.record', '{"tag": "orphaned"}', 'running', 1, 3, 'dead-replica:1', clock_timestamp() + interval '300 milliseconds',
               clock_timestamp())
       RETURNING job_id::text, locked_until`,
    );
    await waitUntil(() => runsTagged('orphaned').length === 1);
    const [run] = runsTagged('orphaned');
    expect(run!.jobId).toBe(jobId);
    expect(run!.attempt).toBe(2);
    expect(run!.startedAt).toBeGreaterThanOrEqual(lockedUntil.getTime());
    await waitUntil(async () => (await stateOf(t, jobId)) === 'completed');
  });

  it('marks dead a job whose lease expired on its last attempt', async () => {
    const [{ job_id: jobId }] = await t.dataSource.query<{ job_id: string }[]>(
      `INSERT INTO jobs (name, payload, state, attempts, max_attempts, locked_by, locked_until, started_at)
       VALUES ('probe.record', '{"tag": "orphaned-last"}', 'running', 1, 1, 'dead-replica:2', clock_timestamp(), clock_timestamp())
       RETURNING job_id::text`,
    );
    await waitUntil(async () => (await stateOf(t, jobId)) === 'dead');
    expect((await jobRow(t, jobId))!.last_error).toBe('lease expired: worker dead-replica:2 stopped renewing it');
    await sleep(300);
    expect(runsTagged('orphaned-last')).toEqual([]);
  });

  it('keeps renewing the lease of a job that runs longer than it', async () => {
    const jobId = (await queue.enqueue({ name: 'probe.record', payload: { tag: 'long', sleepMs: 1500 } }))!;
    await waitUntil(async () => (await stateOf(t, jobId)) === 'completed');
    expect(runsTagged('long').map((run) => run.attempt)).toEqual([1]);
  });

  it('does not start a job before its runAt', async () => {
    const runAt = new Date(Date.now() + 800);
    const jobId = (await queue.enqueue({ name: 'probe.record', payload: { tag: 'scheduled' }, runAt }))!;
    await sleep(400);
    expect(runsTagged('scheduled')).toEqual([]);
    expect(await stateOf(t, jobId)).toBe('pending');
    await waitUntil(() => runsTagged('scheduled').length === 1);
    expect(runsTagged('scheduled')[0]!.startedAt).toBeGreaterThanOrEqual(runAt.getTime() - 5);
  });

  it.each([
    ['an unknown state', `INSERT INTO jobs (name, max_attempts, state) VALUES ('probe.record', 1, 'paused')`],
    ['running without a lease', `INSERT INTO jobs (name, max_attempts, state) VALUES ('probe.record', 1, 'running')`],
    ['a lease while pending', `INSERT INTO jobs (name, max_attempts, locked_by, locked_until) VALUES ('probe.record', 1, 'w', now())`],
    ['more attempts than allowed', `INSERT INTO jobs (name, max_attempts, attempts) VALUES ('probe.record', 2, 3)`],
    ['finished without a finish time', `INSERT INTO jobs (name, max_attempts, state) VALUES ('probe.record', 1, 'completed')`],
    ['a finish time while pending', `INSERT INTO jobs (name, max_attempts, finished_at) VALUES ('probe.record', 1, now())`],
    ['a payload that is not an object', `INSERT INTO jobs (name, max_attempts, payload) VALUES ('probe.record', 1, '[]')`],
    ['a malformed name', `INSERT INTO jobs (name, max_attempts) VALUES ('Probe Record', 1)`],
  ])('refuses in PostgreSQL a job with %s', async (_case, sql) => {
    await expect(t.dataSource.query(sql)).rejects.toThrow(/violates check constraint/);
  });

  it('keeps one pending or running job per dedup key', async () => {
    const runAt = new Date(Date.now() + 500);
    const first = await queue.enqueue({ name: 'probe.record', payload: { tag: 'keyed' }, key: 'probe:keyed', runAt });
    expect(first).toMatch(/^\d+$/);
    expect(await queue.enqueue({ name: 'probe.record', payload: { tag: 'keyed' }, key: 'probe:keyed' })).toBeNull();
    await waitUntil(async () => (await stateOf(t, first!)) === 'completed');
    const again = await queue.enqueue({ name: 'probe.record', payload: { tag: 'keyed' }, key: 'probe:keyed' });
    expect(again).toMatch(/^\d+$/);
    expect(again).not.toBe(first);
    await waitUntil(async () => (await stateOf(t, again!)) === 'completed');
    expect(runsTagged('keyed')).toHaveLength(2);
  });
});

describe('recurring housekeeping', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ env: FAST });
  });
  afterAll(() => t.close());

  async function instances(name: string): Promise<{ state: string; due_in_s: number }[]> {
    return t.dataSource.query(
      `SELECT state, extract(epoch FROM run_at - clock_timestamp())::float8 AS due_in_s FROM jobs WHERE name = $1 ORDER BY job_id`,
      [name],
    );
  }

  async function makeDue(name: string): Promise<void> {
    await t.dataSource.query(`UPDATE jobs SET run_at = clock_timestamp() WHERE name = $1 AND state = 'pending'`, [name]);
  }

  it('prunes the login throttle in a job on one replica, not in sign-in requests', async () => {
    const name = 'identity.login-throttle.prune';
    // Registered, run once at start, and the next run scheduled a minute later as the only pending instance.
    await waitUntil(async () => (await instances(name)).some((row) => row.state === 'completed'));
    await waitUntil(async () => (await instances(name)).some((row) => row.state === 'pending'));
    const pending = (await instances(name)).filter((row) => row.state === 'pending');
    expect(pending).toHaveLength(1);
    expect(pending[0]!.due_in_s).toBeGreaterThan(50);

    await t.dataSource.query(
      `INSERT INTO login_ip_attempts (ip, window_start, attempts) VALUES ('203.0.113.7', date_trunc('minute', now()) - interval '5 minutes', 3)`,
    );
    await t.dataSource.query(
      `INSERT INTO login_failures (identifier_key, consecutive_failures, last_failure_at) VALUES ('identifier:stale', 2, now() - interval '1 day')`,
    );
    // The first attempt of a new IP window no longer prunes anything.
    await t.http().post('/v1/auth/login').send({ identifier: 'nobody-here', password: 'wrong-password' }).expect(401);
    const stale = async () =>
      Number(
        (
          await t.dataSource.query<{ n: string }[]>(
            `SELECT (SELECT count(*) FROM login_ip_attempts WHERE ip = '203.0.113.7')
                  + (SELECT count(*) FROM login_failures WHERE identifier_key = 'identifier:stale') AS n`,
          )
        )[0]!.n,
      );
    expect(await stale()).toBe(2);

    await makeDue(name);
    await waitUntil(async () => (await stale()) === 0);
    await waitUntil(async () => (await instances(name)).filter((row) => row.state === 'completed').length === 2);
    await waitUntil(async () => (await instances(name)).some((row) => row.state === 'pending'));
  });

  it('deletes sessions that ended more than 30 days ago, keeping recent ones', async () => {
    const [{ user_id: userId }] = await t.dataSource.query<{ user_id: string }[]>(`SELECT user_id FROM users LIMIT 1`);
    const [{ old, recent }] = await t.dataSource.query<{ old: string; recent: string }[]>(
      `WITH o AS (INSERT INTO sessions (user_id, refresh_idle_expires_at, revoked_at, revoke_reason)
                  VALUES ($1, now() - interval '20 days', now() - interval '31 days', 'logout') RETURNING session_id),
            r AS (INSERT INTO sessions (user_id, refresh_idle_expires_at) VALUES ($1, now() - interval '29 days') RETURNING session_id)
       SELECT (SELECT session_id FROM o) AS old, (SELECT session_id FROM r) AS recent`,
      [userId],
    );
    const name = 'identity.sessions.prune';
    await waitUntil(async () => (await instances(name)).some((row) => row.state === 'pending' && row.due_in_s > 0));
    await makeDue(name);
    const exists = async (id: string) => (await t.dataSource.query(`SELECT 1 FROM sessions WHERE session_id = $1`, [id])).length === 1;
    await waitUntil(async () => !(await exists(old)));
    expect(await exists(recent)).toBe(true);
  });
});

describe('background jobs on two replicas', () => {
  let first: TestApp;
  let second: TestApp;

  beforeAll(async () => {
    // A lease no event-loop stall of a loaded machine outlives: a lease that runs out under a live worker is the
    // at-least-once case, tested on its own above.
    const env = { ...FAST, JOBS_LEASE_MS: '10000', JOBS_POLL_INTERVAL_MS: '50', JOBS_CONCURRENCY: '4' };
    first = await startTestApp({ env, extraModules: [JobProbeModule] });
    second = await startTestApp({ env, extraModules: [JobProbeModule], databaseUrl: async () => first.database.url });
  });
  afterAll(async () => {
    await second.close();
    await first.close();
  });

  it('never runs one job on both', async () => {
    const ids: string[] = [];
    await first.app.get(UnitOfWork).run(async (scope) => {
      for (let i = 0; i < 120; i++) ids.push((await scope.enqueue({ name: 'probe.record', payload: { tag: 'shared', sleepMs: 20 } }))!);
    });
    await waitUntil(async () => {
      const [{ n }] = await first.dataSource.query<{ n: string }[]>(
        `SELECT count(*) AS n FROM jobs WHERE job_id = ANY($1::bigint[]) AND state = 'completed'`,
        [ids],
      );
      return Number(n) === ids.length;
    }, 20000);
    const runs = runsTagged('shared');
    expect(runs).toHaveLength(ids.length);
    expect(new Set(runs.map((run) => run.jobId)).size).toBe(ids.length);
    expect(runs.every((run) => run.attempt === 1)).toBe(true);
    // Both replicas took part.
    expect(new Set(runs.map((run) => run.instance)).size).toBe(2);
  });
});

describe('wake-ups', () => {
  let t: TestApp;

  beforeAll(async () => {
    // Polling is slower than the test: only the NOTIFY sent at COMMIT can start the job in time.
    t = await startTestApp({ env: { JOBS_POLL_INTERVAL_MS: '600000' }, extraModules: [JobProbeModule] });
    const worker = t.app.get(JobWorker);
    await waitUntil(() => worker.isListening && worker.activeCount === 0);
    // The start-up claims (recurring housekeeping) are over.
    await sleep(300);
  });
  afterAll(() => t.close());

  it('starts a committed job at once through the notification sent at COMMIT', async () => {
    const committed = Date.now();
    await t.app.get(UnitOfWork).run((scope) => scope.enqueue({ name: 'probe.record', payload: { tag: 'notified' } }));
    await waitUntil(() => runsTagged('notified').length === 1, 3000);
    expect(runsTagged('notified')[0]!.startedAt - committed).toBeLessThan(3000);
  });
});

describe('graceful stop', () => {
  async function pgClient(url: string): Promise<Client> {
    const client = new Client({ connectionString: url });
    await client.connect();
    return client;
  }

  it('stops claiming at shutdown and lets running jobs finish', async () => {
    const t = await startTestApp({ env: FAST, extraModules: [JobProbeModule] });
    const queue = t.app.get(JobQueue);
    try {
      const running = (await queue.enqueue({ name: 'probe.record', payload: { tag: 'draining', sleepMs: 700 } }))!;
      await waitUntil(() => runsTagged('draining').length === 1);
      const later = (await queue.enqueue({ name: 'probe.record', payload: { tag: 'after-stop' }, runAt: new Date(Date.now() + 200) }))!;
      await t.app.close();
      const [run] = runsTagged('draining');
      expect(run!.finishedAt).not.toBeNull();
      expect(run!.aborted).toBe(false);
      const client = await pgClient(t.database.url);
      try {
        const { rows } = await client.query<{ job_id: string; state: string }>(
          `SELECT job_id::text, state FROM jobs WHERE job_id = ANY($1::bigint[]) ORDER BY jobs.job_id`,
          [[running, later]],
        );
        expect(rows).toEqual([
          { job_id: running, state: 'completed' },
          { job_id: later, state: 'pending' },
        ]);
      } finally {
        await client.end();
      }
      expect(runsTagged('after-stop')).toEqual([]);
    } finally {
      await t.close();
    }
  });

  it('aborts jobs still running after SHUTDOWN_TIMEOUT_MS', async () => {
    const t = await startTestApp({ env: { ...FAST, SHUTDOWN_TIMEOUT_MS: '200' }, extraModules: [JobProbeModule] });
    try {
      await t.app.get(JobQueue).enqueue({ name: 'probe.record', payload: { tag: 'too-long', sleepMs: 20000 } });
      await waitUntil(() => runsTagged('too-long').length === 1);
      const worker = t.app.get(JobWorker);
      const started = Date.now();
      await worker.stop(200);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(runsTagged('too-long')[0]!.aborted).toBe(true);
      expect(worker.isRunning).toBe(false);
    } finally {
      await t.close();
    }
  });
});
