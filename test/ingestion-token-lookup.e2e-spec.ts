import { randomUUID } from 'node:crypto';
import { loginAdmin } from './support/auth';
import { as } from './support/http';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { chirpstackUp } from './fixtures/ingestion/bodies';

/*
 * Ingestion tokens are looked up for concurrent requests together (one statement reads every waiting hash): each
 * request still gets its own credential's answer, and a revoke is honoured by every request sent after it.
 */
let t: TestApp;
let admin: ReturnType<typeof as>;
let tenant: SeededTenant;

const post = (token: string) =>
  t
    .http()
    .post('/v1/ingestion/chirpstack?event=up')
    .set('Authorization', `Bearer ${token}`)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify(chirpstackUp('0101010101010101', randomUUID())));

async function credential(path: string, name: string): Promise<{ id: string; token: string }> {
  const res = await admin.post(path, { name }).expect(201);
  return { id: res.body.ingestionCredentialId, token: res.body.token };
}

beforeAll(async () => {
  t = await startTestApp({ env: { PROCESSING_ENABLED: 'false' } });
  admin = as(t, (await loginAdmin(t)).accessToken);
  tenant = await seedTenant(t);
});

afterAll(() => t.close());

it('answers a concurrent burst of tenant, platform, revoked and unknown tokens each by its own credential', async () => {
  const tenantCredential = await credential(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, 'Burst tenant');
  const platformCredential = await credential('/v1/ingestion-credentials', 'Burst platform');
  const revoked = await credential(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, 'Burst revoked');
  await admin.post(`/v1/ingestion-credentials/${revoked.id}/revoke`).expect(200);
  const unknown = `uit_${'A'.repeat(43)}`;
  const cases = [
    { token: tenantCredential.token, status: 202, credentialId: tenantCredential.id, tenantId: tenant.tenantId },
    { token: platformCredential.token, status: 202, credentialId: platformCredential.id, tenantId: null },
    { token: revoked.token, status: 401 },
    { token: unknown, status: 401 },
  ];
  const sent = Array.from({ length: 80 }, (_, i) => cases[i % cases.length]!);
  const answers = await Promise.all(sent.map((c) => post(c.token)));
  answers.forEach((res, i) => expect(res.status).toBe(sent[i]!.status));
  for (const [i, res] of answers.entries()) {
    if (res.status !== 202) continue;
    const [row] = await t.dataSource.query(`SELECT credential_id, tenant_id FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`, [res.body.rawIngestionMessageId]);
    expect(row).toEqual({ credential_id: sent[i]!.credentialId, tenant_id: sent[i]!.tenantId });
  }
});

it('refuses every request sent after a revoke answered, while requests with the token keep arriving', async () => {
  const target = await credential(`/v1/tenants/${tenant.tenantNumber}/ingestion-credentials`, 'Revoked under load');
  let revokedAt = Infinity;
  let stop = false;
  const after: number[] = [];
  const before: number[] = [];
  const sender = async () => {
    while (!stop) {
      const sentAt = performance.now();
      const res = await post(target.token);
      (sentAt > revokedAt ? after : before).push(res.status);
    }
  };
  const senders = Array.from({ length: 8 }, sender);
  await new Promise((resolve) => setTimeout(resolve, 200));
  await admin.post(`/v1/ingestion-credentials/${target.id}/revoke`).expect(200);
  revokedAt = performance.now();
  const deadline = Date.now() + 10_000;
  while (after.length < 40 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
  stop = true;
  await Promise.all(senders);
  expect(before).toContain(202);
  expect(after.length).toBeGreaterThanOrEqual(40);
  expect(new Set(after)).toEqual(new Set([401]));
});
