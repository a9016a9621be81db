import { randomUUID } from 'node:crypto';
import { FlowActionRequests } from '../src/modules/actions';
import { ActionsRetentionJob } from '../src/modules/actions/retention/actions-retention.job';
import { ExecutionRetentionSweeper } from '../src/modules/processing/retention/execution-retention-sweeper';
import { UnitOfWork } from '../src/shared/events/unit-of-work';
import { auditRows } from './support/audit';
import { loginAdmin, seedUser } from './support/auth';
import {
  advanceClock,
  bindAddress,
  bindUser,
  deliveriesOf,
  nextRunOf,
  seedEmailTemplate,
  seedMailDevice,
  seedMailFlow,
  SeededTemplate,
  uplink,
  waitDeliveries,
} from './support/email-actions';
import { as } from './support/http';
import type { LiveFlow } from './support/processing';
import { SmtpSink, startSmtpSink } from './support/smtp-sink';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';

/*
 * E-mail delivery end to end: uplinks run a live flow whose `email-action` node requests a template; the requests
 * become one delivery per recipient and are sent to a real SMTP server in this process, which the tests tell to
 * accept, answer 451 or 550, or cut the connection mid-DATA. Retries are driven by moving the schedule (no waits).
 */
let t: TestApp;
let sink: SmtpSink;
let admin: ReturnType<typeof as>;
let tenant: SeededTenant;
let ingestionToken: string;

const MINUTE = 60_000;

beforeAll(async () => {
  sink = await startSmtpSink();
  t = await startTestApp({
    env: {
      SMTP_URL: sink.url,
      SMTP_POOL: 'false',
      SMTP_TIMEOUT_MS: '3000',
      MAIL_FROM: 'Uplink Alerts <alerts@uplink.test>',
      JOBS_POLL_INTERVAL_MS: '100',
      JOBS_LEASE_MS: '2000',
      JOBS_BACKOFF_BASE_MS: '50',
      ACTIONS_MAX_EMAILS_PER_HOUR: '40',
      ACTIONS_TEST_SENDS_PER_MINUTE: '3',
    },
  });
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t, { name: 'Acme Water' });
  ingestionToken = (await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'NS' }).expect(201)).body.token;
});

afterAll(async () => {
  await t.close();
  await sink.close();
});

beforeEach(() => {
  sink.plan = [];
  sink.answer = 'accept';
});

interface Scenario {
  template: SeededTemplate;
  flow: LiveFlow;
  device: { deviceId: string; devEui: string };
}

async function scenario(recipients: string[], configuration: Record<string, unknown> = {}, owner = tenant): Promise<Scenario> {
  const template = await seedEmailTemplate(t, owner);
  const flow = await seedMailFlow(t, admin, owner, template, configuration);
  // The same address twice (any case) is one recipient: the second binding narrows to the flow's device type.
  const seen = new Set<string>();
  for (const email of recipients) {
    await bindAddress(t, owner, template, email, seen.has(email.toLowerCase()) ? flow.type.deviceTypeId : null);
    seen.add(email.toLowerCase());
  }
  const device = await seedMailDevice(t, owner, flow, 'Basement pump', 'North');
  return { template, flow, device };
}

const mailsTo = (address: string) => sink.received.filter((mail) => mail.to.includes(address));

describe('sending', () => {
  it('sends one e-mail per recipient with the rendered subject, text and html, From and a Message-ID from the delivery id', async () => {
    const { device } = await scenario(['Ops@Example.com', 'ops@example.com', 'lead@example.com']);
    const executionId = await uplink(t, ingestionToken, device.devEui, 255);
    const rows = await waitDeliveries(t, executionId, 2);
    expect(rows.map((row) => [row.recipient_email, row.status])).toEqual([
      ['lead@example.com', 'sent'],
      ['ops@example.com', 'sent'],
    ]);
    for (const row of rows) {
      expect(row.message_id).toBe(`<${row.email_delivery_id}@uplink.test>`);
      const [mail, ...more] = mailsTo(row.recipient_email);
      expect(more).toEqual([]);
      expect(mail).toMatchObject({
        from: 'alerts@uplink.test',
        messageId: row.message_id,
        subject: 'Leak at Basement pump (North)',
        text: 'Level 25.5 at North in Acme Water',
        html: '<p>Level <b>25.5</b> at North</p>',
      });
      expect(mail!.headerLines.find((line) => line.toLowerCase().startsWith('from:'))).toBe('From: Uplink Alerts <alerts@uplink.test>');
      expect(row.attempts).toEqual([{ at: expect.any(String), smtpCode: 250, smtpReply: expect.stringMatching(/^250/) }]);
    }

    // The log lists them without bodies; the detail has bodies and attempts; the execution links them.
    const list = await admin.get(`/v1/tenants/${tenant.tenantNumber}/email-deliveries`).query({ flowExecutionId: executionId }).expect(200);
    expect(list.body.items).toHaveLength(2);
    expect(list.body.items[0].bodyText).toBeUndefined();
    const detail = await admin.get(`/v1/email-deliveries/${rows[0]!.email_delivery_id}`).expect(200);
    expect(detail.body).toMatchObject({ status: 'sent', bodyText: 'Level 25.5 at North in Acme Water', messageId: rows[0]!.message_id, attemptCount: 1 });
    expect(detail.body.attempts[0]).toMatchObject({ smtpCode: 250 });
    const byRecipient = await admin.get(`/v1/tenants/${tenant.tenantNumber}/email-deliveries`).query({ recipient: 'LEAD@example.com', status: 'sent' }).expect(200);
    expect(byRecipient.body.items.map((item: { recipientEmail: string }) => item.recipientEmail)).toEqual(['lead@example.com']);
    const [{ flow_id: flowId }] = await t.dataSource.query(`SELECT flow_id FROM flow_executions WHERE flow_execution_id = $1`, [executionId]);
    const execution = await admin.get(`/v1/flows/${flowId}/executions/${executionId}`).expect(200);
    expect(execution.body.emailDeliveries.map((d: { emailDeliveryId: string }) => d.emailDeliveryId).sort()).toEqual(rows.map((r) => r.email_delivery_id).sort());
  });

  it('escapes values in the html body and never lets a value add a header (CR/LF in the subject)', async () => {
    const template = await seedEmailTemplate(t, tenant);
    await bindAddress(t, tenant, template, 'inject@example.com');
    const flow = await seedMailFlow(t, admin, tenant, template);
    const device = await seedMailDevice(t, tenant, flow, 'Pump', '<script>alert(1)</script>\r\nBcc: victim@evil.test\r\nX-Injected: yes');
    const executionId = await uplink(t, ingestionToken, device.devEui, 10);
    await waitDeliveries(t, executionId, 1);
    const [mail] = mailsTo('inject@example.com');
    expect(mail!.to).toEqual(['inject@example.com']);
    expect(mail!.subject).not.toMatch(/[\r\n]/);
    expect(mail!.subject).toContain('Bcc: victim@evil.test');
    expect(mail!.headerLines.some((line) => /^(bcc|x-injected):/i.test(line))).toBe(false);
    expect(mail!.html).toContain('&lt;script&gt;alert(1)&lt;&#x2F;script&gt;');
    expect(mail!.html).not.toContain('<script>');
    expect(sink.received.some((m) => m.to.includes('victim@evil.test'))).toBe(false);
  });

  it('sends nothing for requests recorded in a transaction that rolled back', async () => {
    const { template, flow, device } = await scenario(['rollback@example.com']);
    const executionId = await uplink(t, ingestionToken, device.devEui, 1);
    await waitDeliveries(t, executionId, 1);
    const before = sink.received.length;
    await expect(
      t.app.get(UnitOfWork).run(async (scope) => {
        await t.app.get(FlowActionRequests).record(scope.manager, [
          { tenantId: tenant.tenantId, flowId: flow.flowId, flowExecutionId: executionId, nodeId: 'mail', emailTemplateId: template.emailTemplateId, deviceId: device.deviceId },
        ]);
        throw new Error('execution failed');
      }),
    ).rejects.toThrow('execution failed');
    // A committed request afterwards is delivered; by then the rolled-back one would have been too.
    const next = await uplink(t, ingestionToken, device.devEui, 2);
    await waitDeliveries(t, next, 1);
    expect(await deliveriesOf(t, executionId)).toHaveLength(1);
    expect(sink.received.length).toBe(before + 1);
  });
});

describe('retries and dead letters', () => {
  it('retries a transient failure after 1 min, 5 min, 30 min and 2 h, then dead-letters it with the rendered message and last error', async () => {
    const { device } = await scenario(['retry@example.com']);
    sink.answer = 'tempfail';
    const executionId = await uplink(t, ingestionToken, device.devEui, 30);
    let [row] = await waitDeliveries(t, executionId, 1, (r) => r.attempt_count === 1);
    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt++) {
      expect(row!.status).toBe('failed');
      const last = new Date(row!.attempts[attempt - 1]!.at).getTime();
      const next = row!.next_attempt_at!.getTime();
      delays.push(Math.round((next - last) / 1000) * 1000);
      expect(Math.abs((await nextRunOf(t, row!.email_delivery_id))!.getTime() - next)).toBeLessThan(5);
      expect(row!.attempts[attempt - 1]).toMatchObject({ smtpCode: 451, smtpReply: expect.stringContaining('451') });
      // Nothing happens before the time comes.
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect((await deliveriesOf(t, executionId))[0]!.attempt_count).toBe(attempt);
      await advanceClock(t, row!.email_delivery_id, next - Date.now());
      [row] = await waitDeliveries(t, executionId, 1, (r) => r.attempt_count === attempt + 1);
    }
    expect(delays).toEqual([MINUTE, 5 * MINUTE, 30 * MINUTE, 120 * MINUTE]);
    expect(row!.status).toBe('dead_lettered');
    expect(await nextRunOf(t, row!.email_delivery_id)).toBeNull();
    const letter = await admin.get(`/v1/dead-letters/${row!.dead_letter_id}`).expect(200);
    expect(letter.body).toMatchObject({
      status: 'open',
      attempts: 5,
      recipientEmail: 'retry@example.com',
      subject: 'Leak at Basement pump (North)',
      bodyText: 'Level 3 at North in Acme Water',
      bodyHtml: '<p>Level <b>3</b> at North</p>',
      lastError: { code: 'smtp_451', message: expect.stringContaining('451') },
      messageId: row!.message_id,
    });
    expect(sink.attempts.filter((a) => a === 'tempfail').length).toBeGreaterThanOrEqual(5);
  });

  it('leaves a failed delivery alone when a second send job runs before its retry is due', async () => {
    const { device } = await scenario(['early@example.com']);
    sink.answer = 'tempfail';
    const executionId = await uplink(t, ingestionToken, device.devEui, 31);
    const [row] = await waitDeliveries(t, executionId, 1, (r) => r.attempt_count === 1);
    sink.answer = 'accept';
    const [{ job_id: early }] = await t.dataSource.query<{ job_id: string }[]>(
      `INSERT INTO jobs (queue, name, payload, max_attempts, run_at)
       SELECT queue, name, payload, max_attempts, now() FROM jobs WHERE name = 'actions.email.send' AND state = 'pending' AND payload->>'emailDeliveryId' = $1
       RETURNING job_id`,
      [row!.email_delivery_id],
    );
    await waitUntil(async () => (await t.dataSource.query(`SELECT 1 FROM jobs WHERE job_id = $1 AND state = 'completed'`, [early])).length === 1, 10_000, 'the early job done');
    const [after] = await deliveriesOf(t, executionId);
    expect(after).toMatchObject({ status: 'failed', attempt_count: 1 });
    expect(mailsTo('early@example.com')).toHaveLength(0);
    expect(await nextRunOf(t, row!.email_delivery_id)).toEqual(row!.next_attempt_at);
  });

  it('dead-letters a permanent 5xx at once; a redrive that fails reopens it, one that succeeds sends the same Message-ID', async () => {
    const { device, template } = await scenario(['gone@example.com']);
    sink.answer = 'reject';
    const executionId = await uplink(t, ingestionToken, device.devEui, 40);
    const [row] = await waitDeliveries(t, executionId, 1);
    expect(row).toMatchObject({ status: 'dead_lettered', attempt_count: 1 });
    expect(row!.attempts[0]).toMatchObject({ smtpCode: 550 });
    const id = row!.dead_letter_id!;
    const list = await admin.get(`/v1/tenants/${tenant.tenantNumber}/dead-letters`).query({ emailTemplateId: template.emailTemplateId }).expect(200);
    expect(list.body.items.map((item: { deadLetterId: string }) => item.deadLetterId)).toEqual([id]);
    expect(list.body.items[0]).toMatchObject({ status: 'open', attempts: 1, lastError: { code: 'smtp_550' } });
    expect(list.body.items[0].bodyText).toBeUndefined();

    // A failing redrive: back to open with one attempt more.
    const pending = await admin.post(`/v1/dead-letters/${id}/redrive`).expect(202);
    expect(pending.body.status).toBe('redrive_pending');
    await admin.post(`/v1/dead-letters/${id}/redrive`).expect(409);
    await waitUntil(async () => (await admin.get(`/v1/dead-letters/${id}`)).body.status === 'open');
    expect((await admin.get(`/v1/dead-letters/${id}`)).body.attempts).toBe(2);

    // Paused: refused.
    await admin.post(`/v1/tenants/${tenant.tenantNumber}/action-kill-switch/pause`, {}).expect(200);
    const paused = await admin.post(`/v1/dead-letters/${id}/redrive`).expect(409);
    expect(paused.body.error.details.reason).toBe('actions_paused');
    await admin.post(`/v1/tenants/${tenant.tenantNumber}/action-kill-switch/resume`).expect(200);

    sink.answer = 'accept';
    await admin.post(`/v1/dead-letters/${id}/redrive`).expect(202);
    await waitUntil(async () => (await admin.get(`/v1/dead-letters/${id}`)).body.status === 'redriven');
    const [mail, ...more] = mailsTo('gone@example.com');
    expect(more).toEqual([]);
    expect(mail!.messageId).toBe(row!.message_id);
    const delivery = (await admin.get(`/v1/email-deliveries/${row!.email_delivery_id}`).expect(200)).body;
    expect(delivery.status).toBe('sent');
    expect(delivery.attempts.map((a: { smtpCode: number }) => a.smtpCode)).toEqual([550, 550, 250]);
    const conflict = await admin.post(`/v1/dead-letters/${id}/redrive`).expect(409);
    expect(conflict.body.error.details).toMatchObject({ reason: 'invalid_state', currentStatus: 'redriven' });
    expect(await auditRows(t, 'dead_letter', id, 'dead_letter.redriven')).toHaveLength(2);
  });

  it('treats a connection cut mid-DATA as transient and records the error', async () => {
    const { device } = await scenario(['cut@example.com']);
    sink.plan = ['drop'];
    const executionId = await uplink(t, ingestionToken, device.devEui, 50);
    const [row] = await waitDeliveries(t, executionId, 1, (r) => r.attempt_count === 1);
    expect(row!.status).toBe('failed');
    expect(row!.attempts[0]!.error).toMatchObject({ code: expect.any(String), message: expect.any(String) });
    await advanceClock(t, row!.email_delivery_id, MINUTE);
    const [sent] = await waitDeliveries(t, executionId, 1, (r) => r.status === 'sent');
    expect(sent!.attempt_count).toBe(2);
    expect(mailsTo('cut@example.com').map((m) => m.messageId)).toEqual([row!.message_id]);
  });
});

describe('kill-switch', () => {
  it('holds waiting deliveries while paused, suppresses new ones, and releases the held ones on resume', async () => {
    const owner = await seedTenant(t);
    const token = (await admin.post(`/v1/tenants/${owner.tenantNumber}/ingestion-credentials`, { name: 'NS' }).expect(201)).body.token;
    const { device } = await scenario(['held@example.com'], {}, owner);
    sink.plan = ['tempfail'];
    const first = await uplink(t, token, device.devEui, 1);
    const [waiting] = await waitDeliveries(t, first, 1, (r) => r.status === 'failed');

    const paused = await admin.post(`/v1/tenants/${owner.tenantNumber}/action-kill-switch/pause`, { reason: 'alarm storm' }).expect(200);
    expect(paused.body).toMatchObject({ tenantId: owner.tenantId, state: 'paused', reason: 'alarm storm', changedByUserId: expect.any(String) });
    await admin.post(`/v1/tenants/${owner.tenantNumber}/action-kill-switch/pause`, { reason: 'again' }).expect(200);
    expect((await admin.get(`/v1/tenants/${owner.tenantNumber}/action-kill-switch`).expect(200)).body).toMatchObject({ state: 'paused', reason: 'alarm storm' });
    expect((await deliveriesOf(t, first))[0]!.status).toBe('held');
    // Its scheduled retry finds it held and sends nothing.
    await advanceClock(t, waiting!.email_delivery_id, MINUTE);
    const second = await uplink(t, token, device.devEui, 2);
    const [suppressed] = await waitDeliveries(t, second, 1, (r) => r.status === 'suppressed');
    expect(suppressed!.suppression_reason).toBe('actions_paused');
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(mailsTo('held@example.com')).toEqual([]);
    expect((await deliveriesOf(t, first))[0]!.status).toBe('held');

    const resumed = await admin.post(`/v1/tenants/${owner.tenantNumber}/action-kill-switch/resume`).expect(200);
    expect(resumed.body).toMatchObject({ state: 'running', reason: null });
    await waitDeliveries(t, first, 1, (r) => r.status === 'sent');
    expect(mailsTo('held@example.com').map((m) => m.messageId)).toEqual([waiting!.message_id]);
    expect((await deliveriesOf(t, second))[0]!.status).toBe('suppressed');
    expect((await auditRows(t, 'action_kill_switch', owner.tenantId)).map((row) => row.event_type).sort()).toEqual([
      'action_kill_switch.paused',
      'action_kill_switch.resumed',
    ]);
  });
});

describe('flood control and recipient scope', () => {
  it('suppresses a request within the node\'s cooldown for the same flow, node and device', async () => {
    const { device, flow } = await scenario(['cool@example.com'], { cooldownSeconds: 3600 });
    const first = await uplink(t, ingestionToken, device.devEui, 1);
    await waitDeliveries(t, first, 1);
    const second = await uplink(t, ingestionToken, device.devEui, 2);
    const [row] = await waitDeliveries(t, second, 1);
    expect(row).toMatchObject({ status: 'suppressed', suppression_reason: 'cooldown' });
    // Another device of the same flow is not in that cooldown.
    const other = await seedMailDevice(t, tenant, flow, 'Other pump', 'South');
    const third = await uplink(t, ingestionToken, other.devEui, 3);
    expect((await waitDeliveries(t, third, 1))[0]!.status).toBe('sent');
    expect(mailsTo('cool@example.com')).toHaveLength(2);
    const log = await admin.get(`/v1/tenants/${tenant.tenantNumber}/email-deliveries`).query({ status: 'suppressed', deviceId: device.deviceId }).expect(200);
    expect(log.body.items.map((item: { suppressionReason: string }) => item.suppressionReason)).toEqual(['cooldown']);
  });

  it('suppresses past the tenant\'s hourly ceiling (ACTIONS_MAX_EMAILS_PER_HOUR)', async () => {
    const owner = await seedTenant(t);
    const token = (await admin.post(`/v1/tenants/${owner.tenantNumber}/ingestion-credentials`, { name: 'NS' }).expect(201)).body.token;
    const { device, template } = await scenario(['ceiling@example.com'], {}, owner);
    // 39 e-mails of the last hour already: the 40th goes out, the 41st does not.
    await t.dataSource.query(
      `INSERT INTO email_deliveries (email_delivery_id, tenant_id, email_template_id, recipient_email, status, message_id, ended_at)
       SELECT gen_random_uuid(), $1, $2, 'past@example.com', 'sent', '<x@y>', clock_timestamp() FROM generate_series(1, 39)`,
      [owner.tenantId, template.emailTemplateId],
    );
    const first = await uplink(t, token, device.devEui, 1);
    expect((await waitDeliveries(t, first, 1))[0]!.status).toBe('sent');
    const second = await uplink(t, token, device.devEui, 2);
    expect((await waitDeliveries(t, second, 1))[0]).toMatchObject({ status: 'suppressed', suppression_reason: 'tenant_rate_limit' });
  });

  it('suppresses a user recipient without a grant covering the device, and every recipient when no version is active', async () => {
    const outsider = await seedUser(t, { email: `outsider-${randomUUID().slice(0, 8)}@example.com` });
    const { device, template } = await scenario(['scoped@example.com']);
    await bindUser(t, tenant, template, outsider.userId);
    const executionId = await uplink(t, ingestionToken, device.devEui, 5);
    const rows = await waitDeliveries(t, executionId, 2);
    const byAddress = Object.fromEntries(rows.map((row) => [row.recipient_email, [row.status, row.suppression_reason]]));
    expect(byAddress).toEqual({ 'scoped@example.com': ['sent', null], [outsider.email.toLowerCase()]: ['suppressed', 'recipient_out_of_scope'] });

    const inactive = await seedEmailTemplate(t, tenant, { active: false });
    await bindAddress(t, tenant, inactive, 'inactive@example.com');
    const flow = await seedMailFlow(t, admin, tenant, inactive);
    const quiet = await seedMailDevice(t, tenant, flow, 'Quiet', 'West');
    const quietExecution = await uplink(t, ingestionToken, quiet.devEui, 6);
    expect((await waitDeliveries(t, quietExecution, 1))[0]).toMatchObject({ status: 'suppressed', suppression_reason: 'no_active_version' });
  });
});

describe('test send', () => {
  it('renders and sends one e-mail now, answers the SMTP reply, 502 with the reply on refusal, and is rate limited per user', async () => {
    const template = await seedEmailTemplate(t, tenant);
    const path = `/v1/email-templates/${template.emailTemplateId}/versions/${template.versionId}/test-send`;
    const ok = await admin
      .post(path, { to: 'me@example.com', context: { device: { name: '<i>Pump</i>', metadata: { site: 'Lab' } }, values: { level: 7 } } })
      .expect(200);
    expect(ok.body).toMatchObject({ smtpCode: 250, smtpReply: expect.stringMatching(/^250/), messageId: expect.stringMatching(/^<test-.+@uplink\.test>$/) });
    const [mail] = mailsTo('me@example.com');
    expect(mail).toMatchObject({ subject: 'Leak at <i>Pump</i> (Lab)', messageId: ok.body.messageId, html: '<p>Level <b>7</b> at Lab</p>' });
    expect(await auditRows(t, 'email_template_version', template.versionId, 'email_template_version.test_sent')).toHaveLength(1);

    sink.answer = 'reject';
    const refused = await admin.post(path, { to: 'me@example.com' }).expect(502);
    expect(refused.body.error.code).toBe('DEPENDENCY_FAILURE');
    expect(refused.body.error.details).toMatchObject({ dependency: 'mail', reason: 'smtp_550', smtpCode: 550, smtpReply: expect.stringContaining('550') });
    // ACTIONS_TEST_SENDS_PER_MINUTE is 3 here: the third attempt of the minute is the last one allowed.
    await admin.post(path, { to: 'me@example.com' }).expect(502);
    const limited = await admin.post(path, { to: 'me@example.com' }).expect(429);
    expect(limited.headers['retry-after']).toBeDefined();

    const unknown = await admin.post(`/v1/email-templates/${template.emailTemplateId}/versions/${randomUUID()}/test-send`, { to: 'me@example.com' });
    expect(unknown.status).toBe(404);
  });
});

describe('retention', () => {
  it('keeps deliveries and dead letters 30 days after they end, whatever execution retention deletes', async () => {
    const { device } = await scenario(['kept@example.com']);
    const executionId = await uplink(t, ingestionToken, device.devEui, 9);
    const [row] = await waitDeliveries(t, executionId, 1);
    // The execution goes (as if past execution retention); its delivery stays.
    await t.dataSource.query(`UPDATE flow_executions SET started_at = now() - interval '400 days' WHERE flow_execution_id = $1`, [executionId]);
    await t.app.get(ExecutionRetentionSweeper).run({});
    expect(await t.dataSource.query(`SELECT 1 FROM flow_executions WHERE flow_execution_id = $1`, [executionId])).toEqual([]);
    expect((await admin.get(`/v1/email-deliveries/${row!.email_delivery_id}`).expect(200)).body.flowExecutionId).toBe(executionId);

    const context = { jobId: '0', name: 'actions.retention', attempt: 1, maxAttempts: 1, signal: new AbortController().signal };
    await t.app.get(ActionsRetentionJob).handle({}, context);
    await admin.get(`/v1/email-deliveries/${row!.email_delivery_id}`).expect(200);
    await t.dataSource.query(`UPDATE email_deliveries SET ended_at = now() - interval '31 days' WHERE email_delivery_id = $1`, [row!.email_delivery_id]);
    await t.app.get(ActionsRetentionJob).handle({}, context);
    await admin.get(`/v1/email-deliveries/${row!.email_delivery_id}`).expect(404);
  });
});

describe('readiness and metrics', () => {
  it('reports the verified SMTP connection as the mail check and counts deliveries', async () => {
    const ready = await t.http().get('/readyz').expect(200);
    expect(ready.body.checks.mail).toMatchObject({ status: 'up' });
    const metrics = await t.http().get('/metrics').expect(200);
    expect(metrics.text).toMatch(/email_deliveries_total\{outcome="sent"\} \d+/);
    expect(metrics.text).toContain('dead_letters_open');
    expect(metrics.text).toContain('email_delivery_lag_seconds');
  });
});
