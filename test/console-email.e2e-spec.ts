import type { Browser } from 'playwright-core';
import { loginAdmin } from './support/auth';
import { bindAddress, seedEmailTemplate, seedMailDevice, seedMailFlow, uplink, waitDeliveries } from './support/email-actions';
import { freePort } from './support/free-port';
import { as } from './support/http';
import type { LiveFlow } from './support/processing';
import { SmtpSink, startSmtpSink } from './support/smtp-sink';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TEST_ADMIN, TestApp } from './support/test-app';
import { checkPage, launchBrowser, watchedPage, WatchedPage } from './support/browser';
import { waitUntil } from './support/wait';

jest.setTimeout(60_000);

/** Loading the console without a session asks for a refresh the browser has no cookie for: expected. */
const NO_COOKIE_YET = /^401 POST \/v1\/auth\/refresh$/;

/*
 * The console's e-mail pages in a real Chromium against the real service, which sends to an SMTP server in this
 * process (accepting, or refusing with 550 to make a dead letter). One browser page, signed in once, walks the
 * template, delivery and settings pages; the data comes from a live flow whose `email-action` node runs on uplinks.
 */
describe('web console: e-mail actions', () => {
  let t: TestApp;
  let sink: SmtpSink;
  let browser: Browser;
  let tenant: SeededTenant;
  let admin: ReturnType<typeof as>;
  let ingestionToken: string;
  let flow: LiveFlow;
  let device: { deviceId: string; devEui: string };
  let watched: WatchedPage;
  const at = (path: string) => `/console/t/${tenant.tenantNumber}/${path}`;

  beforeAll(async () => {
    sink = await startSmtpSink();
    const port = await freePort();
    t = await startTestApp({
      port,
      env: {
        PUBLIC_URL: `http://127.0.0.1:${port}`,
        SMTP_URL: sink.url,
        SMTP_POOL: 'false',
        SMTP_TIMEOUT_MS: '3000',
        MAIL_FROM: 'Uplink Alerts <alerts@uplink.test>',
        JOBS_POLL_INTERVAL_MS: '100',
        JOBS_LEASE_MS: '2000',
        JOBS_BACKOFF_BASE_MS: '50',
      },
    });
    browser = await launchBrowser();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t, { name: 'Acme Water' });
    ingestionToken = (await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'NS' }).expect(201)).body.token;
    // The flow's e-mail node needs a template; the one under test is created in the console and previewed against this flow's executions.
    const seeded = await seedEmailTemplate(t, tenant);
    flow = await seedMailFlow(t, admin, tenant, seeded);
    await bindAddress(t, tenant, seeded, 'ops@example.com');
    device = await seedMailDevice(t, tenant, flow, 'Basement pump', 'North');

    watched = await watchedPage(browser, t.baseUrl);
    watched.allow(NO_COOKIE_YET);
    const { page } = watched;
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto('/console/');
    await page.getByLabel('Username or e-mail').fill(TEST_ADMIN.username);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await watched?.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
    await sink?.close();
  });

  beforeEach(() => {
    sink.plan = [];
    sink.answer = 'accept';
  });

  it('templates: a draft refused with its field named, then written, released and activated (If-Match: a stale activation asks for a reload), previewed against an execution side by side, test-sent', async () => {
    const { page } = watched;
    const executionId = await uplink(t, ingestionToken, device.devEui, 255);

    await page.goto(at('email-templates'));
    await page.getByRole('heading', { name: 'E-mail templates' }).waitFor();
    await page.getByRole('link', { name: 'Leak alert' }).waitFor();
    await page.getByText('Create a template').click();
    await page.getByLabel(/^Template key/).fill('pump-alarm');
    await page.getByLabel('Template name').fill('Pump alarm');
    await checkPage(page, 'email-templates');
    await page.getByRole('button', { name: 'Create template' }).click();
    await page.getByRole('heading', { name: 'Pump alarm' }).waitFor();
    const templateId = /email-templates\/([0-9a-f-]{36})/.exec(page.url())![1]!;

    await page.getByText('Write a new version (draft)').click();
    // A section is refused when the draft is saved; the page names the field and the rule.
    await page.getByLabel('Subject').fill('Alarm {{#device}}at {{device.name}}{{/device}}');
    await page.getByLabel('Text body').fill('Level {{values.level}} at {{device.metadata.site}} in {{tenant.name}}');
    await page.getByLabel(/^HTML body/).fill('<p>Level <b>{{values.level}}</b> at {{device.metadata.site}}</p>');
    watched.allow(/^400 POST \/v1\/email-templates\/[0-9a-f-]+\/versions$/);
    await page.getByRole('button', { name: 'Save draft' }).click();
    expect(await page.getByRole('list', { name: 'Problems by field' }).textContent()).toContain('body.subject (format)');
    await page.getByLabel('Subject').fill('Alarm at {{device.name}}');
    await page.getByRole('button', { name: 'Save draft' }).click();
    await page.getByRole('button', { name: 'Release v1' }).click();
    await page.getByRole('button', { name: 'Activate v1' }).waitFor();

    // Someone renames the template meanwhile: the activation the page sends carries the old version and is refused.
    const current = await admin.get(`/v1/email-templates/${templateId}`).expect(200);
    await admin.patch(`/v1/email-templates/${templateId}`, { name: 'Pump alarm (renamed)' }).set('If-Match', current.headers.etag).expect(200);
    watched.allow(/^409 POST \/v1\/email-templates\/[0-9a-f-]+\/activate$/);
    await page.getByRole('button', { name: 'Activate v1' }).click();
    await page.getByText('This template was changed by someone else').waitFor();
    await page.getByRole('button', { name: 'Reload' }).click();
    await page.getByRole('heading', { name: 'Pump alarm (renamed)' }).waitFor();
    await page.getByRole('button', { name: 'Activate v1' }).click();
    await page.locator('.badge.active', { hasText: 'active' }).waitFor();
    expect((await admin.get(`/v1/email-templates/${templateId}`).expect(200)).body.activeVersionNumber).toBe(1);

    // The preview: the flow, then the execution of the uplink above; the rendering sits next to the template's texts.
    await page.getByRole('combobox', { name: /^Flow/ }).selectOption(flow.flowId);
    await page.getByLabel('Execution of the last 24 hours').selectOption(executionId);
    await page.getByRole('button', { name: 'Render preview' }).click();
    const preview = page.getByTestId('email-preview');
    await preview.waitFor();
    expect(await page.getByTestId('rendered-subject').textContent()).toBe('Alarm at Basement pump');
    expect(await page.getByTestId('rendered-text').textContent()).toBe('Level 25.5 at North in Acme Water');
    expect(await preview.getByRole('region', { name: 'Template' }).textContent()).toContain('Alarm at {{device.name}}');
    expect(await page.locator('iframe.email-html').getAttribute('srcdoc')).toBe('<p>Level <b>25.5</b> at North</p>');
    expect(await page.locator('iframe.email-html').getAttribute('sandbox')).toBe('');
    expect(await page.frameLocator('iframe.email-html').locator('b').textContent()).toBe('25.5');
    await checkPage(page, 'email-template');

    await page.getByLabel('Send a test to').fill('me@example.com');
    await page.getByRole('button', { name: 'Send test e-mail' }).click();
    await page.getByText(/^Sent: 250/).waitFor();
    const tested = sink.received.filter((mail) => mail.to.includes('me@example.com'));
    expect(tested.map((mail) => [mail.subject, mail.text.trim()])).toEqual([['Alarm at Basement pump', 'Level 25.5 at North in Acme Water']]);
    watched.expectClean();
  });

  it('delivery log and dead letters: a 550 is shown with its SMTP reply; the dead letter is redriven and sent with the same Message-ID', async () => {
    const { page } = watched;
    sink.answer = 'reject';
    const executionId = await uplink(t, ingestionToken, device.devEui, 300);
    const [row] = await waitDeliveries(t, executionId, 1, (delivery) => delivery.status === 'dead_lettered');
    sink.answer = 'accept';

    await page.goto(at('email-deliveries'));
    await page.getByRole('heading', { name: 'E-mail deliveries' }).waitFor();
    await page.getByLabel('Execution id').fill(executionId);
    await page.getByRole('button', { name: 'Filter' }).click();
    // The unfiltered page stays until the filtered one arrives.
    await waitUntil(async () => (await page.locator('tbody tr').count()) === 1, 10_000, 'the filtered delivery log');
    await page.getByRole('cell', { name: 'dead lettered' }).waitFor();
    await page.getByRole('button', { name: 'Details of the delivery to ops@example.com' }).click();
    const detail = page.getByTestId('delivery-detail');
    await detail.getByRole('cell', { name: '550', exact: true }).waitFor();
    expect(await detail.textContent()).toContain('5.1.1 Mailbox unavailable');
    expect(await detail.textContent()).toContain(row!.message_id);
    await checkPage(page, 'email-deliveries');

    await page.getByRole('button', { name: 'Dead letters' }).click();
    await page.getByRole('button', { name: 'Redrive the e-mail to ops@example.com' }).waitFor();
    await page.getByRole('button', { name: 'Details of the dead letter to ops@example.com' }).click();
    await page.getByTestId('dead-letter-detail').getByText('Level 30 at North in Acme Water').waitFor();
    await checkPage(page, 'email-dead-letters');
    await page.getByRole('button', { name: 'Redrive the e-mail to ops@example.com' }).click();
    // The list follows the redrive on its own (pending, then redriven); the open filter shows it no more once done.
    await page.getByLabel('Status').selectOption('');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.locator('.badge.email-redriven').waitFor({ timeout: 15_000 });
    const redriven = sink.received.filter((mail) => mail.messageId === row!.message_id);
    expect(redriven).toHaveLength(1);
    const letter = await admin.get(`/v1/dead-letters/${row!.dead_letter_id}`).expect(200);
    expect(letter.body.status).toBe('redriven');
    const delivery = await admin.get(`/v1/email-deliveries/${row!.email_delivery_id}`).expect(200);
    expect(delivery.body.attempts.map((attempt: { smtpCode: number }) => attempt.smtpCode)).toEqual([550, 250]);
    watched.expectClean();
  });

  it('settings: the kill-switch paused with a reason and resumed; a recipient added, narrowed and disabled', async () => {
    const { page } = watched;
    await page.goto(at('email-settings'));
    await page.getByRole('heading', { name: 'E-mail settings' }).waitFor();
    await page.getByText('E-mail is running').waitFor();
    await page.getByLabel('Reason for pausing').fill('SMTP provider incident');
    await page.getByRole('button', { name: 'Pause all e-mail' }).click();
    await page.getByText('E-mail is paused for this tenant').waitFor();
    expect(await page.getByTestId('kill-switch-reason').textContent()).toBe('SMTP provider incident');
    expect((await admin.get(`/v1/tenants/${tenant.tenantNumber}/action-kill-switch`).expect(200)).body).toMatchObject({
      state: 'paused',
      reason: 'SMTP provider incident',
    });

    await page.getByText('Add a recipient').click();
    await page.getByLabel('E-mail template').selectOption({ label: 'Leak alert' });
    await page.getByLabel('Recipient address').fill('night-shift@example.com');
    await page.getByLabel('Only devices of type').selectOption(flow.type.deviceTypeId);
    await page.getByRole('button', { name: 'Add recipient' }).click();
    await page.getByRole('button', { name: 'Disable night-shift@example.com' }).waitFor();
    await checkPage(page, 'email-settings');

    await page.getByRole('button', { name: 'Narrow night-shift@example.com' }).click();
    await page.getByRole('form', { name: 'Narrow the binding of night-shift@example.com' }).getByLabel('Only devices of type').selectOption('');
    await page.getByRole('button', { name: 'Save binding' }).click();
    await page.getByRole('button', { name: 'Disable night-shift@example.com' }).click();
    await page.getByRole('button', { name: 'Reactivate night-shift@example.com' }).waitFor();
    const bindings = await admin.get(`/v1/tenants/${tenant.tenantNumber}/recipient-bindings`).query({ status: 'disabled' }).expect(200);
    expect(bindings.body.items).toMatchObject([{ email: 'night-shift@example.com', deviceTypeId: null, status: 'disabled' }]);

    await page.getByRole('button', { name: 'Resume e-mail' }).click();
    await page.getByText('E-mail is running').waitFor();
    expect((await admin.get(`/v1/tenants/${tenant.tenantNumber}/action-kill-switch`).expect(200)).body.state).toBe('running');
    watched.expectClean();
  });
});
