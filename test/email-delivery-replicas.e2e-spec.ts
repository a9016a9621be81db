import { ExpandActionRequestsJob } from '../src/modules/actions/send-email-deliveries/expand-action-requests.job';
import type { JobContext } from '../src/shared/jobs/job';
import { loginAdmin } from './support/auth';
import { bindAddress, seedEmailTemplate, seedMailDevice, seedMailFlow, uplink } from './support/email-actions';
import { as } from './support/http';
import { ensureBuilt, Replica, startReplica } from './support/service-process';
import { SmtpSink, startSmtpSink } from './support/smtp-sink';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/*
 * Deliveries across workers and processes: the API app here runs no jobs (it only records executions and their
 * e-mail requests); other apps and service processes on the same database send. Every delivery reaches the SMTP
 * server exactly once, even with every send job doubled, through a restart, and a process killed after the server
 * accepted a message but before it recorded that is resent with the same Message-ID.
 */
const ADMIN = { username: 'mail-replica-admin', password: 'mail-replica-admin-password-1' };
const FAST = { JOBS_POLL_INTERVAL_MS: '100', JOBS_LEASE_MS: '1500', JOBS_BACKOFF_BASE_MS: '50', SMTP_TIMEOUT_MS: '1000', SMTP_POOL: 'false' };

let t: TestApp;
let sink: SmtpSink;
let admin: ReturnType<typeof as>;
let tenant: SeededTenant;
let ingestionToken: string;
const others: TestApp[] = [];
const replicas: Replica[] = [];

const noSignal: JobContext = { jobId: '0', name: 'test', attempt: 1, maxAttempts: 1, signal: new AbortController().signal };

beforeAll(() => ensureBuilt(), 180_000);

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({ env: { ...FAST, JOBS_ENABLED: 'false', SMTP_URL: sink.url, MAIL_FROM: 'alerts@uplink.test' } });
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t);
  ingestionToken = (await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'NS' }).expect(201)).body.token;
}, 60_000);

afterAll(async () => {
  for (const replica of replicas) {
    if (replica.service.child.exitCode === null && replica.service.child.signalCode === null) {
      replica.service.child.kill('SIGTERM');
      await replica.service.exited;
    }
  }
  for (const other of others) await other.close();
  await t.close();
  await sink.close();
}, 60_000);

/** `uplinks` executions of a flow whose template has `recipients` address bindings; their requests wait unexpanded. */
async function pendingRequests(recipients: number, uplinks: number): Promise<void> {
  const template = await seedEmailTemplate(t, tenant);
  const flow = await seedMailFlow(t, admin, tenant, template);
  for (let i = 0; i < recipients; i++) await bindAddress(t, tenant, template, `r${i}-${template.emailTemplateId.slice(0, 8)}@example.com`);
  const device = await seedMailDevice(t, tenant, flow, 'Pump', 'North');
  for (let i = 0; i < uplinks; i++) await uplink(t, ingestionToken, device.devEui, i);
}

async function statusCounts(): Promise<Record<string, number>> {
  const rows = await t.dataSource.query<{ status: string; n: number }[]>(`SELECT status, count(*)::int AS n FROM email_deliveries GROUP BY status`);
  return Object.fromEntries(rows.map((row) => [row.status, row.n]));
}

function copiesByMessageId(): Map<string, number> {
  const copies = new Map<string, number>();
  for (const mail of sink.received) copies.set(mail.messageId, (copies.get(mail.messageId) ?? 0) + 1);
  return copies;
}

it('sends each delivery once with two workers racing over doubled send jobs, and a restart of one of them loses nothing', async () => {
  await pendingRequests(3, 20);
  await t.app.get(ExpandActionRequestsJob).handle({}, noSignal);
  // Every send job twice: only the delivery's own claim keeps a second send out.
  await t.dataSource.query(`INSERT INTO jobs (queue, name, payload, max_attempts, run_at) SELECT queue, name, payload, max_attempts, run_at FROM jobs WHERE name = 'actions.email.send'`);
  sink.onAccepted = () => new Promise((resolve) => setTimeout(resolve, 10));
  // Leases long enough that no lease runs out while these apps share one busy event loop: a lease that runs out
  // under a live sender is the at-least-once case, shown by the kill test below.
  // SMTP exchanges get 60 s: a timeout on a loaded machine after the server took the message would be a failed
  // attempt, and its retry a second copy (the at-least-once case, not the race this test is about).
  const env = { ...FAST, JOBS_LEASE_MS: '10000', SMTP_TIMEOUT_MS: '60000', SMTP_URL: sink.url, MAIL_FROM: 'alerts@uplink.test', PROCESSING_ENABLED: 'false' };
  const starting = [startTestApp({ env, databaseUrl: async () => t.database.url }), startTestApp({ env, databaseUrl: async () => t.database.url })];
  // Each one that starts is closed by afterAll, even when the other fails to start.
  for (const app of starting) void app.then((started) => others.push(started), () => undefined);
  const [first] = await Promise.all(starting);
  // Restart mid-queue: one worker stops once a third went out; the other and a fresh one finish the queue.
  await waitUntil(() => sink.received.length >= 20, 30_000, 'a third sent');
  await first.close();
  others.push(await startTestApp({ env, databaseUrl: async () => t.database.url }));
  await waitUntil(async () => (await statusCounts()).sent === 60, 60_000, 'all 60 sent');
  const copies = copiesByMessageId();
  expect(copies.size).toBe(60);
  const twice = [...copies].filter(([, n]) => n > 1).map(([id]) => id);
  if (twice.length > 0) {
    const rows = await t.dataSource.query(`SELECT message_id, status, attempt_count, attempts, created_at, updated_at FROM email_deliveries WHERE message_id = ANY ($1)`, [twice]);
    const jobs = await t.dataSource.query(
      `SELECT job_id, state, attempts, locked_by, started_at, finished_at, last_error FROM jobs WHERE name = 'actions.email.send' AND payload->>'emailDeliveryId' IN (SELECT email_delivery_id::text FROM email_deliveries WHERE message_id = ANY ($1))`,
      [twice],
    );
    process.stderr.write(`DUPLICATES ${JSON.stringify({ rows, jobs }, null, 1)}\n`);
  }
  expect(twice).toEqual([]);
  const [{ n }] = await t.dataSource.query<{ n: number }[]>(`SELECT count(*)::int AS n FROM email_deliveries WHERE attempt_count <> 1`);
  expect(n).toBe(0);
  sink.onAccepted = undefined;
}, 180_000);

it('resends with the same Message-ID after a process is killed between the SMTP acceptance and its record, and two processes never double a send', async () => {
  for (const other of others.splice(0)) await other.close();
  sink.received.length = 0;
  const env = { ...FAST, SMTP_URL: sink.url, MAIL_FROM: 'alerts@uplink.test', PROCESSING_ENABLED: 'false' };
  const doomed = await startReplica(t.database.url, ADMIN, env);
  replicas.push(doomed);
  let killed = false;
  // The server has the message; the sender dies before the 250 reaches it. The request is made only once the doomed
  // process is ready and this hook is in place, so its first copy cannot go out unobserved during its start-up.
  sink.onAccepted = async () => {
    if (killed) return;
    killed = true;
    doomed.service.child.kill('SIGKILL');
    await doomed.service.exited;
  };
  await pendingRequests(1, 1);
  await waitUntil(() => killed, 60_000, 'the first copy accepted and its sender killed').catch(async (error: Error) => {
    const deliveries = await t.dataSource.query(`SELECT status, attempt_count, attempts, claimed_until FROM email_deliveries WHERE status <> 'sent'`);
    const jobs = await t.dataSource.query(`SELECT name, state, attempts, run_at, locked_by, last_error FROM jobs WHERE state <> 'succeeded' AND state <> 'done'`);
    process.stderr.write(`STUCK ${JSON.stringify({ deliveries, jobs, output: String(doomed.service.output()).slice(-3000) }, null, 1)}\n`);
    throw error;
  });
  const [before] = await t.dataSource.query<{ status: string; attempt_count: number; message_id: string }[]>(
    `SELECT status, attempt_count, message_id FROM email_deliveries WHERE status <> 'sent' ORDER BY created_at DESC LIMIT 1`,
  );
  expect(before).toMatchObject({ status: 'queued', attempt_count: 0 });

  // Two processes take over: the lease runs out, one of them resends, and the 30 deliveries queued next go out once.
  replicas.push(...(await Promise.all([startReplica(t.database.url, ADMIN, env), startReplica(t.database.url, ADMIN, env)])));
  await waitUntil(() => sink.received.filter((mail) => mail.messageId === before!.message_id).length === 2, 60_000, 'the resend');
  await waitUntil(
    async () => (await t.dataSource.query(`SELECT 1 FROM email_deliveries WHERE message_id = $1 AND status = 'sent'`, [before!.message_id])).length === 1,
    10_000,
    'the resend recorded',
  );
  const [after] = await t.dataSource.query<{ status: string; attempt_count: number }[]>(`SELECT status, attempt_count FROM email_deliveries WHERE message_id = $1`, [
    before!.message_id,
  ]);
  expect(after).toMatchObject({ status: 'sent', attempt_count: 1 });

  sink.received.length = 0;
  const sentBefore = (await statusCounts()).sent ?? 0;
  await pendingRequests(3, 10);
  await waitUntil(async () => (await statusCounts()).sent === sentBefore + 30, 60_000, 'the next 30 sent');
  const copies = copiesByMessageId();
  expect(copies.size).toBe(30);
  expect([...copies.values()].every((n) => n === 1)).toBe(true);
}, 240_000);
