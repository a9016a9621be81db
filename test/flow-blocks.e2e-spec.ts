import { createHash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Response } from 'supertest';
import type { TenantRole } from '../src/shared/access/permissions';
import { login, loginAdmin, seedUser } from './support/auth';
import { as, fieldsOf, withoutCorrelation } from './support/http';
import { seedRawMessage } from './support/raw-messages';
import { seedGrant, seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';
import { BlockConfigurationService } from '../src/modules/blocks/domain/block-configuration.service';
import { FlowBlockStore } from '../src/modules/blocks/persistence/flow-block.store';
import { ScriptSandbox } from '../src/modules/sandbox/script-sandbox';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const codec = (name: string) => readFileSync(join(__dirname, 'fixtures', 'codecs', name), 'utf8');
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

let counter = 0;
const uniqueKey = (prefix = 'blk') => `${prefix}-${process.pid}-${++counter}`;

type Api = ReturnType<typeof as>;

const TRANSFORM = 'function transform(msg, ctx) {\n  return { values: { level: msg.payload[0] * (ctx.configuration.factor || 1) } };\n}\n';
const SAMPLE = { payload: [7], values: {} };

const blocksPath = (tenant: SeededTenant) => `/v1/tenants/${tenant.tenantNumber}/flow-blocks`;
const catalogPath = (tenant: SeededTenant) => `/v1/tenants/${tenant.tenantNumber}/flow-block-catalog`;
const blockPath = (blockId: string) => `/v1/flow-blocks/${blockId}`;
const versionsPath = (blockId: string) => `${blockPath(blockId)}/versions`;
const versionPath = (blockId: string, versionId: string) => `${versionsPath(blockId)}/${versionId}`;

const errorOf = (res: Response) => res.body.error as { code: string; message: string; details: Record<string, unknown> };

describe('custom blocks API', () => {
  let t: TestApp;
  let admin: Api;

  async function member(tenant: SeededTenant, role: TenantRole): Promise<Api> {
    const user = await seedUser(t);
    await seedGrant(t, user.userId, tenant, role);
    return as(t, (await login(t, user.username, user.password)).accessToken);
  }

  async function createBlock(tenant: SeededTenant | null, overrides: Record<string, unknown> = {}): Promise<string> {
    const path = tenant ? blocksPath(tenant) : '/v1/flow-blocks';
    const res = await admin.post(path, { key: uniqueKey(), name: 'Level decoder', ...overrides }).expect(201);
    return res.body.flowBlockId as string;
  }

  async function createVersion(blockId: string, body: Record<string, unknown> = {}, api: Api = admin): Promise<Record<string, unknown> & { flowBlockVersionId: string }> {
    const res = await api.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE, ...body }).expect(201);
    return res.body;
  }

  async function releasedVersion(blockId: string, body: Record<string, unknown> = {}): Promise<string> {
    const { flowBlockVersionId } = await createVersion(blockId, body);
    await admin.post(`${versionPath(blockId, flowBlockVersionId)}/release`).expect(200);
    return flowBlockVersionId;
  }

  const auditRows = (entityId: string) =>
    t.dataSource.query<{ event_type: string; action: string; outcome: string; status_code: number; tenant_id: string | null; metadata: Record<string, unknown> }[]>(
      `SELECT event_type, action, outcome, status_code, tenant_id, metadata FROM audit_log WHERE entity_id = $1 ORDER BY occurred_at, audit_log_id`,
      [entityId],
    );

  const statusOf = async (versionId: string) =>
    (await t.dataSource.query<{ status: string; artifact: unknown }[]>(`SELECT status, artifact FROM flow_block_versions WHERE flow_block_version_id = $1`, [versionId]))[0];

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
  });
  afterAll(() => t.close());

  describe('blocks: scope, keys, limits', () => {
    it('lets a platform administrator create a global block; a tenant user cannot; every user reads it', async () => {
      const key = uniqueKey('global');
      const res = await admin.post('/v1/flow-blocks', { key, name: 'Shared decoder', description: 'For every tenant' }).expect(201);
      expect(res.body).toEqual({
        flowBlockId: expect.stringMatching(UUID),
        scope: 'global',
        tenantId: null,
        key,
        name: 'Shared decoder',
        description: 'For every tenant',
        latestVersionNumber: null,
        createdAt: expect.stringMatching(ISO_MS),
        updatedAt: expect.stringMatching(ISO_MS),
      });
      expect(res.headers.location).toBe(blockPath(res.body.flowBlockId));
      const [audit] = await auditRows(res.body.flowBlockId);
      expect(audit).toMatchObject({ event_type: 'flow_block.created', action: 'create', outcome: 'success', status_code: 201, tenant_id: null, metadata: { scope: 'global', key } });

      const tenant = await seedTenant(t);
      const tenantAdmin = await member(tenant, 'tenant_admin');
      const denied = await tenantAdmin.post('/v1/flow-blocks', { key: uniqueKey(), name: 'Nope' }).expect(403);
      expect(errorOf(denied).details).toMatchObject({ reason: 'platform_admin_required' });
      await tenantAdmin.patch(blockPath(res.body.flowBlockId), { name: 'Renamed' }).expect(403);
      await tenantAdmin.post(versionsPath(res.body.flowBlockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE }).expect(403);

      const viewer = await member(tenant, 'tenant_viewer');
      expect((await viewer.get(blockPath(res.body.flowBlockId)).expect(200)).body).toEqual(res.body);
      const list = await viewer.get(`/v1/flow-blocks?q=${key}`).expect(200);
      expect(list.body).toEqual({ items: [res.body], totalCount: 1 });
    });

    it('creates tenant blocks; the key is unique per scope (duplicate_key), not across scopes', async () => {
      const [tenant, other] = [await seedTenant(t), await seedTenant(t)];
      const tenantAdmin = await member(tenant, 'tenant_admin');
      const key = uniqueKey('dup');
      const res = await tenantAdmin.post(blocksPath(tenant), { key, name: 'Tank level' }).expect(201);
      expect(res.body).toMatchObject({ scope: 'tenant', tenantId: tenant.tenantId, key, description: '' });
      const dup = await tenantAdmin.post(blocksPath(tenant), { key, name: 'Again' }).expect(409);
      expect(errorOf(dup).details).toEqual({ reason: 'duplicate_key' });
      await admin.post(blocksPath(other), { key, name: 'Same key elsewhere' }).expect(201);
      await admin.post('/v1/flow-blocks', { key, name: 'Same key, global' }).expect(201);
      const globalDup = await admin.post('/v1/flow-blocks', { key, name: 'Global twice' }).expect(409);
      expect(errorOf(globalDup).details).toEqual({ reason: 'duplicate_key' });
    });

    it('validates key, name and description', async () => {
      const tenant = await seedTenant(t);
      const bad = await admin.post(blocksPath(tenant), { key: 'Bad Key', name: ' ', description: 'x'.repeat(501) }).expect(400);
      expect(fieldsOf(bad)).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ path: 'body.key', rule: 'pattern' }),
          expect.objectContaining({ path: 'body.name' }),
          expect.objectContaining({ path: 'body.description', rule: 'max_length' }),
        ]),
      );
      await admin.post(blocksPath(tenant), { key: 'a'.repeat(128), name: 'Longest key' }).expect(201);
      await admin.post(blocksPath(tenant), { key: 'a'.repeat(129), name: 'Too long' }).expect(400);
    });

    it('holds at most 500 blocks per tenant, also under parallel creates (max_blocks)', async () => {
      const tenant = await seedTenant(t);
      await t.dataSource.query(
        `INSERT INTO flow_blocks (scope, tenant_id, key, name) SELECT 'tenant', $1, 'seeded-' || g, 'Seeded ' || g FROM generate_series(1, 499) AS g`,
        [tenant.tenantId],
      );
      const results = await Promise.all(Array.from({ length: 4 }, (_, i) => admin.post(blocksPath(tenant), { key: `parallel-${i}`, name: 'Parallel' })));
      expect(results.map((res) => res.status).sort()).toEqual([201, 409, 409, 409]);
      for (const res of results.filter((r) => r.status === 409)) {
        expect(errorOf(res).details).toMatchObject({ reason: 'max_blocks' });
      }
      const [{ count }] = await t.dataSource.query<{ count: number }[]>(`SELECT count(*)::int AS count FROM flow_blocks WHERE tenant_id = $1`, [tenant.tenantId]);
      expect(count).toBe(500);
      // Global blocks do not count against a tenant.
      await admin.post('/v1/flow-blocks', { key: uniqueKey(), name: 'Global' }).expect(201);
    });

    it('lists the tenant blocks with q, cursor and totalCount; no sources', async () => {
      const tenant = await seedTenant(t);
      const viewer = await member(tenant, 'tenant_viewer');
      const ids = [];
      for (let i = 0; i < 3; i++) ids.push(await createBlock(tenant, { key: `lister-${i}`, name: `Lister ${i}` }));
      await createVersion(ids[0]);
      const first = await viewer.get(`${blocksPath(tenant)}?limit=25&q=LISTER`).expect(200);
      expect(first.body.totalCount).toBe(3);
      expect(first.body.items.map((item: { flowBlockId: string }) => item.flowBlockId)).toEqual(ids);
      expect(first.body.items[0]).toMatchObject({ latestVersionNumber: 1 });
      expect(JSON.stringify(first.body)).not.toContain('sourceCode');
      expect((await viewer.get(`${blocksPath(tenant)}?q=lister-2`).expect(200)).body.totalCount).toBe(1);
      await viewer.get(`${blocksPath(tenant)}?limit=7`).expect(400);
      await viewer.get(`${blocksPath(tenant)}?cursor=forged`).expect(400);
    });

    it('patches name and description (audited); key is immutable; at least one property', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant, { name: 'Before' });
      const res = await admin.patch(blockPath(blockId), { name: 'After', description: 'Now described' }).expect(200);
      expect(res.body).toMatchObject({ name: 'After', description: 'Now described' });
      const audit = (await auditRows(blockId)).find((row) => row.event_type === 'flow_block.updated');
      expect(audit).toMatchObject({ action: 'update', status_code: 200, tenant_id: tenant.tenantId, metadata: { name: { before: 'Before', after: 'After' } } });
      expect(fieldsOf(await admin.patch(blockPath(blockId), {}).expect(400))).toEqual([expect.objectContaining({ rule: 'min_properties' })]);
      expect(fieldsOf(await admin.patch(blockPath(blockId), { key: 'other' }).expect(400))).toEqual([{ path: 'body.key', rule: 'unknown_property' }]);
    });
  });

  describe('permissions and tenant isolation', () => {
    it("answers a foreign tenant's block and version with the 404 of a random id", async () => {
      const [tenant, foreign] = [await seedTenant(t), await seedTenant(t)];
      const outsider = await member(foreign, 'tenant_admin');
      const blockId = await createBlock(tenant);
      const { flowBlockVersionId } = await createVersion(blockId);
      const random = randomUUID();
      const missingBlock = withoutCorrelation(await outsider.get(blockPath(random)).expect(404));
      for (const request of [
        outsider.get(blockPath(blockId)),
        outsider.patch(blockPath(blockId), { name: 'x' }),
        outsider.get(versionsPath(blockId)),
        outsider.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE }),
        outsider.get(versionPath(blockId, flowBlockVersionId)),
        outsider.post(`${versionPath(blockId, flowBlockVersionId)}/compile`),
        outsider.post(`${versionPath(blockId, flowBlockVersionId)}/release`),
        outsider.post(`${versionPath(blockId, flowBlockVersionId)}/deprecate`),
      ]) {
        expect(withoutCorrelation(await request.expect(404))).toEqual(missingBlock);
      }
      // Another block's version, or a random one, is the version's 404.
      const otherBlock = await createBlock(tenant);
      const missingVersion = withoutCorrelation(await admin.get(versionPath(otherBlock, random)).expect(404));
      expect(missingVersion).toMatchObject({ error: { details: { resourceType: 'flow_block_version' } } });
      expect(withoutCorrelation(await admin.get(versionPath(otherBlock, flowBlockVersionId)).expect(404))).toEqual(missingVersion);
      await outsider.get(blocksPath(tenant)).expect(404);
      await outsider.get(catalogPath(tenant)).expect(404);
      expect((await outsider.get(blocksPath(foreign)).expect(200)).body.totalCount).toBe(0);
    });

    it("refuses a viewer's writes and an operator's release (403 missing_permission), nothing changes", async () => {
      const tenant = await seedTenant(t);
      const [viewer, operator] = [await member(tenant, 'tenant_viewer'), await member(tenant, 'tenant_operator')];
      const blockId = await createBlock(tenant, { name: 'Kept' });
      const { flowBlockVersionId } = await createVersion(blockId);
      for (const res of [
        await viewer.post(blocksPath(tenant), { key: uniqueKey(), name: 'x' }),
        await viewer.patch(blockPath(blockId), { name: 'Changed' }),
        await viewer.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE }),
        await viewer.post(`${versionPath(blockId, flowBlockVersionId)}/compile`),
        await viewer.post(`${versionPath(blockId, flowBlockVersionId)}/release`),
        await operator.post(`${versionPath(blockId, flowBlockVersionId)}/release`),
        await operator.post(`${versionPath(blockId, flowBlockVersionId)}/deprecate`),
      ]) {
        expect(res.status).toBe(403);
        expect(errorOf(res).details).toMatchObject({ reason: 'missing_permission' });
      }
      expect((await viewer.get(blockPath(blockId)).expect(200)).body.name).toBe('Kept');
      expect(await statusOf(flowBlockVersionId)).toMatchObject({ status: 'draft', artifact: null });
      // An operator writes drafts and compiles them.
      const draft = await createVersion(blockId, {}, operator);
      expect((await operator.post(`${versionPath(blockId, draft.flowBlockVersionId)}/compile`).expect(200)).body.passed).toBe(true);
    });
  });

  describe('versions', () => {
    it('creates an immutable draft (audited with sourceSha256, never the source), lists newest first without sources', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const schema = { type: 'object', properties: { factor: { type: 'number', default: 2 } }, additionalProperties: false };
      const res = await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, configurationSchema: schema, sampleInput: SAMPLE, notes: 'first cut' }).expect(201);
      expect(res.body).toEqual({
        flowBlockVersionId: expect.stringMatching(UUID),
        flowBlockId: blockId,
        tenantId: tenant.tenantId,
        versionNumber: 1,
        status: 'draft',
        scriptContract: 'transform',
        sourceSha256: sha256(TRANSFORM),
        configurationSchema: schema,
        sampleInput: SAMPLE,
        notes: 'first cut',
        sourceCode: TRANSFORM,
        artifact: null,
        gateReport: null,
        createdAt: expect.stringMatching(ISO_MS),
        releasedAt: null,
        deprecatedAt: null,
      });
      expect(res.headers.location).toBe(versionPath(blockId, res.body.flowBlockVersionId));
      expect((await admin.get(res.headers.location!).expect(200)).body).toEqual(res.body);
      const [audit] = await auditRows(res.body.flowBlockVersionId);
      expect(audit).toMatchObject({ event_type: 'flow_block_version.created', status_code: 201, metadata: { sourceSha256: sha256(TRANSFORM), versionNumber: 1 } });
      expect(JSON.stringify(audit.metadata)).not.toContain('transform');

      const second = await createVersion(blockId, { sourceCode: 'syntax error here (' });
      expect(second).toMatchObject({ versionNumber: 2, scriptContract: null });
      const list = await admin.get(`${versionsPath(blockId)}?limit=1`).expect(200);
      expect(list.body.items.map((item: { versionNumber: number }) => item.versionNumber)).toEqual([2]);
      expect(list.body.items[0]).not.toHaveProperty('sourceCode');
      const next = await admin.get(`${versionsPath(blockId)}?limit=1&cursor=${list.body.nextCursor}`).expect(200);
      expect(next.body).toEqual({ items: [expect.objectContaining({ versionNumber: 1 })] });
      expect((await admin.get(`${versionsPath(blockId)}?status=released`).expect(200)).body).toEqual({ items: [] });
      await expect(t.dataSource.query(`UPDATE flow_block_versions SET source_code = 'x' WHERE flow_block_version_id = $1`, [res.body.flowBlockVersionId])).rejects.toThrow(/immutable/);
    });

    it('refuses an invalid configuration schema with the validator message, a remote $ref, and oversized schema and source', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const invalid = await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE, configurationSchema: { type: 'objekt' } }).expect(400);
      expect(errorOf(invalid).details.fields).toEqual([
        { path: 'body.configurationSchema', rule: 'format', message: expect.stringMatching(/not a valid JSON Schema.*must be equal to one of the allowed values/) },
      ]);
      const badKeyword = await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE, configurationSchema: { minimum: 'three' } }).expect(400);
      expect(fieldsOf(badKeyword)).toEqual([{ path: 'body.configurationSchema', rule: 'format' }]);
      const remote = await admin
        .post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE, configurationSchema: { properties: { a: { $ref: 'https://example.com/schema.json' } } } })
        .expect(400);
      expect(errorOf(remote).details.fields).toEqual([{ path: 'body.configurationSchema', rule: 'format', message: expect.stringContaining('https://example.com/schema.json') }]);
      const local = { $defs: { factor: { type: 'number' } }, properties: { factor: { $ref: '#/$defs/factor' } } };
      await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE, configurationSchema: local }).expect(201);
      const dangling = await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE, configurationSchema: { $ref: '#/$defs/missing' } }).expect(400);
      expect(fieldsOf(dangling)).toEqual([{ path: 'body.configurationSchema', rule: 'format' }]);
      const big = { description: 'x'.repeat(32 * 1024) };
      expect(fieldsOf(await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: SAMPLE, configurationSchema: big }).expect(400))).toEqual([
        { path: 'body.configurationSchema', rule: 'max_length' },
      ]);
      const longSource = `${TRANSFORM}//${'x'.repeat(102400 - TRANSFORM.length - 2)}`;
      expect(longSource.length).toBe(102400);
      await admin.post(versionsPath(blockId), { sourceCode: longSource, sampleInput: SAMPLE }).expect(201);
      expect(fieldsOf(await admin.post(versionsPath(blockId), { sourceCode: `${longSource}x`, sampleInput: SAMPLE }).expect(400))).toEqual([
        { path: 'body.sourceCode', rule: 'max_length' },
      ]);
      expect(fieldsOf(await admin.post(versionsPath(blockId), { sourceCode: '', sampleInput: SAMPLE }).expect(400))).toEqual([{ path: 'body.sourceCode', rule: 'min_length' }]);
      const missing = await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM }).expect(400);
      expect(fieldsOf(missing)).toEqual(expect.arrayContaining([expect.objectContaining({ path: 'body.sampleInput' })]));
      await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: { values: {} } }).expect(400);
      await admin.post(versionsPath(blockId), { sourceCode: TRANSFORM, sampleInput: { ...SAMPLE, extra: 1 } }).expect(400);
      // Request validation comes before the block's 404.
      await admin.post(versionsPath(randomUUID()), { sourceCode: TRANSFORM, sampleInput: SAMPLE, configurationSchema: { type: 'objekt' } }).expect(400);
      expect((await admin.get(versionsPath(blockId)).expect(200)).body.items).toHaveLength(2);
    });
  });

  describe('gates', () => {
    // The gates of another limit than the clock run where the CPU budget cannot be the first limit reached, however
    // slow or busy the machine: a second app with the longest SANDBOX_TIMEOUT_MS.
    let unhurried: { t: TestApp; admin: Api };
    beforeAll(async () => {
      const app = await startTestApp({ env: { SANDBOX_TIMEOUT_MS: '10000' } });
      unhurried = { t: app, admin: as(app, (await loginAdmin(app)).accessToken) };
    });
    afterAll(() => unhurried.t.close());

    /** Runs `body` with `t` and `admin` of the unhurried app. */
    async function withUnhurried(body: () => Promise<void>): Promise<void> {
      const saved = { t, admin };
      ({ t, admin } = unhurried);
      try {
        await body();
      } finally {
        ({ t, admin } = saved);
      }
    }

    it('compiles without changing anything', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const good = await createVersion(blockId);
      const res = await admin.post(`${versionPath(blockId, good.flowBlockVersionId)}/compile`).expect(200);
      expect(res.body).toEqual({ passed: true, gateReport: { compile: 'passed', sandbox: 'not_run', durationMs: expect.any(Number), issues: [] } });
      const bad = await createVersion(blockId, { sourceCode: 'function transform(msg) {\n  return {\n    values: ;\n  };\n}' });
      const failed = await admin.post(`${versionPath(blockId, bad.flowBlockVersionId)}/compile`).expect(200);
      expect(failed.body).toMatchObject({
        passed: false,
        gateReport: { compile: 'failed', issues: [{ severity: 'error', code: 'syntax_error', path: 'sourceCode', line: 3, column: expect.any(Number) }] },
      });
      expect(await statusOf(good.flowBlockVersionId)).toEqual({ status: 'draft', artifact: null });
      expect((await auditRows(good.flowBlockVersionId)).map((row) => row.event_type)).toEqual(['flow_block_version.created']);
    });

    it.each([
      ['syntax_error', 'compile', 'function transform(msg) {\n  return msg +;\n}', 2],
      ['missing_transform', 'compile', 'function transfrom(msg) {\n  return msg;\n}', undefined],
      ['runtime_error', 'sandbox', 'function transform(msg) {\n  var x = null;\n  return { values: { a: x.field } };\n}', 3],
      ['timeout', 'sandbox', 'function transform(msg) {\n  for (;;) {}\n}', undefined],
      ['memory_limit', 'sandbox', 'function transform(msg) {\n  return { payload: new Uint8Array(2 ** 31).length };\n}', undefined],
      ['invalid_output', 'sandbox', 'function transform(msg) {\n  return { values: "not an object" };\n}', undefined],
      ['output_too_large', 'sandbox', 'function transform(msg) {\n  return { payload: "x".repeat(70000) };\n}', undefined],
    ])('fails the release with 422 FLOW_FAILURE %s (gate %s), changes nothing and audits the failure', (code, gate, sourceCode, line) =>
      (code === 'timeout' ? (body: () => Promise<void>) => body() : withUnhurried)(async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const version = await createVersion(blockId, { sourceCode });
      const res = await admin.post(`${versionPath(blockId, version.flowBlockVersionId)}/release`).expect(422);
      expect(errorOf(res).code).toBe('FLOW_FAILURE');
      expect(errorOf(res).details).toEqual({ gate, issues: [expect.objectContaining({ severity: 'error', code, path: 'sourceCode', message: expect.any(String) })] });
      const [issue] = errorOf(res).details.issues as { line?: number; column?: number }[];
      if (line !== undefined) expect(issue).toMatchObject({ line, column: expect.any(Number) });
      if (line !== undefined) expect(issue.column).toBeGreaterThanOrEqual(1);
      expect(await statusOf(version.flowBlockVersionId)).toEqual({ status: 'draft', artifact: null });
      const audit = await auditRows(version.flowBlockVersionId);
      expect(audit.map((row) => row.event_type)).toEqual(['flow_block_version.created', 'flow_block_version.release_failed']);
      expect(audit[1]).toMatchObject({
        action: 'release',
        outcome: 'failure',
        status_code: 422,
        tenant_id: tenant.tenantId,
        metadata: { gate, issueCodes: [code], sourceSha256: sha256(sourceCode), versionNumber: 1 },
      });
    }), 60_000);

    it('releases with the artifact and gate report (configuration defaults from the schema); a second release and a draft deprecate are 409', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const schema = { type: 'object', properties: { factor: { type: 'number', default: 3 } } };
      const draft = await createVersion(blockId, { configurationSchema: schema });
      const deprecateDraft = await admin.post(`${versionPath(blockId, draft.flowBlockVersionId)}/deprecate`).expect(409);
      expect(errorOf(deprecateDraft).details).toEqual({ reason: 'invalid_state', currentStatus: 'draft' });

      const res = await admin.post(`${versionPath(blockId, draft.flowBlockVersionId)}/release`).expect(200);
      expect(res.body).toMatchObject({
        status: 'released',
        scriptContract: 'transform',
        sourceCode: TRANSFORM,
        releasedAt: expect.stringMatching(ISO_MS),
        deprecatedAt: null,
        artifact: { engine: 'isolated-vm', engineVersion: expect.stringMatching(/^\d+\.\d+\.\d+/), sha256: sha256(TRANSFORM), sizeBytes: Buffer.byteLength(TRANSFORM), compiledAt: expect.stringMatching(ISO_MS) },
        gateReport: { compile: 'passed', sandbox: 'passed', durationMs: expect.any(Number), issues: [], sample: { result: { values: { level: 21 } }, logs: [] } },
      });
      expect((await admin.get(versionPath(blockId, draft.flowBlockVersionId)).expect(200)).body).toEqual(res.body);
      await expect(
        t.dataSource.query(`UPDATE flow_block_versions SET artifact = '{"engine": "other"}' WHERE flow_block_version_id = $1`, [draft.flowBlockVersionId]),
      ).rejects.toThrow(/set only by its release/);

      const twice = await admin.post(`${versionPath(blockId, draft.flowBlockVersionId)}/release`).expect(409);
      expect(errorOf(twice).details).toEqual({ reason: 'invalid_state', currentStatus: 'released' });

      const deprecated = await admin.post(`${versionPath(blockId, draft.flowBlockVersionId)}/deprecate`).expect(200);
      expect(deprecated.body).toMatchObject({ status: 'deprecated', deprecatedAt: expect.stringMatching(ISO_MS), artifact: res.body.artifact });
      for (const action of ['release', 'deprecate']) {
        const again = await admin.post(`${versionPath(blockId, draft.flowBlockVersionId)}/${action}`).expect(409);
        expect(errorOf(again).details).toEqual({ reason: 'invalid_state', currentStatus: 'deprecated' });
      }
      const audit = await auditRows(draft.flowBlockVersionId);
      expect(audit.map((row) => [row.event_type, row.status_code])).toEqual([
        ['flow_block_version.created', 201],
        ['flow_block_version.released', 200],
        ['flow_block_version.deprecated', 200],
      ]);
      expect(audit[1].metadata).toMatchObject({ flowBlockId: blockId, sourceSha256: sha256(TRANSFORM), scriptContract: 'transform', status: { before: 'draft', after: 'released' } });
    });

    it('lets only one of two parallel releases win', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const { flowBlockVersionId } = await createVersion(blockId);
      const results = await Promise.all([1, 2].map(() => admin.post(`${versionPath(blockId, flowBlockVersionId)}/release`)));
      expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    });
  });

  describe('payload codecs through the API', () => {
    it.each([
      ['a TypeScript-compiled bundle ("use strict"; first)', 'strict-typescript-bundle.js', [0x43, 0x00, 0xd7, 0xff, 0x9c], { type: 'temperature', channel1: 21.5, channel2: -10 }],
      ["a hand-written strict codec ('use strict'; first)", 'strict-hand-written.js', [0x01, 0x2c], { level: 3, strict: true }],
    ])('releases %s: its top-level decodeUplink is found', async (_name, file, payload, decoded) => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const version = await createVersion(blockId, { sourceCode: codec(file), sampleInput: { payload, input: { connectionData: { fPort: 1 } } } });
      expect(version.scriptContract).toBe('decodeUplink');
      const released = await admin.post(`${versionPath(blockId, version.flowBlockVersionId)}/release`).expect(200);
      expect(released.body).toMatchObject({ status: 'released', scriptContract: 'decodeUplink', gateReport: { sample: { result: { payload: decoded } } } });
    });

    it('compiles a TTN codec and releases it with its sample decoded exactly', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant, { key: 'ttn-environment' });
      const source = codec('ttn-environment.js');
      const version = await createVersion(blockId, {
        sourceCode: source,
        sampleInput: { payload: [0xfd, 0xf3, 0x5b, 0x00, 0x50, 0x7d, 0x44, 0x02, 0x64, 0x0b, 0x86], input: { connectionData: { fPort: 1 } } },
      });
      expect(version.scriptContract).toBe('decodeUplink');
      const compiled = await admin.post(`${versionPath(blockId, version.flowBlockVersionId)}/compile`).expect(200);
      expect(compiled.body).toMatchObject({ passed: true, gateReport: { compile: 'passed', issues: [] } });
      const released = await admin.post(`${versionPath(blockId, version.flowBlockVersionId)}/release`).expect(200);
      expect(released.body).toMatchObject({ status: 'released', scriptContract: 'decodeUplink', artifact: { sha256: sha256(source) } });
      expect(released.body.gateReport.sample).toEqual({
        result: { payload: { temperature: -5.25, humidity: 45.5, pressure: 1013.25, co2: 612, battery: 2.95 } },
        logs: ['warning: battery low: 2.95 V'],
        logsTruncated: false,
      });
    });

    it('releases a global ChirpStack v3 codec with its variables defaulted from the schema; a codec error fails the gate', async () => {
      const blockId = await createBlock(null, { key: uniqueKey('cs3-meter') });
      const schema = { type: 'object', properties: { litersPerPulse: { type: 'number', default: 0.5 } } };
      const sampleInput = { payload: [0x40, 0xe2, 0x01, 0x00, 0xfd, 0x03], input: { connectionData: { fPort: 5 } } };
      const version = await createVersion(blockId, { sourceCode: codec('chirpstack-v3-meter.js'), configurationSchema: schema, sampleInput });
      expect(version).toMatchObject({ tenantId: null, scriptContract: 'Decode' });
      const released = await admin.post(`${versionPath(blockId, version.flowBlockVersionId)}/release`).expect(200);
      expect(released.body.gateReport.sample.result).toEqual({ payload: { volume_liters: 61728, temperature: -3, leak: true, reverse_flow: true } });

      const unknownPort = await createVersion(blockId, { sourceCode: codec('chirpstack-v3-meter.js'), sampleInput: { payload: [0], input: { connectionData: { fPort: 7 } } } });
      const failed = await admin.post(`${versionPath(blockId, unknownPort.flowBlockVersionId)}/release`).expect(422);
      expect(errorOf(failed).details).toMatchObject({ gate: 'sandbox', issues: [{ code: 'runtime_error', message: expect.stringContaining('unknown fPort 7') }] });
      const [audit] = (await auditRows(unknownPort.flowBlockVersionId)).filter((row) => row.outcome === 'failure');
      expect(audit).toMatchObject({ tenant_id: null, event_type: 'flow_block_version.release_failed' });
    });

    it('releases the docs/flows.md example: a TTN codec with a base64 uplink as its sample', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant, { key: 'lht65-ttn', name: 'LHT65 (TTN codec)' });
      const version = await createVersion(blockId, {
        sourceCode: codec('readme-lht65-style.js'),
        sampleInput: { payload: 'y6QJbQI2AX//f/8=', input: { connectionData: { fPort: 2 } } },
        notes: 'vendor formatter v1.2',
      });
      expect(version).toMatchObject({ status: 'draft', scriptContract: 'decodeUplink' });
      const tried = await admin
        .post(`${versionPath(blockId, version.flowBlockVersionId)}/run`, { input: { payload: 'y6QJbQI2AX//f/8=', input: { connectionData: { fPort: 2 } } } })
        .expect(200);
      expect(tried.body).toEqual({ ok: true, result: { payload: { BatV: 2.98, TempC_SHT: 24.13, Hum_SHT: 56.6 } }, logs: [], logsTruncated: false, durationMs: expect.any(Number) });
      const released = await admin.post(`${versionPath(blockId, version.flowBlockVersionId)}/release`).expect(200);
      expect(released.body.gateReport.sample.result).toEqual({ payload: { BatV: 2.98, TempC_SHT: 24.13, Hum_SHT: 56.6 } });

      // What is stored is enough for the flow engine to run the released version.
      const store = t.app.get(FlowBlockStore);
      const runnable = await store.runnableVersion(t.dataSource.manager, version.flowBlockVersionId);
      expect(runnable).toMatchObject({ tenantId: tenant.tenantId, status: 'released', artifact: { scriptContract: 'decodeUplink', sha256: released.body.artifact.sha256 } });
      const outcome = await t.app.get(ScriptSandbox).invoke(
        tenant.tenantId,
        version.flowBlockVersionId,
        runnable!.artifact,
        { payload: 'y6QJbQI2AX//f/8=', values: {}, input: { connectionData: { fPort: 2 } } },
        { parameters: {}, configuration: {}, device: { deviceId: randomUUID(), deviceTypeId: randomUUID(), metadata: {} }, tenantId: tenant.tenantId, observedAt: new Date().toISOString(), mode: 'live', nodeId: 'decoder' },
      );
      expect(outcome).toMatchObject({ ok: true, result: { payload: { BatV: 2.98, TempC_SHT: 24.13, Hum_SHT: 56.6 } } });
      const draft = await createVersion(blockId);
      expect(await store.runnableVersion(t.dataSource.manager, draft.flowBlockVersionId)).toBeNull();
    });

    it('runs a codec over 30 KB and stops a codec that loops', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const large = codec('large-multisensor.js');
      expect(large.length).toBeGreaterThan(30 * 1024);
      const compiled = await createVersion(blockId, { sourceCode: large, sampleInput: { payload: [0x01], input: { connectionData: { fPort: 1 } } } });
      expect((await admin.post(`${versionPath(blockId, compiled.flowBlockVersionId)}/compile`).expect(200)).body.passed).toBe(true);
      const looping = await createVersion(blockId, { sourceCode: 'function decodeUplink(input) {\n  while (true) {}\n}', sampleInput: { payload: [1] } });
      const res = await admin.post(`${versionPath(blockId, looping.flowBlockVersionId)}/release`).expect(422);
      expect(errorOf(res).details).toMatchObject({ gate: 'sandbox', issues: [{ code: 'timeout' }] });
    });
  });

  describe('dry runs (the codec playground)', () => {
    /** A TTN codec that logs, warns and fails on an unknown port, as vendors write them. */
    const TTN_CODEC = [
      'function decodeUplink(input) {',
      '  console.log("fPort " + input.fPort + ", " + input.bytes.length + " bytes");',
      '  if (input.fPort !== 1) return { errors: ["unknown fPort " + input.fPort] };',
      '  var level = (input.bytes[0] << 8) | input.bytes[1];',
      '  return {',
      '    data: { level_mm: level, percent: Math.round((level / (input.variables.depthMm || 1000)) * 100), at: input.recvTime.toISOString() },',
      '    warnings: input.bytes[2] < 20 ? ["battery low"] : [],',
      '  };',
      '}',
      '',
    ].join('\n');
    const THROWING = 'function transform(msg) {\n  var reading = msg.payload.reading;\n  return { values: { level: reading.level } };\n}\n';
    const runPath = (blockId: string, versionId: string) => `${versionPath(blockId, versionId)}/run`;
    const bytesOf = (hex: string) => [...Buffer.from(hex, 'hex')];
    const versionRow = async (versionId: string) =>
      (await t.dataSource.query<Record<string, unknown>[]>(`SELECT * FROM flow_block_versions WHERE flow_block_version_id = $1`, [versionId]))[0];
    const auditCount = async () => Number((await t.dataSource.query<{ n: string }[]>(`SELECT count(*) AS n FROM audit_log`))[0]!.n);

    it('runs a TTN codec draft on bytes (base64 or a byte array): its output, logs and warnings; nothing stored, nothing audited', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const schema = { type: 'object', properties: { depthMm: { type: 'integer', default: 2000 } } };
      const draft = await createVersion(blockId, { sourceCode: TTN_CODEC, configurationSchema: schema, sampleInput: { payload: [0, 0, 99], input: { connectionData: { fPort: 1 } } } });
      expect(draft.scriptContract).toBe('decodeUplink');
      const before = await versionRow(draft.flowBlockVersionId);
      const audits = await auditCount();

      const observedAt = '2026-05-04T10:20:30.000Z';
      const base64 = Buffer.from('03e80a', 'hex').toString('base64');
      const run = await admin.post(runPath(blockId, draft.flowBlockVersionId), { input: { payload: base64, input: { connectionData: { fPort: 1 }, observedAt } } }).expect(200);
      expect(run.body).toEqual({
        ok: true,
        result: { payload: { level_mm: 1000, percent: 50, at: observedAt } },
        logs: ['fPort 1, 3 bytes', 'warning: battery low'],
        logsTruncated: false,
        durationMs: expect.any(Number),
      });
      // Bytes typed as hex go as an array; a configuration overrides the schema's defaults.
      const withConfiguration = await admin
        .post(runPath(blockId, draft.flowBlockVersionId), { input: { payload: bytesOf('01f464'), input: { connectionData: { fPort: 1 } } }, configuration: { depthMm: 1000 } })
        .expect(200);
      expect(withConfiguration.body).toMatchObject({ ok: true, result: { payload: { level_mm: 500, percent: 50 } }, logs: ['fPort 1, 3 bytes'] });
      // The codec's own error, and a payload that is no bytes, are failed runs, not request errors.
      const wrongPort = await admin.post(runPath(blockId, draft.flowBlockVersionId), { input: { payload: base64, input: { connectionData: { fPort: 9 } } } }).expect(200);
      expect(wrongPort.body).toEqual({
        ok: false,
        error: { code: 'runtime_error', message: expect.stringContaining('unknown fPort 9') },
        logs: ['fPort 9, 3 bytes'],
        logsTruncated: false,
        durationMs: expect.any(Number),
      });
      const notBytes = await admin.post(runPath(blockId, draft.flowBlockVersionId), { input: { payload: { level: 1 } } }).expect(200);
      expect(notBytes.body).toMatchObject({ ok: false, error: { code: 'runtime_error', message: expect.stringContaining('payload bytes') }, logs: [] });

      expect(await versionRow(draft.flowBlockVersionId)).toEqual(before);
      expect(await auditCount()).toBe(audits);
      expect((await auditRows(draft.flowBlockVersionId)).map((row) => row.event_type)).toEqual(['flow_block_version.created']);
    });

    it('reports a throw with its line and column, a limit, and an invalid result; a source that does not compile is 422', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const throwing = await createVersion(blockId, { sourceCode: THROWING });
      const res = await admin.post(runPath(blockId, throwing.flowBlockVersionId), { input: { payload: { other: 1 } } }).expect(200);
      expect(res.body).toEqual({
        ok: false,
        error: { code: 'runtime_error', message: expect.stringMatching(/TypeError/), line: 3, column: expect.any(Number) },
        logs: [],
        logsTruncated: false,
        durationMs: expect.any(Number),
      });
      expect(res.body.error.column).toBeGreaterThanOrEqual(1);
      // The same script runs on a message it can read.
      const fine = await admin.post(runPath(blockId, throwing.flowBlockVersionId), { input: { payload: { reading: { level: 4 } } } }).expect(200);
      expect(fine.body).toMatchObject({ ok: true, result: { values: { level: 4 } } });

      const looping = await createVersion(blockId, { sourceCode: 'function transform(msg) {\n  for (;;) {}\n}' });
      const timedOut = await admin.post(runPath(blockId, looping.flowBlockVersionId), { input: { payload: 1 } }).expect(200);
      expect(timedOut.body).toMatchObject({ ok: false, error: { code: 'timeout' } });
      const invalid = await createVersion(blockId, { sourceCode: 'function transform(msg) {\n  return { values: "not an object" };\n}' });
      expect((await admin.post(runPath(blockId, invalid.flowBlockVersionId), { input: { payload: 1 } }).expect(200)).body).toMatchObject({ ok: false, error: { code: 'invalid_output' } });
      const filtering = await createVersion(blockId, { sourceCode: 'function transform(msg) {\n  console.log("dropped");\n  return null;\n}' });
      expect((await admin.post(runPath(blockId, filtering.flowBlockVersionId), { input: { payload: 1 } }).expect(200)).body).toMatchObject({ ok: true, result: null, logs: ['dropped'] });

      const broken = await createVersion(blockId, { sourceCode: 'function transform(msg) {\n  return {\n    values: ;\n  };\n}' });
      const before = await versionRow(broken.flowBlockVersionId);
      const refused = await admin.post(runPath(blockId, broken.flowBlockVersionId), { input: { payload: 1 } }).expect(422);
      expect(errorOf(refused).code).toBe('FLOW_FAILURE');
      expect(errorOf(refused).details).toEqual({ gate: 'compile', issues: [expect.objectContaining({ code: 'syntax_error', path: 'sourceCode', line: 3, column: expect.any(Number) })] });
      const missing = await createVersion(blockId, { sourceCode: 'function transfrom(msg) {\n  return msg;\n}' });
      expect(errorOf(await admin.post(runPath(blockId, missing.flowBlockVersionId), { input: { payload: 1 } }).expect(422)).details).toMatchObject({
        gate: 'compile',
        issues: [{ code: 'missing_transform' }],
      });
      expect(await versionRow(broken.flowBlockVersionId)).toEqual(before);
      expect((await auditRows(broken.flowBlockVersionId)).map((row) => row.event_type)).toEqual(['flow_block_version.created']);
    });

    it('runs on a stored raw message of the tenant: its decoded payload, connection data and times become the input', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const codecDraft = await createVersion(blockId, { sourceCode: TTN_CODEC, sampleInput: { payload: [0, 0, 99], input: { connectionData: { fPort: 1 } } } });
      const observedAt = '2026-05-04T08:00:00.000Z';
      const message = await seedRawMessage(t, { tenantId: tenant.tenantId, rawPayload: { encoding: 'hex', data: '01F464' }, connectionData: { fPort: 1, rssi: -80 }, observedAt });
      const echo = await createVersion(blockId, { sourceCode: 'function transform(msg, ctx) {\n  return { values: { payload: msg.payload, input: msg.input, p: ctx.parameters } };\n}\n' });
      const before = await versionRow(codecDraft.flowBlockVersionId);
      const audits = await auditCount();
      const res = await admin.post(runPath(blockId, codecDraft.flowBlockVersionId), { rawIngestionMessageId: message.rawIngestionMessageId, configuration: { depthMm: 1000 } }).expect(200);
      expect(res.body).toEqual({
        ok: true,
        result: { payload: { level_mm: 500, percent: 50, at: observedAt } },
        logs: ['fPort 1, 3 bytes'],
        logsTruncated: false,
        durationMs: expect.any(Number),
      });

      // A transform sees the message as a flow's first node would: payload decoded, input from the message.
      const json = await seedRawMessage(t, { tenantId: tenant.tenantId, rawPayload: { encoding: 'json', data: '{"level": 7}' }, connectionData: { port: 3 }, observedAt: null, correlationId: 'corr-run' });
      const echoed = await admin.post(runPath(blockId, echo.flowBlockVersionId), { rawIngestionMessageId: json.rawIngestionMessageId, parameters: { k: 1 } }).expect(200);
      expect(echoed.body.result.values).toEqual({
        payload: { level: 7 },
        input: expect.objectContaining({
          rawPayload: { encoding: 'json', data: '{"level": 7}' },
          connectionData: { port: 3 },
          observedAt: json.receivedAt,
          rawReceivedAt: json.receivedAt,
          correlationId: 'corr-run',
        }),
        p: { k: 1 },
      });
      expect(await versionRow(codecDraft.flowBlockVersionId)).toEqual(before);
      expect(await auditCount()).toBe(audits);
    });

    it("answers another tenant's block or raw message, and a missing message, with their 404s", async () => {
      const [tenant, foreign] = [await seedTenant(t), await seedTenant(t)];
      const blockId = await createBlock(tenant);
      const { flowBlockVersionId } = await createVersion(blockId);
      const outsider = await member(foreign, 'tenant_admin');
      const missingBlock = withoutCorrelation(await outsider.post(runPath(randomUUID(), randomUUID()), { input: SAMPLE }).expect(404));
      expect(withoutCorrelation(await outsider.post(runPath(blockId, flowBlockVersionId), { input: SAMPLE }).expect(404))).toEqual(missingBlock);
      const otherBlock = await createBlock(tenant);
      expect((await admin.post(runPath(otherBlock, flowBlockVersionId), { input: SAMPLE }).expect(404)).body.error.details).toEqual({ resourceType: 'flow_block_version' });

      const foreignMessage = await seedRawMessage(t, { tenantId: foreign.tenantId, rawPayload: { encoding: 'hex', data: '07' } });
      const unrouted = await seedRawMessage(t, { tenantId: null, rawPayload: { encoding: 'hex', data: '07' } });
      const missingMessage = withoutCorrelation(await admin.post(runPath(blockId, flowBlockVersionId), { rawIngestionMessageId: randomUUID() }).expect(404));
      expect(missingMessage).toMatchObject({ error: { details: { resourceType: 'raw_ingestion_message' } } });
      for (const id of [foreignMessage.rawIngestionMessageId, unrouted.rawIngestionMessageId]) {
        expect(withoutCorrelation(await admin.post(runPath(blockId, flowBlockVersionId), { rawIngestionMessageId: id }).expect(404))).toEqual(missingMessage);
      }
      // A global block (platform administrators only) may run any tenant's message.
      const globalBlock = await createBlock(null);
      const globalVersion = await createVersion(globalBlock);
      expect((await admin.post(runPath(globalBlock, globalVersion.flowBlockVersionId), { rawIngestionMessageId: foreignMessage.rawIngestionMessageId }).expect(200)).body).toMatchObject({
        ok: true,
        result: { values: { level: 7 } },
      });
      const noPayload = await seedRawMessage(t, { tenantId: tenant.tenantId });
      await t.dataSource.query(`UPDATE raw_ingestion_messages SET raw_payload = NULL WHERE raw_ingestion_message_id = $1`, [noPayload.rawIngestionMessageId]);
      expect(fieldsOf(await admin.post(runPath(blockId, flowBlockVersionId), { rawIngestionMessageId: noPayload.rawIngestionMessageId }).expect(400))).toEqual([
        { path: 'body.rawIngestionMessageId', rule: 'format' },
      ]);
      // A payload that does not decode (ingestion never stores one; an older row might hold one) names why, as a live run would.
      const badPayload = await seedRawMessage(t, { tenantId: tenant.tenantId });
      await t.dataSource.query(`UPDATE raw_ingestion_messages SET raw_payload = '{"encoding":"hex","data":"XYZ"}' WHERE raw_ingestion_message_id = $1`, [badPayload.rawIngestionMessageId]);
      const undecodable = await admin.post(runPath(blockId, flowBlockVersionId), { rawIngestionMessageId: badPayload.rawIngestionMessageId }).expect(400);
      expect(undecodable.body.error.details.fields).toEqual([
        { path: 'body.rawIngestionMessageId', rule: 'format', message: "The raw message's payload does not decode: rawPayload.data is not an even number of hex digits." },
      ]);
    });

    it("refuses a viewer (missing_permission) and a tenant user on a global block (platform_admin_required); an operator runs", async () => {
      const tenant = await seedTenant(t);
      const [viewer, operator] = [await member(tenant, 'tenant_viewer'), await member(tenant, 'tenant_operator')];
      const blockId = await createBlock(tenant);
      const { flowBlockVersionId } = await createVersion(blockId);
      const denied = await viewer.post(runPath(blockId, flowBlockVersionId), { input: SAMPLE }).expect(403);
      expect(errorOf(denied).details).toMatchObject({ reason: 'missing_permission', permission: 'blocks:write' });
      expect((await operator.post(runPath(blockId, flowBlockVersionId), { input: SAMPLE }).expect(200)).body).toMatchObject({ ok: true, result: { values: { level: 7 } } });
      const globalBlock = await createBlock(null);
      const globalVersion = await createVersion(globalBlock);
      const notAdmin = await operator.post(runPath(globalBlock, globalVersion.flowBlockVersionId), { input: SAMPLE }).expect(403);
      expect(errorOf(notAdmin).details).toMatchObject({ reason: 'platform_admin_required' });
    });

    it('refuses malformed requests with 400 before any lookup', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const { flowBlockVersionId } = await createVersion(blockId);
      const path = runPath(blockId, flowBlockVersionId);
      const message = await seedRawMessage(t, { tenantId: tenant.tenantId });
      const cases: [unknown, { path: string; rule: string }][] = [
        [{}, { path: 'body.input', rule: 'required' }],
        [{ input: SAMPLE, rawIngestionMessageId: message.rawIngestionMessageId }, { path: 'body.rawIngestionMessageId', rule: 'mismatch' }],
        [{ input: { values: {} } }, { path: 'body.input.payload', rule: 'required' }],
        [{ input: 'AQI=' }, { path: 'body.input', rule: 'type' }],
        [{ input: null }, { path: 'body.input', rule: 'required' }],
        [{ input: { ...SAMPLE, extra: 1 } }, { path: 'body.input.extra', rule: 'unknown_property' }],
        [{ input: { ...SAMPLE, input: [1] } }, { path: 'body.input.input', rule: 'type' }],
        [{ rawIngestionMessageId: 'not-a-uuid' }, { path: 'body.rawIngestionMessageId', rule: 'format' }],
        [{ input: SAMPLE, configuration: 'x' }, { path: 'body.configuration', rule: 'type' }],
        [{ input: { ...SAMPLE, configuration: { a: 1 } }, configuration: { a: 2 } }, { path: 'body.configuration', rule: 'mismatch' }],
        [{ input: { ...SAMPLE, parameters: {} }, parameters: {} }, { path: 'body.parameters', rule: 'mismatch' }],
        [{ input: SAMPLE, sourceCode: 'x' }, { path: 'body.sourceCode', rule: 'unknown_property' }],
      ];
      for (const [body, field] of cases) {
        const res = await admin.post(path, body as Record<string, unknown>);
        expect([res.status, fieldsOf(res)]).toEqual([400, [field]]);
        // Request rules come before the block's 404.
        expect((await admin.post(runPath(randomUUID(), randomUUID()), body as Record<string, unknown>)).status).toBe(400);
      }
    });

    it('answers odd messages (deep nesting, lone surrogates, a long byte array, a non-byte array for a codec) below 500', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const echo = await createVersion(blockId, { sourceCode: 'function transform(msg) {\n  return { payload: msg.payload };\n}\n' });
      const codecVersion = await createVersion(blockId, { sourceCode: TTN_CODEC, sampleInput: { payload: [0, 0, 99], input: { connectionData: { fPort: 1 } } } });
      let deep: unknown = 1;
      for (let i = 0; i < 2000; i++) deep = [deep];
      const odd: unknown[] = [deep, '\ud800 lone', Array.from({ length: 60000 }, () => 255), [1, 256, -1], { __proto__: { polluted: true } }, 'x'.repeat(200000)];
      for (const version of [echo, codecVersion]) {
        for (const payload of odd) {
          const res = await admin.post(runPath(blockId, version.flowBlockVersionId), { input: { payload, input: { connectionData: { fPort: 1 } } } });
          expect(res.status).toBeLessThan(500);
          if (res.status === 200) expect(typeof res.body.ok).toBe('boolean');
          else expect(res.body.error.code).toEqual(expect.any(String));
        }
      }
    });

    it('runs drafts, released and deprecated versions alike, each on its own source', async () => {
      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const released = await releasedVersion(blockId);
      const deprecated = await releasedVersion(blockId, { sourceCode: TRANSFORM.replace('level:', 'old:') });
      await admin.post(`${versionPath(blockId, deprecated)}/deprecate`).expect(200);
      const draft = await createVersion(blockId, { sourceCode: TRANSFORM.replace('level:', 'draft:') });
      const rows = await Promise.all([released, deprecated, draft.flowBlockVersionId].map(versionRow));
      const outputs = [];
      for (const id of [released, deprecated, draft.flowBlockVersionId]) {
        outputs.push((await admin.post(runPath(blockId, id), { input: { payload: [5] }, configuration: { factor: 2 } }).expect(200)).body.result);
      }
      expect(outputs).toEqual([{ values: { level: 10 } }, { values: { old: 10 } }, { values: { draft: 10 } }]);
      expect(await Promise.all([released, deprecated, draft.flowBlockVersionId].map(versionRow))).toEqual(rows);
    });
  });

  describe('configuration checks for flows', () => {
    it('validates a node configuration against a built-in block or a custom version', async () => {
      const configurations = t.app.get(BlockConfigurationService);
      expect(await configurations.validateConfiguration({ builtIn: { key: 'scale', version: 1 } }, { fieldKey: 'temperature', multiply: 0.1 })).toEqual({ valid: true });
      const wrong = await configurations.validateConfiguration({ builtIn: { key: 'scale', version: 1 } }, { multiply: 'ten' });
      expect(wrong).toMatchObject({ valid: false, unknownBlock: false });
      expect(wrong.valid === false && wrong.issues.length).toBeGreaterThanOrEqual(1);
      expect(await configurations.validateConfiguration({ builtIn: { key: 'scale', version: 9 } }, {})).toMatchObject({ valid: false, unknownBlock: true });

      const tenant = await seedTenant(t);
      const blockId = await createBlock(tenant);
      const schema = { type: 'object', required: ['factor'], properties: { factor: { type: 'number', minimum: 0 } } };
      const withSchema = await createVersion(blockId, { configurationSchema: schema });
      const ref = { flowBlockVersionId: withSchema.flowBlockVersionId };
      expect(await configurations.validateConfiguration(ref, { factor: 2 })).toEqual({ valid: true });
      expect(await configurations.validateConfiguration(ref, { factor: -1 })).toEqual({
        valid: false,
        unknownBlock: false,
        issues: [{ path: '/factor', message: 'must be >= 0' }],
      });
      const withoutSchema = await createVersion(blockId);
      expect(await configurations.validateConfiguration({ flowBlockVersionId: withoutSchema.flowBlockVersionId }, { anything: true })).toEqual({ valid: true });
      expect(await configurations.validateConfiguration({ flowBlockVersionId: randomUUID() }, {})).toMatchObject({ valid: false, unknownBlock: true });
    });
  });

  describe('catalog', () => {
    it('lists built-ins, then global and own released blocks with their released versions; never another tenant\'s', async () => {
      const [tenant, other] = [await seedTenant(t), await seedTenant(t)];
      const viewer = await member(tenant, 'tenant_viewer');
      const schema = { type: 'object', properties: { factor: { type: 'number', default: 1 } } };
      const own = await createBlock(tenant, { key: 'own-block', name: 'Own' });
      const ownV1 = await releasedVersion(own, { configurationSchema: schema });
      const ownV2 = await releasedVersion(own);
      await createVersion(own);
      const deprecatedOnly = await createBlock(tenant, { key: 'deprecated-only' });
      const gone = await releasedVersion(deprecatedOnly);
      await admin.post(`${versionPath(deprecatedOnly, gone)}/deprecate`).expect(200);
      await createBlock(tenant, { key: 'draft-only' }).then((id) => createVersion(id));
      const foreign = await createBlock(other, { key: 'foreign-block' });
      await releasedVersion(foreign);
      const global = await createBlock(null, { key: uniqueKey('catalog-global') });
      const globalV1 = await releasedVersion(global);

      const res = await viewer.get(catalogPath(tenant)).expect(200);
      const items = res.body.items as Record<string, unknown>[];
      expect(items.filter((item) => item.type === 'builtin').map((item) => item.key)).toEqual(['decode-binary', 'map-field', 'scale', 'filter', 'email-action']);
      expect(items[0]).toMatchObject({ type: 'builtin', version: 1, ports: ['out'], configurationSchema: expect.objectContaining({ type: 'object' }) });
      const custom = items.filter((item) => item.type === 'custom');
      expect(custom.map((item) => item.flowBlockId)).toEqual(expect.arrayContaining([own, global]));
      expect(custom.map((item) => item.flowBlockId)).not.toEqual(expect.arrayContaining([foreign]));
      expect(custom.map((item) => item.flowBlockId)).not.toContain(deprecatedOnly);
      expect(custom.find((item) => item.flowBlockId === own)).toEqual({
        type: 'custom',
        flowBlockId: own,
        scope: 'tenant',
        key: 'own-block',
        name: 'Own',
        description: '',
        versions: [
          { flowBlockVersionId: ownV2, versionNumber: 2, scriptContract: 'transform', ports: ['out'], configurationSchema: null, releasedAt: expect.stringMatching(ISO_MS) },
          { flowBlockVersionId: ownV1, versionNumber: 1, scriptContract: 'transform', ports: ['out'], configurationSchema: schema, releasedAt: expect.stringMatching(ISO_MS) },
        ],
      });
      expect(custom.find((item) => item.flowBlockId === global)).toMatchObject({ scope: 'global', versions: [{ flowBlockVersionId: globalV1 }] });
      expect(JSON.stringify(res.body)).not.toContain('sourceCode');
    });
  });
});
