import { randomUUID } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { loginAdmin } from './support/auth';
import { seedDevice } from './support/devices';
import { seedExecution, seedRawMessage } from './support/executions';
import { freePort } from './support/free-port';
import { as } from './support/http';
import { seedLiveFlow, type LiveFlow } from './support/processing';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TEST_ADMIN, TestApp } from './support/test-app';
import { checkPage, launchBrowser, watchedPage, WatchedPage } from './support/browser';

jest.setTimeout(90_000);

/** Loading the console without a session asks for a refresh the browser has no cookie for: expected. */
const NO_COOKIE_YET = /^401 POST \/v1\/auth\/refresh$/;

/**
 * The flow studio in a real Chromium against the real service: a live flow (decode -> scale -> outputs, version 2
 * active) edited into new drafts, validated, released, tested with fixtures and a preview, activated; an execution
 * with its trace on the graph.
 */
describe('console flow studio in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: SeededTenant;
  let live: LiveFlow;
  let watched: WatchedPage;
  let page: Page;
  let failedExecutionId: string;

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}` } });
    browser = await launchBrowser();
    tenant = await seedTenant(t, { name: 'Acme Water' });
    const api = as(t, (await loginAdmin(t)).accessToken);
    live = await seedLiveFlow(t, api, tenant);
    await api
      .post(`/v1/flows/${live.flowId}/fixtures`, {
        name: 'Reading 100',
        input: {
          mode: 'fixture',
          rawPayload: { encoding: 'hex', data: '0064' },
          observedAt: '2026-03-14T09:15:00.000Z',
          rawReceivedAt: '2026-03-14T09:15:01.000Z',
          tenantId: tenant.tenantId,
          deviceId: randomUUID(),
          deviceTypeId: live.type.deviceTypeId,
          correlationId: 'fixture-reading-100',
          connectionData: { fPort: 2 },
          parameters: {},
        },
        assertions: [
          { path: 'status', expected: 'succeeded' },
          { path: 'timeseries.level', expected: 10 },
        ],
      })
      .expect(201);
    const device = await seedDevice(t, tenant, live.type);
    const execution = { tenantId: tenant.tenantId, flowId: live.flowId, flowVersionId: live.versionId, versionNumber: 2, deviceId: device.deviceId };
    await seedExecution(t, { ...execution, startedAt: new Date(Date.now() - 120_000), current: { level: 10 }, timeseries: { level: 10 } });
    const raw = await seedRawMessage(t, { tenantId: tenant.tenantId, deviceId: device.deviceId, devEui: device.devEui, observedAt: new Date(Date.now() - 61_000), value: 300 });
    failedExecutionId = await seedExecution(t, {
      ...execution,
      raw,
      startedAt: new Date(Date.now() - 60_000),
      status: 'failed',
      error: { nodeId: 'scale', code: 'type_mismatch', message: 'level is not a number.' },
      trace: [
        { n: 'decode', s: 'succeeded', p: 'out', t: 0, d: 0.1 },
        { n: 'scale', s: 'failed', t: 0.1, d: 0.05, e: { code: 'type_mismatch', message: 'level is not a number.' } },
        { n: 'current', s: 'skipped', t: 0.2, d: 0 },
        { n: 'history', s: 'skipped', t: 0.2, d: 0 },
      ],
    });

    watched = await watchedPage(browser, t.baseUrl);
    watched.allow(NO_COOKIE_YET);
    page = watched.page;
    await page.goto('/console/');
    await page.getByLabel('Username or e-mail').fill(TEST_ADMIN.username);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().waitFor();
  }, 180_000);

  afterAll(async () => {
    await watched?.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  const node = (nodeId: string) => page.locator(`.react-flow__node[data-id="${nodeId}"]`);
  /** Until every row of the list's table shows `status` (a list kept on screen while its next one loads is not it). */
  const onlyRowsWith = async (status: string) => {
    const deadline = Date.now() + 15_000;
    for (;;) {
      const rows = await page.locator('tbody tr').allTextContents();
      if (rows.length > 0 && rows.every((row) => row.includes(status))) return;
      if (Date.now() > deadline) throw new Error(`rows never all ${status}: ${rows.join(' | ')}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const region = (name: string) => page.getByRole('region', { name, exact: true });
  /** React Flow draws edges once their nodes are measured, after the nodes appear: wait for the count, then check it. */
  const edgesDrawn = async (count: number) => {
    await page.locator('.react-flow__edge').nth(count - 1).waitFor();
    expect(await page.locator('.react-flow__edge').count()).toBe(count);
  };

  it('shows the flow with its versions from the device type page, and a version graph', async () => {
    // In-app navigation: a page load would cancel what the console still loads after sign-in.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Device types' }).click();
    await page.getByRole('link', { name: `Type ${live.type.key}` }).click();
    await page.getByRole('link', { name: 'Flow studio' }).click();
    await page.getByRole('heading', { name: 'Flow studio: Live flow' }).waitFor();
    const active = page.getByRole('row', { name: /Version 2 active/ });
    await active.getByText('released').waitFor();
    expect(await active.locator('code').textContent()).toMatch(/^[0-9a-f]{12}…$/);
    expect(await page.getByRole('row', { name: /Version 1/ }).getByText('draft').count()).toBe(1);
    await page.getByText('Reading 100').first().waitFor();
    await checkPage(page, 'studio-flow');

    await page.getByRole('table').getByRole('link', { name: 'Version 2', exact: true }).click();
    await page.getByRole('heading', { name: /Live flow: version 2/ }).waitFor();
    for (const id of ['decode', 'scale', 'current', 'history']) await node(id).waitFor();
    await edgesDrawn(3);
    await checkPage(page, 'studio-version');
    watched.expectClean();
  });

  it('edits a version into a draft (node from the catalog, connected, configured with a parameter), pins the validate and release errors to the node', async () => {
    await page.getByRole('button', { name: 'Edit into a new draft' }).click();
    await page.getByRole('heading', { name: 'New draft from version 2' }).waitFor();
    await region('Block catalog').getByRole('button', { name: 'Add Scale' }).click();
    await node('scale-2').waitFor();
    const inspector = region('Node');
    expect(await inspector.getByLabel('Node to configure').inputValue()).toBe('scale-2');
    await inspector.getByLabel('fieldKey (required)').fill('level');
    // Nothing pins the scale node's field key yet: the form says so before the server does.
    await region('Parameters').getByRole('button', { name: 'Add a parameter' }).click();
    await region('Parameters').getByLabel('Parameter key').fill('factor');
    await region('Parameters').getByLabel('Parameter type').selectOption('string');
    await inspector.getByLabel('Source of multiply').selectOption('factor');
    await inspector.getByText('multiply: from parameter').waitFor();

    const edges = region('Edges');
    await edges.getByLabel('From node').selectOption('scale');
    await edges.getByLabel('To node').selectOption('scale-2');
    await edges.getByRole('button', { name: 'Connect' }).click();
    await edges.getByLabel('From node').selectOption('scale-2');
    expect(await edges.getByLabel('From port').inputValue()).toBe('out');
    await edges.getByLabel('To node').selectOption('current');
    await edges.getByRole('button', { name: 'Connect' }).click();
    await edgesDrawn(5);
    await checkPage(page, 'studio-editor');

    await page.getByRole('button', { name: 'Save as a new draft' }).click();
    await page.getByRole('heading', { name: /Live flow: version 3/ }).waitFor();
    expect(page.url()).toMatch(/\/versions\/3$/);
    await node('scale-2').waitFor();

    await page.getByRole('button', { name: 'Validate' }).click();
    await node('scale-2').getByTestId('issues-scale-2').getByText('parameter_type_mismatch').waitFor();
    expect(await node('scale').locator('.fg-issues').count()).toBe(0);

    watched.allow(/^422 POST \/v1\/flows\/[0-9a-f-]+\/versions\/[0-9a-f-]+\/release$/);
    await page.getByRole('button', { name: 'Release version 3' }).click();
    await page.getByText('Refused: the version does not compile.').waitFor();
    await node('scale-2').getByText('parameter_type_mismatch').waitFor();
    await checkPage(page, 'studio-validate');
    watched.expectClean();
  });

  it('fixes the draft, releases it, runs the fixtures, previews with the trace, and activates it', async () => {
    await page.getByRole('button', { name: 'Edit into a new draft' }).click();
    await region('Parameters').getByLabel('Parameter type').selectOption('number');
    await region('Parameters').getByLabel('Default value').fill('2');
    await page.getByRole('button', { name: 'Save as a new draft' }).click();
    await page.getByRole('heading', { name: /Live flow: version 4/ }).waitFor();

    await page.getByRole('button', { name: 'Validate' }).click();
    await page.getByText(/^Valid[.,]/).waitFor();
    expect(await page.locator('.fg-issues .error').count()).toBe(0);
    await page.getByRole('button', { name: 'Release version 4' }).click();
    await page.getByText('Released. Activate it when its fixtures pass.').waitFor();
    await page.getByRole('heading', { name: /Live flow: version 4 released/ }).waitFor();

    await page.getByRole('button', { name: 'Run fixtures' }).click();
    const run = page.getByRole('region', { name: 'Fixture run result' });
    await run.getByText('1 of 1 fixtures passed.').waitFor();
    expect(await run.getByRole('cell', { name: 'pass', exact: true }).count()).toBe(2);

    await page.getByLabel('Preview payload').fill('0064');
    await page.getByRole('button', { name: 'Run the preview' }).click();
    await page.getByRole('heading', { name: 'Preview result' }).waitFor();
    expect(await page.getByTestId('trace-scale-2').textContent()).toMatch(/^succeeded · port out · /);
    const trace = page.getByRole('list', { name: 'Trace, node by node' });
    expect(await trace.getByRole('listitem').count()).toBe(5);
    expect(await page.locator('.outcome pre').first().textContent()).toContain('"level": 20');
    await checkPage(page, 'studio-preview');

    await page.getByRole('button', { name: 'Activate version 4' }).click();
    await page.getByRole('heading', { name: /Live flow: version 4 released active/ }).waitFor();
    const flow = await t.dataSource.query<{ n: number }[]>(`SELECT v.version_number AS n FROM flows f JOIN flow_versions v ON v.flow_version_id = f.active_version_id WHERE f.flow_id = $1`, [
      live.flowId,
    ]);
    expect(flow[0]!.n).toBe(4);
    watched.expectClean();
  });

  it("lists the flow's executions newest first, draws an execution's trace on the graph, and makes a fixture of its stored uplink", async () => {
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Executions' }).click();
    await page.getByRole('heading', { name: 'Executions' }).waitFor();
    await page.getByLabel(/^Flow/).selectOption(live.flowId);
    const rows = page.locator('tbody tr');
    await rows.nth(1).waitFor();
    expect(await rows.count()).toBe(2);
    expect(await rows.nth(0).getByText('failed').count()).toBe(1);
    await checkPage(page, 'studio-executions');

    await page.getByLabel(/^Status/).selectOption('succeeded');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/status=succeeded/);
    // The unfiltered list stays on screen until the filtered one arrives (it has a succeeded row too): wait for the
    // list to be the filtered one.
    await onlyRowsWith('succeeded');
    expect(await page.locator('tbody tr').count()).toBe(1);

    await page.getByLabel(/^Status/).selectOption('failed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.waitForURL(/status=failed/);
    await onlyRowsWith('failed');
    await page.locator('tbody tr').getByRole('link').first().click();
    await page.waitForURL(`**/executions/${failedExecutionId}?flowId=${live.flowId}`);
    await page.getByRole('heading', { name: /Execution of Live flow/ }).waitFor();
    await node('scale').waitFor();
    expect(await page.getByTestId('trace-scale').textContent()).toContain('failed');
    expect(await page.getByTestId('trace-scale').textContent()).toContain('type_mismatch');
    expect(await page.getByTestId('trace-decode').textContent()).toMatch(/^succeeded · port out/);
    expect(await page.getByRole('list', { name: 'Trace, node by node' }).getByRole('listitem').count()).toBe(4);
    await checkPage(page, 'studio-execution');

    // The execution's stored uplink becomes a fixture (the raw message is kept while the fixture exists), is
    // renamed (If-Match), and runs with the other fixture.
    await page.getByRole('link', { name: 'Make a fixture of it' }).click();
    const form = page.getByRole('form', { name: 'New fixture' });
    expect(await form.getByLabel('Raw message id').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
    await form.getByLabel('Fixture name').fill('Stored uplink');
    await form.getByLabel(/Keep this raw message/).check();
    await form.getByRole('button', { name: 'Create the fixture' }).click();
    await page.getByRole('heading', { name: 'Stored uplink' }).waitFor();
    await page.getByText('(kept past retention)').waitFor();
    await page.getByRole('button', { name: 'Edit Stored uplink' }).click();
    const edit = page.getByRole('form', { name: 'Edit the fixture Stored uplink' });
    await edit.getByLabel('Fixture name').fill('Stored uplink 300');
    await edit.getByLabel(/Keep this raw message/).check();
    await edit.getByRole('button', { name: 'Save the fixture' }).click();
    await page.getByRole('heading', { name: 'Stored uplink 300' }).waitFor();
    await page.getByRole('button', { name: 'Run fixtures' }).click();
    await page.getByText('2 of 2 fixtures passed.').waitFor();
    await checkPage(page, 'studio-fixtures');
    watched.expectClean();
  });
});
