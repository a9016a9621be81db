import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { freePort } from './support/free-port';
import { clusterTempDir, ensureBuilt, ROOT, RunningService, startService, waitForReady } from './support/service-process';

/*
 * The Postman material: `npm run postman` turns the OpenAPI document into a collection (and docs/walkthrough.md
 * into the "First uplink" one), and the curated "Tenant setup", "Flow authoring" and "First uplink" collections in
 * postman/ run with newman against the real service (`dist/main.js`, as
 * `npm start` runs it, on its own embedded PostgreSQL). Any failed Postman assertion fails this file.
 * POSTMAN_E2E_REPORTER=cli prints newman's own report of every request and assertion.
 */

const WRITE_OPENAPI = join(ROOT, 'scripts', 'write-openapi.js');
const GENERATOR = join(ROOT, 'scripts', 'postman.js');
const TENANT_SETUP = join(ROOT, 'postman', 'tenant-setup.postman_collection.json');
const FLOW_AUTHORING = join(ROOT, 'postman', 'flow-authoring.postman_collection.json');
const FIRST_UPLINK = join(ROOT, 'postman', 'first-uplink.postman_collection.json');
const ENVIRONMENT = join(ROOT, 'postman', 'uplink.postman_environment.json');

const ADMIN = { username: 'postman-admin', email: 'postman-admin@example.com', password: 'Postman-Admin-Password-2468' };

// newman ships no type declarations: the little of its API used here.
interface NewmanFailure {
  error: { name?: string; message: string; test?: string };
  at: string;
  source?: { name?: string };
}
interface NewmanAssertion {
  assertion: string;
  error?: { message: string };
}
interface NewmanExecution {
  item: { name: string };
  response?: { code: number };
  assertions?: NewmanAssertion[];
}
interface NewmanSummary {
  run: { failures: NewmanFailure[]; executions: NewmanExecution[]; stats: { assertions: { total: number; failed: number } } };
}
interface Newman {
  run(options: Record<string, unknown>, callback: (error: Error | null, summary: NewmanSummary) => void): unknown;
}
const newman = createRequire(__filename)('newman') as Newman;
const { walkthroughCollection } = createRequire(__filename)('../scripts/postman-walkthrough.js') as { walkthroughCollection: (markdown: string) => unknown };

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { method: string; url: { host?: string[]; path?: string[]; variable?: { key: string; value: string }[] } };
}
interface PostmanCollection {
  info: { name: string; schema: string };
  item: PostmanItem[];
  auth?: { type: string; bearer?: { key: string; value: string }[] };
  variable?: { key: string; value: string }[];
}

function requests(items: PostmanItem[]): PostmanItem[] {
  return items.flatMap((item) => [...(item.request ? [item] : []), ...requests(item.item ?? [])]);
}

function runNewman(options: Record<string, unknown>): Promise<NewmanSummary> {
  const reporter = process.env.POSTMAN_E2E_REPORTER;
  return new Promise((done, fail) =>
    newman.run(
      { reporters: reporter ? [reporter] : [], color: 'off', timeoutRequest: 15_000, ...options },
      (error, summary) => (error ? fail(error) : done(summary)),
    ),
  );
}

/** One line per failed assertion, failed request or script error: what a failing test prints. */
function failuresOf(summary: NewmanSummary): string[] {
  return summary.run.failures.map(
    (failure) => `${failure.source?.name ?? '(collection)'} › ${failure.error.test ?? failure.at}: ${failure.error.message}`,
  );
}

let workDir: string;
let generated: string | undefined;

/** `npm run postman` minus its build step: the generator on the document `write-openapi.js` writes. */
function generateCollection(): string {
  if (generated) return generated;
  const openapi = join(workDir, 'openapi.json');
  const target = join(workDir, 'generated.postman_collection.json');
  const env: NodeJS.ProcessEnv = { ...process.env, EMBEDDED_PG_DIR: join(workDir, 'never-created') };
  delete env.DATABASE_URL;
  execFileSync(process.execPath, [WRITE_OPENAPI, openapi], { cwd: ROOT, env });
  const out = execFileSync(process.execPath, [GENERATOR, '--openapi', openapi, '--out', target], { cwd: ROOT, env });
  expect(out.toString()).toMatch(/^Postman collection with \d+ requests written to /);
  generated = target;
  return target;
}

beforeAll(() => {
  ensureBuilt(WRITE_OPENAPI);
  workDir = clusterTempDir('uplink-postman-');
}, 120_000);

afterAll(() => rmSync(workDir, { recursive: true, force: true }));

describe('npm run postman', () => {
  it('generates a Postman v2.1 collection from the OpenAPI document, tenant endpoints included', () => {
    const collection = JSON.parse(readFileSync(generateCollection(), 'utf8')) as PostmanCollection;
    expect(collection.info.schema).toBe('https://schema.getpostman.com/json/collection/v2.1.0/collection.json');
    expect(collection.info.name).toBe('Uplink API (generated)');
    expect(collection.auth).toEqual({ type: 'bearer', bearer: [expect.objectContaining({ key: 'token', value: '{{accessToken}}' })] });
    expect(collection.variable).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'baseUrl', value: 'http://localhost:3000' })]));

    const all = requests(collection.item);
    for (const item of all) {
      expect(item.request!.url.host).toEqual(['{{baseUrl}}']);
      for (const variable of item.request!.url.variable ?? []) expect(variable.value).toBe(`{{${variable.key}}}`);
    }
    const names = all.map((item) => item.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual(
      expect.arrayContaining([
        'POST /v1/auth/login',
        'GET /v1/auth/me',
        'POST /v1/users',
        'POST /v1/tenants',
        'GET /v1/tenants/{tenantNumber}',
        'POST /v1/tenants/{tenantNumber}/organization-units',
        'GET /v1/tenants/{tenantNumber}/organization-units',
        'POST /v1/tenants/{tenantNumber}/memberships',
        'GET /v1/tenants/{tenantNumber}/memberships',
      ]),
    );
    const createTenant = all.find((item) => item.name === 'POST /v1/tenants')!;
    expect(createTenant.request).toMatchObject({ method: 'POST', url: { path: ['v1', 'tenants'] } });
  }, 60_000);

  it('keeps the "First uplink" collection what the generator makes of docs/walkthrough.md', () => {
    const committed = JSON.parse(readFileSync(FIRST_UPLINK, 'utf8')) as unknown;
    // `npm run postman` regenerates it; a walkthrough changed without regenerating fails here.
    expect(committed).toEqual(walkthroughCollection(readFileSync(join(ROOT, 'docs', 'walkthrough.md'), 'utf8')));
  });
});

describe('the Postman collections against the running service', () => {
  let service: RunningService | undefined;
  let baseUrl: string;

  beforeAll(async () => {
    const [port, pgPort] = [await freePort(), await freePort()];
    service = startService({
      LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: String(port),
      EMBEDDED_PG_DIR: join(workDir, 'pg'),
      EMBEDDED_PG_PORT: String(pgPort),
      BCRYPT_COST: '4',
      PLATFORM_ADMIN_USERNAME: ADMIN.username,
      PLATFORM_ADMIN_EMAIL: ADMIN.email,
      PLATFORM_ADMIN_PASSWORD: ADMIN.password,
      PLATFORM_ADMIN_PASSWORD_CHANGE_REQUIRED: 'false',
    });
    baseUrl = `http://127.0.0.1:${port}`;
    await waitForReady(port, service.output);
  }, 120_000);

  afterAll(async () => {
    const child = service?.child;
    if (!child || child.exitCode !== null) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
    await service!.exited;
    clearTimeout(timer);
  }, 30_000);

  const environmentOverrides = (): { key: string; value: string }[] => [
    { key: 'baseUrl', value: baseUrl },
    { key: 'adminUsername', value: ADMIN.username },
    { key: 'adminPassword', value: ADMIN.password },
  ];

  it('runs the curated "Tenant setup" collection with every assertion passing, twice on the same database', async () => {
    for (const round of [1, 2]) {
      const summary = await runNewman({ collection: TENANT_SETUP, environment: ENVIRONMENT, envVar: environmentOverrides() });
      const executed = summary.run.executions.map((execution) => execution.item.name);
      expect({ round, failures: failuresOf(summary) }).toEqual({ round, failures: [] });
      expect(executed).toHaveLength(requests((JSON.parse(readFileSync(TENANT_SETUP, 'utf8')) as PostmanCollection).item).length);
      expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(30);
      expect(summary.run.stats.assertions.failed).toBe(0);
    }
  }, 120_000);

  it('runs the curated "Flow authoring" collection standalone with every assertion passing, twice on the same database', async () => {
    const collection = JSON.parse(readFileSync(FLOW_AUTHORING, 'utf8')) as PostmanCollection;
    expect(collection.info.name).toBe('Uplink: Flow authoring');
    for (const round of [1, 2]) {
      const summary = await runNewman({ collection: FLOW_AUTHORING, environment: ENVIRONMENT, envVar: environmentOverrides() });
      expect({ round, failures: failuresOf(summary) }).toEqual({ round, failures: [] });
      // A GET asked again while the dry-run replay runs shows up once per attempt: consecutive repeats count once.
      const answers = summary.run.executions
        .map((execution) => [execution.item.name, execution.response?.code] as const)
        .filter((answer, index, all) => index === all.length - 1 || all[index + 1]![0] !== answer[0]);
      expect(answers).toEqual([
        ['Log in as platform admin', 200],
        ['Create tenant', 201],
        ['Create device type', 201],
        ['Create field temperature', 201],
        ['Create field battery', 201],
        ['Create the flow of the device type', 201],
        ['Create a draft: decode-binary -> scale -> outputs', 201],
        ['Validate the draft', 200],
        ['Create a fixture with assertions', 201],
        ['Run the fixtures against the draft', 200],
        ['Release the draft', 200],
        ['Read the flow (for its ETag)', 200],
        ['Activate the released version (If-Match)', 200],
        ['Preview the active version on one uplink', 200],
        ['Start a debug capture (15 minutes, 50 executions)', 200],
        ['Read the debug capture', 200],
        ['End the debug capture', 200],
        ['Create a flow template (platform admin)', 201],
        ['Save template version 1 (no device type)', 201],
        ['Validate template version 1', 200],
        ['Release template version 1', 200],
        ['Find it in the catalog (released templates)', 200],
        ['Copy template version 1 into the flow', 201],
        ['Release the copy', 200],
        ['Read the flow before activating the copy', 200],
        ['Activate the copy (If-Match)', 200],
        ['Save template version 2 (one decimal)', 201],
        ['Release template version 2', 200],
        ['Read the flow: templateUpdate names version 2', 200],
        ['Copy template version 2 into the flow (the upgrade draft)', 201],
        ['Validate the upgrade draft', 200],
        ['Release the upgrade draft', 200],
        ['Dry-run the upgrade over the last 7 days of stored uplinks', 202],
        ['Read the dry-run replay and its diff', 200],
        ['Read the flow before the upgrade', 200],
        ['Activate the upgrade (If-Match)', 200],
      ]);
      expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(30);
      expect(summary.run.stats.assertions.failed).toBe(0);
    }
  }, 120_000);

  it('runs the "First uplink" collection (custom block, flow, ingestion, current values) with every assertion passing, twice on the same database', async () => {
    const collection = JSON.parse(readFileSync(FIRST_UPLINK, 'utf8')) as PostmanCollection;
    expect(collection.info.name).toBe('Uplink: First uplink');
    for (const round of [1, 2]) {
      const summary = await runNewman({ collection: FIRST_UPLINK, environment: ENVIRONMENT, envVar: environmentOverrides() });
      expect({ round, failures: failuresOf(summary) }).toEqual({ round, failures: [] });
      // A GET asked again while processing runs shows up once per attempt: the last answer of each request counts.
      const answers = new Map(summary.run.executions.map((execution) => [execution.item.name, execution.response?.code]));
      expect([...answers]).toEqual([
        ['POST /v1/auth/login', 200],
        ['POST /v1/tenants', 201],
        ['POST /v1/tenants/{{tenantNumber}}/device-types', 201],
        ['POST /v1/device-types/{{deviceTypeId}}/fields', 201],
        ['POST /v1/device-types/{{deviceTypeId}}/fields (2)', 201],
        ['POST /v1/device-types/{{deviceTypeId}}/fields (3)', 201],
        ['POST /v1/tenants/{{tenantNumber}}/devices', 201],
        ['POST /v1/tenants/{{tenantNumber}}/flow-blocks', 201],
        ['POST /v1/flow-blocks/{{flowBlockId}}/versions', 201],
        ['POST /v1/flow-blocks/{{flowBlockId}}/versions/{{flowBlockVersionId}}/release', 200],
        ['POST /v1/device-types/{{deviceTypeId}}/flow', 201],
        ['POST /v1/flows/{{flowId}}/versions', 201],
        ['POST /v1/flows/{{flowId}}/versions/{{flowVersionId}}/release', 200],
        ['GET /v1/flows/{{flowId}}', 200],
        ['POST /v1/flows/{{flowId}}/activate', 200],
        ['POST /v1/tenants/{{tenantNumber}}/ingestion-credentials', 201],
        ['POST /v1/ingestion/http', 202],
        ['GET /v1/devices/{{deviceId}}/current-values', 200],
      ]);
      expect(summary.run.stats.assertions.failed).toBe(0);
      expect(summary.run.stats.assertions.total).toBeGreaterThanOrEqual(36);
    }
  }, 120_000);

  it('stops the "Flow authoring" run after a failed sign-in', async () => {
    const summary = await runNewman({
      collection: FLOW_AUTHORING,
      environment: ENVIRONMENT,
      envVar: [...environmentOverrides().filter(({ key }) => key !== 'adminPassword'), { key: 'adminPassword', value: 'not-the-password' }],
    });
    expect(summary.run.executions.map((execution) => [execution.item.name, execution.response?.code])).toEqual([['Log in as platform admin', 401]]);
  }, 60_000);

  it('the generated collection signs in (the token lands in accessToken) and calls an authenticated endpoint', async () => {
    const summary = await runNewman({
      collection: generateCollection(),
      environment: ENVIRONMENT,
      envVar: environmentOverrides(),
      folder: ['POST /v1/auth/login', 'GET /v1/auth/me'],
    });
    expect(failuresOf(summary)).toEqual([]);
    expect(summary.run.executions.map((execution) => [execution.item.name, execution.response?.code])).toEqual([
      ['POST /v1/auth/login', 200],
      ['GET /v1/auth/me', 200],
    ]);
    expect(summary.run.stats.assertions).toMatchObject({ total: 2, failed: 0 });
  }, 60_000);

  it('stops the "Tenant setup" run after a failed sign-in instead of failing every later request', async () => {
    const summary = await runNewman({
      collection: TENANT_SETUP,
      environment: ENVIRONMENT,
      envVar: [...environmentOverrides().filter(({ key }) => key !== 'adminPassword'), { key: 'adminPassword', value: 'not-the-password' }],
    });
    expect(summary.run.executions.map((execution) => [execution.item.name, execution.response?.code])).toEqual([['Log in as platform admin', 401]]);
    expect(failuresOf(summary).every((line) => line.startsWith('Log in as platform admin › '))).toBe(true);
    expect(summary.run.failures.length).toBeGreaterThan(0);
    expect(summary.run.failures.length).toBeLessThanOrEqual(5);
  }, 60_000);
});
