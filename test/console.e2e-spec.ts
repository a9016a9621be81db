import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import type { Browser } from 'playwright-core';
import { loginAdmin, seedUser } from './support/auth';
import { randomDevEui, seedDevice, seedDeviceType, seedField } from './support/devices';
import { freePort } from './support/free-port';
import { seedGrant, seedTenant, seedUnit, SeededTenant } from './support/tenancy';
import { startTestApp, TEST_ADMIN, TestApp } from './support/test-app';
import { checkPage, launchBrowser, screenshot, watchedPage, WatchedPage } from './support/browser';

const run = promisify(execFile);

jest.setTimeout(60_000);

/** Loading the console without a session asks for a refresh the browser has no cookie for: expected. */
const NO_COOKIE_YET = /^401 POST \/v1\/auth\/refresh$/;

/**
 * The web console in a real Chromium against the real service: one browser, one service (access tokens of 60 s,
 * so one session lives across an expiry while the other checks run), several checks per page load.
 */
describe('web console in a browser', () => {
  let t: TestApp;
  let browser: Browser;
  let tenant: SeededTenant;
  const pages: WatchedPage[] = [];

  beforeAll(async () => {
    const port = await freePort();
    t = await startTestApp({
      port,
      env: { PUBLIC_URL: `http://127.0.0.1:${port}`, ACCESS_TOKEN_TTL_SECONDS: '60', LOGIN_MAX_FAILURES: '3' },
    });
    browser = await launchBrowser();
    tenant = await seedTenant(t, { name: 'Acme Water' });
  }, 120_000);

  afterAll(async () => {
    for (const page of pages) await page.close().catch(() => undefined);
    await browser?.close();
    await t?.close();
  });

  async function open(viewport?: { width: number; height: number }): Promise<WatchedPage> {
    const watched = await watchedPage(browser, t.baseUrl, viewport);
    watched.allow(NO_COOKIE_YET);
    pages.push(watched);
    return watched;
  }

  async function signIn(watched: WatchedPage, identifier: string, password: string): Promise<void> {
    const { page } = watched;
    await page.goto('/console/');
    await page.getByLabel('Username or e-mail').fill(identifier);
    await page.getByLabel('Password').fill(password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().waitFor();
  }

  // Signed in first and checked last: its access token expires in between.
  let longLived: WatchedPage;
  let longLivedSince = 0;
  let scheduledRefreshes = 0;

  it('signs in and keeps the session across an access-token expiry (part 1: sign in, the scheduled refresh is cut)', async () => {
    longLived = await open();
    let signedIn = false;
    await longLived.page.route('**/v1/auth/refresh', async (route) => {
      // The refresh the console schedules shortly before expiry is cut, so the token really expires and the
      // next call takes the other path: a 401, a refresh, the same call again.
      if (signedIn && scheduledRefreshes === 0) {
        scheduledRefreshes += 1;
        return route.abort();
      }
      return route.continue();
    });
    longLived.allow(/^request failed: POST \/v1\/auth\/refresh/);
    await signIn(longLived, TEST_ADMIN.username, TEST_ADMIN.password);
    signedIn = true;
    longLivedSince = Date.now();
    await longLived.page.getByRole('heading', { name: 'Devices' }).waitFor();
    // The access token lives in memory only: no storage, no URL, no script-readable cookie.
    expect(await longLived.page.evaluate('JSON.stringify([Object.keys(localStorage), Object.keys(sessionStorage), document.cookie])')).toBe('[[],[],""]');
    expect(longLived.page.url()).not.toMatch(/token|eyJ/i);
  });

  it('sign-in: one generic failure message, the 429 countdown, and the forced password change', async () => {
    const watched = await open();
    const { page } = watched;
    await page.goto('/console/');
    await page.getByRole('heading', { name: 'Sign in to Uplink' }).waitFor();
    await checkPage(page, 'sign-in');

    watched.allow(/^401 POST \/v1\/auth\/login$/);
    await page.getByLabel('Username or e-mail').fill('nobody-here');
    await page.getByLabel('Password').fill('wrong-password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('Sign-in failed: check the identifier and password.').waitFor();
    const correlation = await page.locator('.error code').textContent();
    expect(correlation).toMatch(/^[0-9a-f-]{36}$/);

    const locked = await seedUser(t);
    watched.allow(/^429 POST \/v1\/auth\/login$/);
    for (let attempt = 0; attempt < 4; attempt++) {
      await page.getByLabel('Username or e-mail').fill(locked.username);
      await page.getByLabel('Password').fill('not-the-password');
      await Promise.all([page.waitForResponse((response) => response.url().endsWith('/v1/auth/login')), page.getByRole('button', { name: /Sign in/ }).click()]);
    }
    const countdown = Number(await page.getByTestId('retry-countdown').textContent());
    expect(countdown).toBeGreaterThan(60);
    expect(await page.getByRole('button', { name: 'Sign in' }).isDisabled()).toBe(true);

    const forced = await seedUser(t, { passwordChangeRequired: true });
    await seedGrant(t, forced.userId, tenant, 'tenant_viewer');
    await page.reload();
    await page.getByLabel('Username or e-mail').fill(forced.username);
    await page.getByLabel('Password').fill(forced.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Choose a new password' }).waitFor();
    await checkPage(page, 'forced-password-change');
    await page.getByLabel('Current password').fill(forced.password);
    await page.getByLabel('New password (at least 12 characters)').fill('a-brand-new-password-1');
    await page.getByLabel('New password again').fill('a-brand-new-password-1');
    await page.getByRole('button', { name: 'Change password' }).click();
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    watched.expectClean();
  });

  it('first uplink: the guide creates a device type with fields, a device and a credential; its curl makes values and a chart point appear', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(watched, TEST_ADMIN.username, TEST_ADMIN.password);
    await page.getByText('No devices yet.').waitFor();
    await page.getByRole('link', { name: 'Send a first uplink step by step' }).click();
    await page.getByRole('heading', { name: 'Send a first uplink' }).waitFor();
    await checkPage(page, 'guide');
    await page.getByRole('button', { name: 'Create the device type', exact: true }).click();
    await page.getByRole('button', { name: 'Create the device', exact: true }).click();
    await page.getByRole('button', { name: 'Create the credential', exact: true }).click();
    const curl = (await page.getByTestId('guide-curl').textContent())!;
    expect(curl).toContain(`'${t.baseUrl}/v1/ingestion/http'`);
    const token = /Bearer (uit_[A-Za-z0-9_-]{43})/.exec(curl)?.[1];
    expect(token).toBeDefined();
    await checkPage(page, 'guide-curl');

    // Exactly what a person would paste into a terminal.
    const { stdout } = await run('sh', ['-c', `${curl} -s -w ' %{http_code}'`]);
    expect(stdout).toMatch(/"duplicate":false.* 202$/);

    await page.getByRole('link', { name: 'the device page' }).click();
    await page.locator('td[data-field="temperature"]', { hasText: '21.5' }).waitFor({ timeout: 20_000 });
    await page.locator('td[data-field="humidity"]', { hasText: '22.5' }).waitFor();
    await page.getByTestId('chart-points').filter({ hasText: '1 points' }).waitFor({ timeout: 20_000 });
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await page.getByTestId('last-seen').filter({ hasText: 's ago' }).waitFor();
    await checkPage(page, 'device');

    // A reload keeps the session (through the refresh cookie) and the page; the token shown once is gone for good.
    // Reloading cancels the page's polls in flight.
    watched.allow(/^request failed: GET \/v1\/\S+ net::ERR_ABORTED$/);
    await page.reload();
    await page.locator('td[data-field="temperature"]', { hasText: '21.5' }).waitFor();
    await page.goto(`/console/t/${tenant.tenantNumber}/guide`);
    await page.getByRole('button', { name: 'Create the device type' }).waitFor();
    expect(await page.content()).not.toContain(token!);
    watched.expectClean();
  });

  it('a viewer is offered no write action; the tenant switcher lists platform admins every tenant and others their own', async () => {
    await seedTenant(t, { name: 'Other Tenant' });
    const viewer = await seedUser(t);
    await seedGrant(t, viewer.userId, tenant, 'tenant_viewer');
    const watched = await open();
    const { page } = watched;
    await signIn(watched, viewer.username, viewer.password);
    await page.getByRole('link', { name: 'My first device' }).waitFor();
    await checkPage(page, 'devices-viewer');
    expect(await page.getByText('Create a device').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'First uplink' }).count()).toBe(0);
    expect(await page.getByLabel('Tenant').locator('option').allTextContents()).toEqual([`Acme Water (#${tenant.tenantNumber})`]);
    await page.getByRole('link', { name: 'My first device' }).click();
    await page.getByRole('heading', { name: 'Current values' }).waitFor();
    for (const name of ['Disable', 'Retire', 'Assign', 'Move', 'End']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    watched.expectClean();

    const admin = await open();
    await signIn(admin, TEST_ADMIN.username, TEST_ADMIN.password);
    await admin.page.getByRole('link', { name: 'My first device' }).waitFor();
    expect(await admin.page.getByLabel('Tenant').locator('option').allTextContents()).toEqual(['Acme Water (#1)', 'Other Tenant (#2)']);
    await admin.page.getByLabel('Tenant').selectOption('2');
    await admin.page.getByText('No devices yet.').waitFor();
    expect(admin.page.url()).toMatch(/\/console\/t\/2\/devices$/);
    admin.expectClean();
  });

  it('a unit-scoped operator sees only the devices of its subtree', async () => {
    const type = await seedDeviceType(t, tenant);
    const north = await seedUnit(t, tenant, null, { name: 'North' });
    const harbour = await seedUnit(t, tenant, north, { name: 'Harbour' });
    const south = await seedUnit(t, tenant, null, { name: 'South' });
    await seedDevice(t, tenant, type, harbour, { name: 'Harbour meter', devEui: randomDevEui() });
    await seedDevice(t, tenant, type, south, { name: 'South meter', devEui: randomDevEui() });
    const operator = await seedUser(t);
    await seedGrant(t, operator.userId, tenant, 'tenant_operator', north);
    const watched = await open();
    await signIn(watched, operator.username, operator.password);
    await watched.page.getByRole('link', { name: 'Harbour meter' }).waitFor();
    expect(await watched.page.locator('tbody tr').count()).toBe(1);
    expect(await watched.page.getByText('South meter').count()).toBe(0);
    expect(await watched.page.getByText('My first device').count()).toBe(0);
    watched.expectClean();
  });

  it('device types: a change made from a stale page (If-Match) is shown as made by someone else, with a reload', async () => {
    const first = await open();
    const second = await open();
    for (const watched of [first, second]) {
      await signIn(watched, TEST_ADMIN.username, TEST_ADMIN.password);
      await watched.page.getByRole('link', { name: 'Device types' }).click();
      await watched.page.getByRole('link', { name: 'First sensor' }).click();
      await watched.page.getByRole('heading', { name: 'Fields' }).waitFor();
    }
    await checkPage(first.page, 'device-type');
    const form = (watched: WatchedPage) => watched.page.getByRole('form', { name: 'Edit the device type' });
    await form(first).getByLabel('Name').fill('Sensor renamed in the first browser');
    await form(first).getByRole('button', { name: 'Save' }).click();
    await first.page.getByText('Saved.').waitFor();

    second.allow(/^409 PATCH \/v1\/device-types\//);
    await form(second).getByLabel('Name').fill('Sensor renamed in the second browser');
    await form(second).getByRole('button', { name: 'Save' }).click();
    await second.page.getByText('This device type was changed by someone else since you opened it.').waitFor();
    await screenshot(second.page, 'device-type-conflict');
    await second.page.getByRole('button', { name: 'Reload' }).click();
    await second.page.getByRole('heading', { name: 'Sensor renamed in the first browser' }).waitFor();
    expect(await form(second).getByLabel('Name').inputValue()).toBe('Sensor renamed in the first browser');
    await form(second).getByLabel('Name').fill('Sensor renamed in the second browser');
    await form(second).getByRole('button', { name: 'Save' }).click();
    await second.page.getByRole('heading', { name: 'Sensor renamed in the second browser' }).waitFor();

    // A field: edit and deprecate, each with its own version.
    second.page.on('dialog', (dialog) => void dialog.accept());
    await second.page.getByRole('button', { name: 'Edit humidity' }).click();
    await second.page.getByLabel('Unit of humidity').fill('%RH');
    await second.page.getByRole('button', { name: 'Save humidity' }).click();
    await second.page.getByRole('cell', { name: '%RH' }).waitFor();
    await first.page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Device types' }).click();
    await first.page.getByRole('link', { name: 'Sensor renamed in the second browser' }).waitFor();
    await checkPage(first.page, 'device-types');
    first.expectClean();
    second.expectClean();
  });

  it('ingestion credentials: the token is shown once, then only its prefix; revoking is offered', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(watched, TEST_ADMIN.username, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Ingestion credentials' }).click();
    await page.getByRole('cell', { name: 'First uplink', exact: true }).waitFor();
    await page.getByLabel('Credential name').fill('Rooftop gateway');
    await page.getByRole('button', { name: 'Create a credential' }).click();
    const token = (await page.getByTestId('new-token').locator('pre').textContent())!;
    expect(token).toMatch(/^uit_[A-Za-z0-9_-]{43}$/);
    await checkPage(page, 'credentials');
    await page.getByRole('button', { name: 'I have copied it' }).click();
    expect(await page.content()).not.toContain(token);
    await page.reload();
    await page.getByRole('cell', { name: 'Rooftop gateway', exact: true }).waitFor();
    expect(await page.content()).not.toContain(token);
    expect(await page.getByText(`${token.slice(0, 12)}…`).count()).toBe(1);
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Revoke Rooftop gateway' }).click();
    await page.getByRole('row', { name: /Rooftop gateway.*revoked/ }).waitFor();
    watched.expectClean();
  });

  it('organization units load level by level, ancestors outside the scope greyed; the audit logs list what happened', async () => {
    const admin = await open();
    await signIn(admin, TEST_ADMIN.username, TEST_ADMIN.password);
    await admin.page.getByRole('link', { name: 'Organization units' }).click();
    await admin.page.getByText('North', { exact: true }).waitFor();
    expect(await admin.page.getByText('Harbour', { exact: true }).count()).toBe(0);
    await admin.page.getByRole('button', { name: 'Open North' }).click();
    await admin.page.getByText('Harbour', { exact: true }).waitFor();
    await checkPage(admin.page, 'units');
    await admin.page.getByRole('link', { name: 'Audit log', exact: true }).click();
    await admin.page.getByText('device_type.updated').first().waitFor();
    await checkPage(admin.page, 'audit');
    await admin.page.getByRole('link', { name: 'Platform audit log' }).click();
    await admin.page.getByRole('heading', { name: 'Audit log of the whole platform' }).waitFor();
    await admin.page.locator('tbody tr').first().waitFor();
    await checkPage(admin.page, 'audit-platform');
    admin.expectClean();

    const [harbour] = await t.dataSource.query<{ organization_unit_id: string }[]>(`SELECT organization_unit_id FROM organization_units WHERE name = 'Harbour'`);
    const local = await seedUser(t);
    await seedGrant(t, local.userId, tenant, 'tenant_viewer', { organizationUnitId: harbour!.organization_unit_id, ancestorIds: [], key: 'harbour' });
    const scoped = await open();
    await signIn(scoped, local.username, local.password);
    await scoped.page.getByRole('link', { name: 'Organization units' }).click();
    await scoped.page.getByText('(outside your access, shown to navigate)').waitFor();
    expect(await scoped.page.getByText('South', { exact: true }).count()).toBe(0);
    expect(await scoped.page.getByRole('button', { name: 'Rename' }).count()).toBe(0);
    expect(await scoped.page.getByRole('link', { name: 'Audit log', exact: true }).count()).toBe(0);
    scoped.expectClean();
  });

  it('users and memberships: a platform admin creates a user with a temporary password, grants and changes a membership', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(watched, TEST_ADMIN.username, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Users', exact: true }).click();
    await page.getByRole('heading', { name: 'Users' }).waitFor();
    await page.getByText('Create a user').click();
    await page.getByLabel('Username').fill('field.tech');
    await page.getByLabel('E-mail').fill('field.tech@uplink.test');
    await page.getByLabel('Display name').fill('Field Technician');
    await page.getByLabel('Temporary password (changed at the first sign-in)').fill('temporary-password-1');
    await page.getByRole('button', { name: 'Create user' }).click();
    await page.getByText('Field Technician').waitFor();
    await checkPage(page, 'users');

    await page.getByLabel('Tenant').selectOption(String(tenant.tenantNumber));
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Memberships' }).click();
    await page.getByRole('heading', { name: 'Memberships' }).waitFor();
    await page.getByText('Grant a membership').click();
    await page.getByLabel("User's e-mail").fill('field.tech@uplink.test');
    await page.getByRole('button', { name: 'Grant', exact: true }).click();
    const role = page.getByLabel('Role of field.tech@uplink.test');
    await role.waitFor();
    expect(await role.inputValue()).toBe('tenant_viewer');
    await role.selectOption('tenant_operator');
    await page.waitForResponse((response) => response.url().includes('/v1/memberships/') && response.request().method() === 'PATCH');
    await page.getByRole('row', { name: /Field Technician/ }).getByRole('button', { name: 'Disable' }).click();
    await page.getByRole('row', { name: /Field Technician.*disabled/ }).waitFor();
    expect(await role.inputValue()).toBe('tenant_operator');
    await checkPage(page, 'memberships');
    watched.expectClean();
  });

  it('sessions: the list with revoke, and sign-out everywhere ends the other browser too', async () => {
    const user = await seedUser(t);
    await seedGrant(t, user.userId, tenant, 'tenant_viewer');
    const first = await open();
    const second = await open({ width: 390, height: 844 });
    await signIn(first, user.username, user.password);
    await signIn(second, user.username, user.password);
    await first.page.getByRole('link', { name: 'Account and sessions' }).click();
    await first.page.getByText('This session').waitFor();
    expect(await first.page.locator('tbody tr').count()).toBe(2);
    await checkPage(first.page, 'account');
    // Revoking the other session signs that browser out at its next refresh.
    await first.page.getByRole('button', { name: 'Revoke' }).click();
    await first.page.locator('tbody tr').nth(1).waitFor({ state: 'detached' });
    second.allow(/^401 /);
    // A reload aborts what the page was still fetching (the home page's lists, right after a sign-in).
    second.allow(/^request failed: GET \/v1\/\S+ net::ERR_ABORTED$/);
    await second.page.reload();
    await second.page.getByRole('heading', { name: 'Sign in to Uplink' }).waitFor();
    // Signing out everywhere ends every session, this one included.
    await signIn(second, user.username, user.password);
    await first.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await first.page.getByRole('heading', { name: 'Sign in to Uplink' }).waitFor();
    await second.page.reload();
    await second.page.getByRole('heading', { name: 'Sign in to Uplink' }).waitFor();
    first.expectClean();
    second.expectClean();
  });

  it('keeps the session across an access-token expiry (part 2: a 401 after expiry is refreshed and repeated)', async () => {
    const wait = longLivedSince + 62_000 - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    expect(scheduledRefreshes).toBe(1);
    const statuses: string[] = [];
    longLived.page.on('response', (response) => statuses.push(`${response.status()} ${new URL(response.url()).pathname}`));
    longLived.allow(/^401 GET \/v1\//);
    await longLived.page.getByRole('link', { name: 'Account and sessions' }).click();
    await longLived.page.getByText('This session').waitFor();
    expect(statuses).toEqual(expect.arrayContaining(['401 /v1/auth/sessions', '200 /v1/auth/refresh', '200 /v1/auth/sessions']));
    expect(statuses.indexOf('401 /v1/auth/sessions')).toBeLessThan(statuses.indexOf('200 /v1/auth/refresh'));
    longLived.expectClean();
  }, 90_000);

  it('devices: filters, search and cursor paging; create, assign, move, end the assignment, disable, reactivate, retire', async () => {
    // More than one page (25), created through the API.
    const type = await seedDeviceType(t, tenant);
    const { accessToken } = await loginAdmin(t);
    for (let index = 1; index <= 26; index++) {
      const res = await t
        .http()
        .post(`/v1/tenants/${tenant.tenantNumber}/devices`)
        .set('Authorization', `Bearer ${accessToken}`)
        .send({ name: `Paged meter ${String(index).padStart(2, '0')}`, devEui: randomDevEui(), deviceTypeId: type.deviceTypeId });
      expect(res.status).toBe(201);
    }
    const watched = await open();
    const { page } = watched;
    await signIn(watched, TEST_ADMIN.username, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'My first device' }).waitFor();
    const filters = page.getByRole('search');
    await filters.getByLabel('Search').fill('Paged meter');
    await filters.getByRole('button', { name: 'Search' }).click();
    await page.getByText('26 devices').waitFor();
    await page.getByRole('link', { name: 'Paged meter 01' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(25);
    expect(await page.getByRole('button', { name: 'Previous' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByRole('link', { name: 'Paged meter 26' }).waitFor();
    expect(await page.locator('tbody tr').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Next' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Previous' }).click();
    await page.getByRole('link', { name: 'Paged meter 01' }).waitFor();
    await filters.getByLabel('Status').selectOption('disabled');
    await page.getByText('No device matches these filters.').waitFor();
    await filters.getByLabel('Status').selectOption('active');
    await filters.getByLabel('Device type').selectOption(type.deviceTypeId);
    await page.getByText('26 devices').waitFor();
    await checkPage(page, 'devices-paged');

    const create = page.locator('details', { hasText: 'Create a device' });
    await create.locator('summary').click();
    await create.getByLabel('Name', { exact: true }).fill('Lifecycle meter');
    await create.getByLabel('devEui (16 hex digits)').fill(randomDevEui().toLowerCase());
    await create.getByLabel('Device type').selectOption(type.deviceTypeId);
    await create.getByRole('button', { name: 'Create device' }).click();
    await page.getByRole('heading', { name: 'Lifecycle meter' }).waitFor();
    await page.getByText('Never assigned to a unit.').waitFor();

    await page.getByLabel('Assign to unit').selectOption({ label: 'North' });
    await page.getByRole('button', { name: 'Assign', exact: true }).click();
    await page.getByRole('row', { name: /North.*now/ }).waitFor();
    await page.getByLabel('Move to unit').selectOption({ label: 'South' });
    await page.getByRole('button', { name: 'Move', exact: true }).click();
    await page.getByRole('row', { name: /South.*now/ }).waitFor();
    expect(await page.getByRole('row', { name: /North.*now/ }).count()).toBe(0);
    await page.getByRole('row', { name: /South.*now/ }).getByRole('button', { name: 'End' }).click();
    await page.getByLabel('Assign to unit').waitFor();
    expect(await page.getByRole('button', { name: 'End', exact: true }).count()).toBe(0);
    expect(await page.locator('tbody tr', { hasText: /North|South/ }).count()).toBe(2);

    const status = page.locator('.facts .badge');
    await page.getByRole('button', { name: 'Disable', exact: true }).click();
    await status.filter({ hasText: 'disabled' }).waitFor();
    await page.getByRole('button', { name: 'Reactivate', exact: true }).click();
    await status.filter({ hasText: 'active' }).waitFor();
    page.on('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Retire', exact: true }).click();
    await status.filter({ hasText: 'retired' }).waitFor();
    for (const name of ['Disable', 'Reactivate', 'Retire', 'Assign']) expect(await page.getByRole('button', { name, exact: true }).count()).toBe(0);
    await checkPage(page, 'device-retired');
    watched.expectClean();
  });

  it('organization units (admin): create, rename, disable; a device type field deprecated; the chart switches to buckets', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(watched, TEST_ADMIN.username, TEST_ADMIN.password);
    await page.getByRole('link', { name: 'Organization units' }).click();
    await page.getByText('North', { exact: true }).waitFor();
    await page.getByText('Create a top-level unit').click();
    const create = page.getByRole('form', { name: 'New top-level unit' });
    await create.getByLabel('Unit key').fill('west');
    await create.getByLabel('Unit name').fill('West');
    await create.getByRole('button', { name: 'Create unit' }).click();
    const west = () => page.locator('.unit', { has: page.locator('code', { hasText: /^west$/ }) });
    await west().getByText('West', { exact: true }).waitFor();
    await west().getByRole('button', { name: 'Rename' }).click();
    await page.getByLabel('New name of West').fill('West coast');
    await west().getByRole('button', { name: 'Save' }).click();
    await west().getByText('West coast', { exact: true }).waitFor();
    await west().getByRole('button', { name: 'Disable' }).click();
    await west().locator('.badge', { hasText: 'disabled' }).waitFor();
    await west().getByRole('button', { name: 'Reactivate' }).waitFor();
    await checkPage(page, 'units-admin');

    // A field deprecated: its row says so and offers no more actions.
    const type = await seedDeviceType(t, tenant);
    await seedField(t, tenant, type, { key: 'pressure' });
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Device types' }).click();
    await page.getByRole('link', { name: `Type ${type.key}` }).click();
    await page.getByRole('heading', { name: 'Fields' }).waitFor();
    page.on('dialog', (dialog) => void dialog.accept());
    const row = page.getByRole('row', { name: /pressure/ });
    await row.getByRole('button', { name: 'Deprecate' }).click();
    await row.locator('.badge', { hasText: 'deprecated' }).waitFor();
    expect(await row.getByRole('button').count()).toBe(0);

    // The measurements chart: raw points, then averaged buckets whose width follows the range picked.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Devices' }).click();
    await page.getByRole('link', { name: 'My first device' }).click();
    await page.getByTestId('chart-points').filter({ hasText: '1 points' }).waitFor();
    await page.getByLabel('Raw points (else averaged buckets)').uncheck();
    await page.getByTestId('chart-points').filter({ hasText: '1 buckets of 1m' }).waitFor();
    await page.getByLabel('Range').selectOption({ label: 'Last 24 hours' });
    await page.getByTestId('chart-points').filter({ hasText: '1 buckets of 15m' }).waitFor();
    await page.getByLabel('Range').selectOption({ label: 'Last 7 days' });
    await page.getByTestId('chart-points').filter({ hasText: '1 buckets of 1h' }).waitFor();
    expect(await page.locator('.chart canvas').count()).toBeGreaterThan(0);
    await checkPage(page, 'device-buckets');
    watched.expectClean();
  });

  it('a refresh answered 409 with Retry-After: 1 is retried once and keeps the session; one "Sign out" ends it', async () => {
    const watched = await open();
    const { page } = watched;
    await signIn(watched, TEST_ADMIN.username, TEST_ADMIN.password);
    const refreshes: number[] = [];
    await page.route('**/v1/auth/refresh', async (route) => {
      refreshes.push(Date.now());
      // The first refresh after the reload meets another tab's rotation of the same session.
      if (refreshes.length === 1) {
        return route.fulfill({
          status: 409,
          headers: { 'Retry-After': '1', 'Content-Type': 'application/json' },
          body: JSON.stringify({ statusCode: 409, error: 'Conflict', message: 'The session was refreshed a moment ago.' }),
        });
      }
      return route.continue();
    });
    watched.allow(/^409 POST \/v1\/auth\/refresh$/);
    // Reloading and signing out cancel the page's requests in flight.
    watched.allow(/^request failed: GET \/v1\/\S+ net::ERR_ABORTED$/);
    await page.reload();
    await page.getByRole('heading', { name: 'Devices' }).waitFor();
    expect(refreshes).toHaveLength(2);
    expect(refreshes[1]! - refreshes[0]!).toBeGreaterThanOrEqual(900);
    await page.unroute('**/v1/auth/refresh');

    expect(await page.getByRole('button', { name: 'Sign out', exact: true }).count()).toBe(1);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.getByRole('heading', { name: 'Sign in to Uplink' }).waitFor();
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to Uplink' }).waitFor();
    watched.expectClean();
  });

  it('a console served from an origin the service does not allow says so instead of offering a sign-in', async () => {
    const elsewhere = await startTestApp();
    try {
      const watched = await watchedPage(browser, elsewhere.baseUrl);
      pages.push(watched);
      watched.allow(/^403 POST \/v1\/auth\/refresh$/);
      await watched.page.goto('/console/');
      await watched.page.getByRole('heading', { name: 'This address is not allowed to keep a session' }).waitFor();
      expect(await watched.page.getByText(`PUBLIC_URL=${elsewhere.baseUrl}`).count()).toBe(1);
      await checkPage(watched.page, 'origin-not-allowed');
      watched.expectClean();
    } finally {
      await elsewhere.close();
    }
  });
});
