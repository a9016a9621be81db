import type { Browser } from 'playwright-core';
import { loginAdmin } from './support/auth';
import { seedDevice, seedDeviceType, seedField, SeededDevice } from './support/devices';
import { bend, pipelineGraph } from './support/flows';
import { freePort } from './support/free-port';
import { as } from './support/http';
import { releasedVersion, seedLiveFlow, LiveFlow } from './support/processing';
import { seedRawMessage } from './support/executions';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TEST_ADMIN, TestApp } from './support/test-app';
import { waitUntil } from './support/wait';
import { checkPage, launchBrowser, watchedPage, WatchedPage } from './support/browser';

jest.setTimeout(90_000);

type Api = ReturnType<typeof as>;

/** Loading the console without a session asks for a refresh the browser has no cookie for: expected. */
const NO_COOKIE_YET = /^401 POST \/v1\/auth\/refresh$/;

/** The pipeline graph with `level` scaled by `multiply` (the active version by 1, a candidate by 2). */
const scaled = (type: { deviceTypeId: string | null }, multiply: number) =>
  bend(pipelineGraph(type as { deviceTypeId: string }, 'level'), (copy) => {
    (copy.nodes[1]!.configuration as Record<string, unknown>).multiply = multiply;
  });

/**
 * The replays area of the console in a real Chromium: a dry run's diff with its examples, the template catalog
 * (copy into a flow, the newer-version notice and its upgrade walk), global templates, and the live view of a
 * device's uplinks. One service, one signed-in page; data seeded through the API and the test helpers.
 */
describe('console: replays, flow templates, live uplinks', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: SeededTenant;
  let admin: Api;
  let watched: WatchedPage;
  let flow: LiveFlow & { candidateId: string };
  let device: SeededDevice;

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    browser = await launchBrowser();
    tenant = await seedTenant(t, { name: 'Replay Water' });
    admin = as(t, (await loginAdmin(t)).accessToken);
    watched = await watchedPage(browser, t.baseUrl);
    watched.allow(NO_COOKIE_YET);
    // Confirmations (real replay, activation) are accepted.
    watched.page.on('dialog', (dialog) => void dialog.accept());
    const { page } = watched;
    await page.goto('/console/');
    await page.getByLabel('Username or e-mail').fill(TEST_ADMIN.username);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().waitFor();
  }, 120_000);

  afterAll(async () => {
    await watched?.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  it('starts a dry run of a candidate version and renders its diff with the examples side by side', async () => {
    const live = await seedLiveFlow(t, admin, tenant, (type) => scaled(type, 1));
    flow = { ...live, candidateId: await releasedVersion(admin, live.flowId, scaled(live.type, 2)) };
    device = await seedDevice(t, tenant, flow.type, null, { name: 'Tank north' });
    const start = Date.now() - 3600_000;
    for (const [index, value] of [100, 150, 200].entries()) {
      await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: device.deviceId, devEui: device.devEui, observedAt: new Date(start + index * 60_000), value });
    }

    const { page } = watched;
    await page.goto(`/console/t/${tenant.tenantNumber}/replays?flowId=${flow.flowId}`);
    await page.getByRole('heading', { name: 'Start a replay' }).waitFor();
    // The newest released version that is not the active one is the candidate offered.
    expect(await page.getByLabel('Version').locator('option:checked').textContent()).toBe('v3');
    await checkPage(page, 'replays');
    await page.getByRole('button', { name: 'Start the dry run' }).click();

    await page.getByRole('heading', { name: /Replay of/ }).waitFor();
    await page.getByTestId('replay-status').filter({ hasText: 'succeeded' }).waitFor({ timeout: 30_000 });
    await page.getByTestId('diff-summary').waitFor();
    const count = (category: string) => page.locator(`[data-category="${category}"]`).textContent();
    expect(await count('messagesCompared')).toBe('3');
    expect(await count('changed')).toBe('3');
    expect(await count('identical')).toBe('0');
    expect(await count('newlyFailing')).toBe('0');
    expect(await page.locator('[data-testid="diff-fields"] tr[data-field="level"]').innerText()).toMatch(/level\s+3\s+± 200/);
    const examples = page.getByTestId('diff-example');
    expect(await examples.count()).toBe(3);
    const first = examples.first();
    expect(await first.getByRole('columnheader').allTextContents()).toEqual(['Output', 'Active (v2)', 'Candidate (v3)']);
    expect(await first.locator('tr.differs').filter({ hasText: 'current.level' }).locator('td').allTextContents()).toEqual(['100', '200']);
    expect(await first.locator('tr', { hasText: 'status' }).locator('td').allTextContents()).toEqual(['succeeded', 'succeeded']);
    expect(await first.textContent()).toContain('Tank north');
    await checkPage(page, 'replay-diff');

    // The list of the flow's replays shows it with its diff in short.
    await page.getByRole('link', { name: 'Replays' }).first().click();
    await page.getByTestId('replays').getByText('3 changed, 0 newly failing, 0 newly succeeding').waitFor();
    watched.expectClean();
  });

  it('copies a template into a flow, shows the newer-version notice and walks the upgrade to activation', async () => {
    const templateGraph = (multiply: number) => ({ ...scaled({ deviceTypeId: null }, multiply), deviceTypeId: null });
    const template = (await admin.post('/v1/flow-templates', { key: `tank-level-${Date.now()}`, name: 'Tank level', description: 'A uint16 level' }).expect(201)).body;
    const versions = `/v1/flow-templates/${template.flowTemplateId}/versions`;
    const v1 = (await admin.post(versions, { graph: templateGraph(1) }).expect(201)).body;
    await admin.post(`${versions}/${v1.flowTemplateVersionId}/release`).expect(200);

    // A flow running template v1, with stored uplinks for the walk's dry run.
    const type = await seedDeviceType(t, tenant);
    await seedField(t, tenant, type, { key: 'level' });
    const upgraded = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: `tank-${Date.now()}`, name: 'Tank flow' }).expect(201);
    const copied = await admin.post(`${versions}/${v1.flowTemplateVersionId}/copy`, { flowId: upgraded.body.flowId }).expect(201);
    await admin.post(`/v1/flows/${upgraded.body.flowId}/versions/${copied.body.flowVersionId}/release`).expect(200);
    await admin.post(`/v1/flows/${upgraded.body.flowId}/activate`, { flowVersionId: copied.body.flowVersionId }).set('If-Match', upgraded.headers.etag as string).expect(200);
    const tank = await seedDevice(t, tenant, type);
    for (const value of [10, 20]) {
      await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: tank.deviceId, devEui: tank.devEui, observedAt: new Date(Date.now() - value * 60_000), value });
    }
    // Template v2 is released: the flow is behind.
    const v2 = (await admin.post(versions, { graph: templateGraph(3) }).expect(201)).body;
    await admin.post(`${versions}/${v2.flowTemplateVersionId}/release`).expect(200);

    const { page } = watched;
    await page.goto(`/console/t/${tenant.tenantNumber}/flow-templates`);
    const card = page.locator(`[data-testid="template"][data-key="${template.key}"]`);
    await card.waitFor();
    expect(await card.innerText()).toMatch(/newest released v2[\s\S]*level\s+number\s+\(current, timeseries\)/);
    const notice = page.getByTestId('upgrade-notice').filter({ hasText: 'Tank flow' });
    expect(await notice.innerText()).toContain('now has version 2');
    await checkPage(page, 'flow-templates');

    // Copy into the replays test's flow (a field `level` too): a new draft that validates.
    await card.getByLabel('Copy v2 into').selectOption({ label: `Live flow (Type ${flow.type.key})` });
    await card.getByRole('button', { name: 'Copy as a draft' }).click();
    const result = card.getByTestId('copy-result');
    await result.waitFor();
    expect(await result.innerText()).toMatch(/Draft v4 created in Live flow\. It validates/);
    expect(await result.getByRole('link', { name: 'v4' }).getAttribute('href')).toBe(`/console/t/${tenant.tenantNumber}/flows/${flow.flowId}/versions/4`);

    // The walk: copy, validate, release, dry run, activate.
    await notice.getByRole('button', { name: 'Upgrade to template v2' }).click();
    await notice.getByRole('button', { name: 'Copy v2 as a new draft' }).click();
    await notice.getByRole('button', { name: 'Validate v3' }).click();
    expect(await notice.getByTestId('validation-report').innerText()).toContain('Valid: no errors.');
    await notice.getByRole('button', { name: 'Release v3' }).click();
    await notice.getByRole('button', { name: 'Start the dry run' }).click();
    await notice.getByTestId('walk-diff').waitFor({ timeout: 30_000 });
    expect(await notice.getByTestId('walk-diff').innerText()).toBe('2 compared: 0 identical, 2 changed, 0 newly failing, 0 newly succeeding.');
    await checkPage(page, 'flow-template-upgrade');
    await notice.getByRole('button', { name: 'Activate v3' }).click();
    await notice.waitFor({ state: 'detached' });
    const after = await admin.get(`/v1/flows/${upgraded.body.flowId}`).expect(200);
    expect(after.body).toMatchObject({ activeVersionNumber: 3, templateUpdate: null });

    // Platform admins manage the global templates.
    await page.goto('/console/flow-templates');
    await page.getByTestId('global-templates').getByRole('link', { name: 'Tank level' }).click();
    await page.getByRole('heading', { name: 'Tank level' }).waitFor();
    // The versions are a list of their own, loaded after the template.
    await page.getByTestId('template-version').nth(1).waitFor();
    expect(await page.getByTestId('template-version').count()).toBe(2);
    await checkPage(page, 'global-flow-template');
    watched.expectClean();
  });

  it('shows an uplink posted while the device page is open, reads at most one list per interval, and pauses while hidden', async () => {
    const token = (await admin.post(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, { name: 'NS' }).expect(201)).body.token as string;
    const post = (hex: string) =>
      t.http().post('/v1/ingestion/http').set('Authorization', `Bearer ${token}`).send({ devEui: device.devEui, payload: { encoding: 'hex', data: hex } }).expect(202);
    const { page } = watched;
    const listCalls: number[] = [];
    page.on('request', (request) => {
      if (/\/v1\/flows\/[^/]+\/executions\?/.test(request.url())) listCalls.push(Date.now());
    });
    await page.goto(`/console/t/${tenant.tenantNumber}/devices/${device.deviceId}`);
    await page.getByRole('heading', { name: 'Live uplinks' }).waitFor();
    await page.getByText('No uplink of this device ran through the flow in the last 24 hours.').waitFor();

    await post('00FA');
    const list = page.getByTestId('live-uplinks');
    await list.getByRole('listitem').first().waitFor({ timeout: 15_000 });
    const row = list.getByRole('listitem').first();
    expect(await row.innerText()).toMatch(/succeeded\s+v2/);
    await row.getByRole('button').first().click();
    const detail = row.getByTestId('live-detail');
    await detail.waitFor();
    expect(await detail.innerText()).toMatch(/hex: 00FA[\s\S]*level = 250 \(current\)[\s\S]*level = 250 \(timeseries\)/);
    await checkPage(page, 'device-live-uplinks');

    // A burst for this device: the list stays bounded and the page answers at once.
    await Promise.all(Array.from({ length: 50 }, (_, index) => post((index + 1).toString(16).padStart(4, '0'))));
    await waitUntil(async () => (await list.locator(':scope > li').count()) === 20, 20_000, 'a list of 20 uplinks');
    const clicked = Date.now();
    await page.getByRole('button', { name: 'Pause' }).click();
    await page.getByTestId('live-state').filter({ hasText: 'paused' }).waitFor();
    expect(Date.now() - clicked).toBeLessThan(1000);
    await page.getByRole('button', { name: 'Resume' }).click();

    // One list call per 2 s interval while shown.
    const since = Date.now();
    await page.waitForTimeout(4100);
    expect(listCalls.filter((at) => at >= since).length).toBeLessThanOrEqual(3);

    // Hidden: no calls at all.
    await page.evaluate(`(() => {
      Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => 'hidden' });
      Object.defineProperty(document, 'hidden', { configurable: true, get: () => true });
      document.dispatchEvent(new Event('visibilitychange'));
    })()`);
    await page.getByTestId('live-state').filter({ hasText: 'paused while hidden' }).waitFor();
    const hiddenSince = Date.now();
    await page.waitForTimeout(3000);
    expect(listCalls.filter((at) => at >= hiddenSince)).toEqual([]);
    watched.expectClean();
  });
});
