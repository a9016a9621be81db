import type { Browser } from 'playwright-core';
import { loginAdmin } from './support/auth';
import { as } from './support/http';
import { LegacySource, legacyCode, legacyDevEui } from './support/legacy-source';
import { freePort } from './support/free-port';
import { seedRawMessage } from './support/raw-messages';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TEST_ADMIN, TestApp } from './support/test-app';
import { checkPage, launchBrowser, screenshot, watchedPage, WatchedPage } from './support/browser';

jest.setTimeout(60_000);

/** Loading the console without a session asks for a refresh the browser has no cookie for: expected. */
const NO_COOKIE_YET = /^401 POST \/v1\/auth\/refresh$/;

const SYNTAX_ERROR = '// decoder\nfunction transform(msg) {\n  return msg +;\n}';
const TTN_CODEC = `function decodeUplink(input) {
  console.log('port ' + input.fPort);
  if (input.fPort === 0) throw new Error('port 0 is reserved');
  return { data: { temperature: ((input.bytes[0] << 8) | input.bytes[1]) / 100, port: input.fPort } };
}`;

/**
 * The blocks area of the console in a real Chromium against the real service: custom blocks with the compile
 * report in the editor and the codec playground (dry runs of a draft), raw messages with their exact bodies, global blocks and the
 * legacy import's dry run. One service, one browser, one signed-in page.
 */
describe('web console: blocks, raw messages and the legacy import', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: SeededTenant;
  let admin: ReturnType<typeof as>;
  let watched: WatchedPage;
  /** The page's requests not yet answered (a refetch a step's change started may still be on its way). */
  let inFlight = 0;
  const source = new LegacySource();

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({ port, env: { PUBLIC_URL: `http://127.0.0.1:${port}`, LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: 'true' } });
    await source.start();
    browser = await launchBrowser();
    tenant = await seedTenant(t, { name: 'Blocks Water' });
    admin = as(t, (await loginAdmin(t)).accessToken);
    watched = await watchedPage(browser, t.baseUrl);
    watched.allow(NO_COOKIE_YET);
    const { page } = watched;
    page.on('request', () => (inFlight += 1));
    page.on('requestfinished', () => (inFlight -= 1));
    page.on('requestfailed', () => (inFlight -= 1));
    await page.goto('/console/');
    await page.getByLabel('Username or e-mail').fill(TEST_ADMIN.username);
    await page.getByLabel('Password').fill(TEST_ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await watched?.close().catch(() => undefined);
    await browser?.close();
    await source.close();
    await t?.close();
  });

  /**
   * Navigates once the page's own requests are done: a refetch cut by the navigation would count as a failed
   * request. (The load state 'networkidle' is reached once per document: it does not wait for a single-page
   * app's later fetches.)
   */
  async function go(path: string): Promise<void> {
    const until = Date.now() + 10_000;
    while (inFlight > 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
    await watched.page.goto(path);
  }

  let blockId: string;

  it('custom blocks: the list, and a compile error shown with its line:column in the report and as a marker in the editor', async () => {
    const block = await admin.post(`/v1/tenants/${tenant.tenantNumber}/flow-blocks`, { key: 'tank-codec', name: 'Tank codec', description: 'Ultrasonic tank level' }).expect(201);
    blockId = block.body.flowBlockId;
    await admin.post(`/v1/flow-blocks/${blockId}/versions`, { sourceCode: SYNTAX_ERROR, sampleInput: { payload: [1] } }).expect(201);
    const { page } = watched;
    await go(`/console/t/${tenant.tenantNumber}/blocks`);
    await page.getByRole('heading', { name: 'Custom blocks' }).waitFor();
    await page.getByRole('link', { name: 'Tank codec' }).waitFor();
    await checkPage(page, 'blocks-list');

    await page.getByRole('link', { name: 'Tank codec' }).click();
    await page.getByRole('heading', { name: 'Tank codec' }).waitFor();
    await page.getByRole('heading', { name: /Version 1/ }).waitFor();
    await page.getByRole('button', { name: 'Compile', exact: true }).click();
    await page.getByRole('region', { name: 'Compile failed' }).waitFor();
    expect(await page.getByTestId('first-issue').textContent()).toMatch(/^3:15 syntax_error: SyntaxError/);
    await page.getByRole('button', { name: 'Go to 3:15' }).first().waitFor();
    // The editor marks the spot: an error underline on line 3 and a sign in the lint gutter.
    const marked = page.getByTestId('version-source').locator('.cm-lintRange-error');
    await marked.first().waitFor();
    expect(await marked.first().textContent()).toBe(';');
    expect(await page.getByTestId('version-source').locator('.cm-lint-marker-error').count()).toBe(1);
    await checkPage(page, 'block-compile-error');

    // Releasing it runs the same gate: 422, nothing changes, the issue stays pinned in the editor.
    watched.allow(/^422 POST \/v1\/flow-blocks\/[^/]+\/versions\/[^/]+\/release$/);
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByRole('heading', { name: 'Release refused: the compile gate failed' }).waitFor();
    await page.getByRole('region', { name: 'Release refused' }).getByRole('button', { name: 'Go to 3:15' }).click();
    await page.getByRole('heading', { name: 'Version 1 draft' }).waitFor();
    expect(await marked.count()).toBe(1);
    watched.expectClean();
  });

  it('codec playground: a TTN decodeUplink draft run, unreleased, on typed bytes and on a stored raw message (output, logs), and a throw pinned at its line:column; Release stays its own action', async () => {
    const raw = await seedRawMessage(t, { tenantId: tenant.tenantId, rawPayload: { encoding: 'hex', data: '09C4' }, connectionData: { fPort: 7 } });
    const stored = await seedRawMessage(t, { tenantId: tenant.tenantId, rawPayload: { encoding: 'hex', data: '0A28' }, connectionData: { fPort: 3 } });
    const { page } = watched;
    const editor = page.getByTestId('draft-source').locator('.cm-content');
    await editor.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(TTN_CODEC);
    // The draft's sample: bytes typed as base64 are read as bytes at once; a stored raw message fills bytes and fPort.
    await page.getByLabel(/^Bytes as/).selectOption('base64');
    await page.getByLabel('Payload bytes').fill('CcQ=');
    await page.getByLabel('fPort', { exact: true }).fill('7');
    await page.getByText('2 bytes: 09 C4').first().waitFor();
    await page.getByLabel('Payload bytes').fill('');
    await page.getByLabel('fPort', { exact: true }).fill('1');
    await page.getByLabel('Stored raw message id').fill(raw.rawIngestionMessageId);
    await page.getByRole('button', { name: 'Use its payload' }).click();
    await page.getByText(`Bytes, fPort and time taken from raw message ${raw.rawIngestionMessageId}.`).waitFor();
    expect(await page.getByLabel('Payload bytes').inputValue()).toBe('09 C4');
    expect(await page.getByLabel('fPort', { exact: true }).inputValue()).toBe('7');
    await page.getByRole('button', { name: 'Save as a new draft' }).click();
    await page.getByRole('heading', { name: 'Version 2 draft' }).waitFor();
    expect(await page.getByTestId('version-source').locator('.cm-content').textContent()).toContain('function decodeUplink(input)');

    // The playground runs the draft itself: bytes typed as base64 and an fPort.
    const playground = page.getByRole('form', { name: 'Codec playground' });
    await playground.getByLabel('Uplink bytes as').selectOption('base64');
    await playground.getByLabel('Uplink bytes', { exact: true }).fill('CcQ=');
    await playground.getByLabel('Uplink fPort').fill('7');
    await playground.getByRole('button', { name: 'Run', exact: true }).click();
    const succeeded = playground.getByRole('region', { name: 'Run succeeded' });
    await succeeded.waitFor();
    expect(JSON.parse((await succeeded.getByTestId('playground-output').textContent())!)).toEqual({ payload: { temperature: 25, port: 7 } });
    expect(await succeeded.getByLabel('Logs of the playground run').textContent()).toBe('port 7');

    // A stored raw message of the tenant: its payload and fPort.
    await playground.getByLabel('A stored raw message').check();
    await playground.getByLabel('Raw message id to run on').fill(stored.rawIngestionMessageId);
    await playground.getByRole('button', { name: 'Run', exact: true }).click();
    await succeeded.getByText('port 3').waitFor();
    expect(JSON.parse((await succeeded.getByTestId('playground-output').textContent())!)).toEqual({ payload: { temperature: 26, port: 3 } });

    // A throw: the error with its line:column, marked in the editor; the logs up to the throw.
    await playground.getByLabel('Bytes and fPort').check();
    await playground.getByLabel('Uplink fPort').fill('0');
    await playground.getByRole('button', { name: 'Run', exact: true }).click();
    const failed = playground.getByRole('region', { name: 'Run failed' });
    await failed.waitFor();
    expect(await failed.getByTestId('playground-error').textContent()).toMatch(/^runtime_error 3:\d+ .*port 0 is reserved/);
    expect(await failed.getByLabel('Logs of the playground run').textContent()).toBe('port 0');
    await failed.getByRole('button', { name: /^Go to 3:\d+$/ }).click();
    await page.getByTestId('version-source').locator('.cm-lintRange-error').first().waitFor();
    expect(await page.getByTestId('version-source').locator('.cm-lint-marker-error').count()).toBe(1);
    // Nothing was released or stored by the runs.
    await page.getByRole('heading', { name: 'Version 2 draft' }).waitFor();
    const [row] = await t.dataSource.query<{ status: string; gate_report: unknown }[]>(
      `SELECT status, gate_report FROM flow_block_versions WHERE flow_block_id = $1 AND version_number = 2`,
      [blockId],
    );
    expect(row).toEqual({ status: 'draft', gate_report: null });
    await checkPage(page, 'block-playground');

    // Release is its own action: the gate runs the draft's stored sample.
    await page.getByRole('button', { name: 'Release', exact: true }).click();
    await page.getByRole('region', { name: 'Release gate report' }).waitFor();
    const output = JSON.parse((await page.getByTestId('sample-output').textContent())!) as { payload: unknown };
    expect(output).toEqual({ payload: { temperature: 25, port: 7 } });
    expect(await page.getByRole('region', { name: 'Release gate report' }).getByLabel('Logs of the sample run').textContent()).toContain('port 7');
    await page.getByRole('heading', { name: /Version 2 released/ }).waitFor();
    expect(await page.getByRole('cell', { name: 'decodeUplink' }).count()).toBe(1);

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Deprecate' }).click();
    await page.getByRole('heading', { name: 'Version 2 deprecated' }).waitFor();
    watched.expectClean();
  });

  it('raw messages: the list, an exact JSON body pretty-printed and a binary body as hex', async () => {
    const json = await seedRawMessage(t, { tenantId: tenant.tenantId, rawPayload: { encoding: 'base64', data: 'AQID' } });
    const body = '{"deviceInfo":{"devEui":"AABBCCDDEEFF0011"},"fPort":2,"data":"AQID"}';
    await t.dataSource.query(`UPDATE raw_ingestion_messages SET body = convert_to($2, 'UTF8'), size_bytes = $3 WHERE raw_ingestion_message_id = $1`, [
      json.rawIngestionMessageId,
      body,
      Buffer.byteLength(body),
    ]);
    const binary = await seedRawMessage(t, { tenantId: tenant.tenantId });
    await t.dataSource.query(`UPDATE raw_ingestion_messages SET body = '\\xff00c3287b'::bytea, content_type = 'application/octet-stream', size_bytes = 5 WHERE raw_ingestion_message_id = $1`, [
      binary.rawIngestionMessageId,
    ]);
    const { page } = watched;
    await go(`/console/t/${tenant.tenantNumber}/raw-messages`);
    await page.getByRole('heading', { name: 'Raw messages' }).waitFor();
    await page.locator(`a[href*="${json.rawIngestionMessageId}"]`).waitFor();
    await checkPage(page, 'raw-messages');
    // Filters: nothing of this tenant was processed; a DevEUI given in the URL opens the list filtered.
    await page.getByLabel('Processing status').selectOption('processed');
    await page.getByRole('button', { name: 'Apply filters' }).click();
    await page.getByText('No raw messages match.').waitFor();
    await go(`/console/t/${tenant.tenantNumber}/raw-messages?devEui=AABBCCDDEEFF0011`);
    expect(await page.getByLabel('DevEUI').inputValue()).toBe('AABBCCDDEEFF0011');
    await page.locator(`a[href*="${json.rawIngestionMessageId}"]`).waitFor();

    await page.locator(`a[href*="${json.rawIngestionMessageId}"]`).click();
    await page.getByRole('heading', { name: 'Raw message', exact: true }).waitFor();
    expect(await page.getByTestId('raw-body-json').textContent()).toBe(JSON.stringify(JSON.parse(body), null, 2));
    expect(await page.getByTestId('raw-body-exact').textContent()).toBe(body);
    expect(await page.getByTestId('raw-payload-hex').textContent()).toBe(`00000000  ${'01 02 03'.padEnd(47)}  ...`);
    await checkPage(page, 'raw-message-json');

    await go(`/console/t/${tenant.tenantNumber}/raw-messages/${binary.rawIngestionMessageId}?receivedAt=${encodeURIComponent(binary.receivedAt)}`);
    await page.getByTestId('raw-body-hex').waitFor();
    expect(await page.getByTestId('raw-body-hex').textContent()).toBe(`00000000  ${'FF 00 C3 28 7B'.padEnd(47)}  ...({`);
    // The same page as above (axe and widths checked there): a screenshot of the binary case.
    await screenshot(page, 'raw-message-binary');
    watched.expectClean();
  });

  it('global blocks: the platform list and a block created from it', async () => {
    const { page } = watched;
    await go('/console/blocks');
    await page.getByRole('heading', { name: 'Global blocks' }).waitFor();
    await page.getByText('Create a block').click();
    await page.getByLabel('Block key').fill('shared-codec');
    await page.getByLabel('Block name').fill('Shared codec');
    await checkPage(page, 'global-blocks');
    await page.getByRole('button', { name: 'Create the block' }).click();
    await page.getByRole('heading', { name: 'Shared codec' }).waitFor();
    await page.getByText('global (every tenant)').waitFor();
    await page.getByRole('heading', { name: 'New draft', exact: true }).waitFor();
    // The tenant block page's component (checked above), at the top level.
    await screenshot(page, 'global-block');
    watched.expectClean();
  });

  it('legacy import: a dry run with its counts and issue list, then the import', async () => {
    const typeId = 'lt-1';
    source.tenants = [
      {
        id: 'legacy-a',
        name: 'Legacy A',
        deviceTypes: [{ id: typeId, code: legacyCode('Meter'), name: 'Water meter' }],
        devices: [
          { id: 'ld-1', devEui: legacyDevEui(), name: 'Meter 1', deviceTypeId: typeId },
          { id: 'ld-2', devEui: 'not-a-dev-eui', name: 'Meter 2', deviceTypeId: typeId },
        ],
      },
    ];
    const target = await seedTenant(t, { name: 'Import Target' });
    const { page } = watched;
    await go('/console/imports');
    await page.getByRole('heading', { name: 'Legacy import' }).waitFor();
    await page.locator(`select:has(option[value="${target.tenantNumber}"])`).first().waitFor();
    await page.getByLabel('Target tenant').selectOption(String(target.tenantNumber));
    await page.getByLabel('Legacy API address').fill(source.url);
    await page.getByLabel('Legacy username').fill(source.username);
    await page.getByLabel('Legacy password').fill(source.password);
    await page.getByRole('button', { name: 'Dry run' }).click();
    await page.getByRole('heading', { name: 'Dry run result: nothing stored' }).waitFor();
    const devices = page.getByRole('row', { name: /^Devices/ });
    expect(await devices.getByRole('cell').allTextContents()).toEqual(['1', '0', '1']);
    await page.getByRole('cell', { name: 'ld-2' }).waitFor();
    await page.getByRole('cell', { name: /^invalid_dev_eui/ }).waitFor();
    expect(Number((await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM devices WHERE tenant_id = $1`, [target.tenantId]))[0]!.n)).toBe(0);
    await checkPage(page, 'import-dry-run');

    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByRole('heading', { name: 'Import done' }).waitFor();
    expect(Number((await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM devices WHERE tenant_id = $1`, [target.tenantId]))[0]!.n)).toBe(1);
    expect(await page.getByLabel('Legacy password').inputValue()).toBe('');
    watched.expectClean();
  });
});
