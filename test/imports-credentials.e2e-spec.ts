import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { legacyCode, legacyDevEui, LegacySource } from './support/legacy-source';
import { ensureBuilt, Replica, startReplica } from './support/service-process';
import { createTestDatabase, TestDatabase } from './support/test-database';

/*
 * The built service at log level `trace`, importing from the test source with credentials that succeed and that
 * fail; afterwards neither its output nor the audit log holds the username, the passwords or the source's token.
 */
const ADMIN = { username: 'import-admin', password: 'import-admin-password-1' };

describe('legacy import credentials', () => {
  const source = new LegacySource();
  let database: TestDatabase;
  let service: Replica | undefined;

  beforeAll(() => ensureBuilt(), 180_000);
  afterAll(async () => {
    if (service && service.service.child.exitCode === null) service.service.child.kill('SIGKILL');
    await source.close();
    await database?.drop();
  });

  it('never lets them reach a log line at any level or the audit log, whether the import succeeds or fails', async () => {
    database = await createTestDatabase();
    source.username = `legacy-user-${randomBytes(6).toString('hex')}`;
    const baseUrl = await source.start();
    const code = legacyCode('secret-check');
    source.tenants = [
      {
        id: 'north',
        name: 'North',
        deviceTypes: [{ id: 't', code, name: 'Type' }],
        devices: [
          { id: 'd1', devEui: legacyDevEui(), name: 'One', deviceTypeId: 't' },
          { id: 'd2', devEui: 'bad', name: 'Two', deviceTypeId: 't' },
        ],
      },
    ];
    service = await startReplica(database.url, ADMIN, { LOG_LEVEL: 'trace', LEGACY_IMPORT_ALLOW_HTTP_LOOPBACK: 'true' });
    const json = { 'Content-Type': 'application/json' };
    const login = await fetch(`${service.url}/v1/auth/login`, { method: 'POST', headers: json, body: JSON.stringify({ identifier: ADMIN.username, password: ADMIN.password }) });
    const auth = { ...json, Authorization: `Bearer ${((await login.json()) as { accessToken: string }).accessToken}` };
    const tenant = await fetch(`${service.url}/v1/tenants`, { method: 'POST', headers: auth, body: JSON.stringify({ key: `import-${randomBytes(4).toString('hex')}`, name: 'Import target' }) });
    expect(tenant.status).toBe(201);
    const { tenantNumber } = (await tenant.json()) as { tenantNumber: number };
    const importUrl = `${service.url}/v1/tenants/${tenantNumber}/imports/legacy-snapshot`;
    const run = async (body: Record<string, string>, query = '') => {
      const res = await fetch(`${importUrl}${query}`, { method: 'POST', headers: auth, body: JSON.stringify(body) });
      return { status: res.status, text: await res.text() };
    };
    const good = { baseUrl, username: source.username, password: source.password };
    const wrongPassword = `wrong-${randomBytes(8).toString('hex')}`;

    const answers = [
      await run(good, '?dryRun=true'),
      await run(good),
      await run({ ...good, password: wrongPassword }),
      await run({ ...good, baseUrl: 'https://not-allowed.example.com/api' }),
      await run({ ...good, password: 'p'.repeat(501) }),
    ];
    source.misbehaviour.set('devices', { kind: 'status', status: 500 });
    answers.push(await run(good));
    source.misbehaviour.set('devices', { kind: 'cut' });
    answers.push(await run(good));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 502, 400, 400, 502, 502]);
    // The source really was called with the credentials and the token (so the checks below mean something).
    expect(source.requests.some((request) => request.body.includes(source.password))).toBe(true);
    expect(source.requests.some((request) => request.authorization === `Bearer ${source.accessToken}`)).toBe(true);

    const client = new Client({ connectionString: database.url });
    await client.connect();
    const audit = await client.query(`SELECT * FROM audit_log`);
    await client.end();
    service.service.child.kill('SIGTERM');
    expect(await service.service.exited).toBe(0);

    const logs = service.service.output();
    expect(logs).toContain('/imports/legacy-snapshot'); // the access log is on
    expect(logs).toContain('"level":20'); // and the levels below info are written (trace admits every one)
    expect(audit.rows.map((row: { event_type: string }) => row.event_type)).toEqual(
      expect.arrayContaining(['import.previewed', 'import.completed', 'import.failed', 'device.created', 'device_type.created']),
    );
    const auditText = JSON.stringify(audit.rows);
    const answerText = JSON.stringify(answers);
    for (const secret of [source.username, source.password, wrongPassword, source.accessToken, 'p'.repeat(501)]) {
      expect({ secret, inLogs: logs.includes(secret) }).toEqual({ secret, inLogs: false });
      expect({ secret, inAudit: auditText.includes(secret) }).toEqual({ secret, inAudit: false });
      expect({ secret, inAnswers: answerText.includes(secret) }).toEqual({ secret, inAnswers: false });
    }
  }, 180_000);
});
