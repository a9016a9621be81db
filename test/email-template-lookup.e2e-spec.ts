import { randomUUID } from 'node:crypto';
import { loginAdmin } from './support/auth';
import { seedDeviceType, seedField, SeededDeviceType } from './support/devices';
import { bend, blockNode, pipelineGraph } from './support/flows';
import { as } from './support/http';
import { seedTenant, SeededTenant } from './support/tenancy';
import { startTestApp, TestApp } from './support/test-app';

/*
 * The e-mail template lookup flow validation uses: a template of this tenant with an active version is fine, one
 * without an active version is the warning `email_template_inactive`, one that does not exist (or belongs to
 * another tenant) is the error `unknown_email_template`. Templates are seeded through SQL here, in states chosen directly
 * (the templates API and the same checks through it: email-templates.e2e-spec.ts).
 */
describe('e-mail template lookup in flow validation', () => {
  let t: TestApp;
  let admin: ReturnType<typeof as>;
  let tenant: SeededTenant;
  let other: SeededTenant;
  let type: SeededDeviceType;
  let flowId: string;
  let counter = 0;

  async function seedTemplate(owner: SeededTenant, versions: ('draft' | 'released')[], activate: boolean): Promise<string> {
    const [{ email_template_id: id }] = await t.dataSource.query<{ email_template_id: string }[]>(
      `INSERT INTO email_templates (tenant_id, key, name) VALUES ($1, $2, 'Alert') RETURNING email_template_id`,
      [owner.tenantId, `alert-${process.pid}-${++counter}`],
    );
    let released: string | null = null;
    for (const [index, status] of versions.entries()) {
      const [{ email_template_version_id: versionId }] = await t.dataSource.query<{ email_template_version_id: string }[]>(
        `INSERT INTO email_template_versions (email_template_id, tenant_id, version_number, status, subject, body_text, released_at)
         VALUES ($1, $2, $3, $4::varchar, 'Leak at {{device.name}}', 'Level {{values.level}}', CASE WHEN $4::varchar = 'released' THEN clock_timestamp() END)
         RETURNING email_template_version_id`,
        [id, owner.tenantId, index + 1, status],
      );
      if (status === 'released') released = versionId;
    }
    if (activate) await t.dataSource.query(`UPDATE email_templates SET active_version_id = $2 WHERE email_template_id = $1`, [id, released]);
    return id;
  }

  async function issuesOf(emailTemplateId: string) {
    const graph = bend(pipelineGraph(type, 'level'), (g) => {
      g.nodes.push(blockNode('mail', 'email-action', { emailTemplateId }));
      g.edges.push({ fromNodeId: 'scale', toNodeId: 'mail' });
    });
    const draft = await admin.post(`/v1/flows/${flowId}/versions`, { graph }).expect(201);
    const res = await admin.post(`/v1/flows/${flowId}/versions/${draft.body.flowVersionId}/validate`).expect(200);
    return (res.body as { issues: { severity: string; code: string; path: string }[] }).issues.filter((issue) => issue.path.startsWith('graph.nodes[4]'));
  }

  beforeAll(async () => {
    t = await startTestApp();
    admin = as(t, (await loginAdmin(t)).accessToken);
    tenant = await seedTenant(t);
    other = await seedTenant(t);
    type = await seedDeviceType(t, tenant);
    await seedField(t, tenant, type, { key: 'level' });
    const flow = await admin.post(`/v1/device-types/${type.deviceTypeId}/flow`, { key: `mail-${process.pid}`, name: 'Mail flow' }).expect(201);
    flowId = flow.body.flowId;
  });
  afterAll(() => t.close());

  const path = 'graph.nodes[4].configuration.emailTemplateId';

  it('a template of the tenant with an active version: no issue', async () => {
    expect(await issuesOf(await seedTemplate(tenant, ['released'], true))).toEqual([]);
  });

  it('a deprecated active version still counts as active (it stays active until replaced)', async () => {
    const id = await seedTemplate(tenant, ['released'], true);
    await t.dataSource.query(`UPDATE email_template_versions SET status = 'deprecated', deprecated_at = clock_timestamp() WHERE email_template_id = $1`, [id]);
    expect(await issuesOf(id)).toEqual([]);
  });

  it.each([
    ['no version at all', [] as ('draft' | 'released')[]],
    ['only a draft', ['draft'] as ('draft' | 'released')[]],
    ['a released version never activated', ['released'] as ('draft' | 'released')[]],
  ])('a template without an active version (%s): warning email_template_inactive', async (_name, versions) => {
    expect(await issuesOf(await seedTemplate(tenant, versions, false))).toEqual([expect.objectContaining({ severity: 'warning', code: 'email_template_inactive', path })]);
  });

  it('an unknown template, or one of another tenant: error unknown_email_template', async () => {
    expect(await issuesOf(randomUUID())).toEqual([expect.objectContaining({ severity: 'error', code: 'unknown_email_template', path })]);
    const foreign = await seedTemplate(other, ['released'], true);
    expect(await issuesOf(foreign)).toEqual([expect.objectContaining({ severity: 'error', code: 'unknown_email_template', path })]);
  });

  it('the tables keep their rules: a released version needs its release time, versions are immutable, keys unique per tenant', async () => {
    const id = await seedTemplate(tenant, ['released'], true);
    await expect(t.dataSource.query(`UPDATE email_template_versions SET subject = 'changed' WHERE email_template_id = $1`, [id])).rejects.toThrow(/immutable/);
    await expect(
      t.dataSource.query(`INSERT INTO email_template_versions (email_template_id, tenant_id, version_number, status, subject, body_text) VALUES ($1, $2, 2, 'released', 's', 'b')`, [id, tenant.tenantId]),
    ).rejects.toThrow(/check constraint/);
    await expect(
      t.dataSource.query(`INSERT INTO email_template_versions (email_template_id, tenant_id, version_number, subject, body_text) VALUES ($1, $2, 2, 's', 'b')`, [id, other.tenantId]),
    ).rejects.toThrow(/foreign key/);
    const [{ key }] = await t.dataSource.query<{ key: string }[]>(`SELECT key FROM email_templates WHERE email_template_id = $1`, [id]);
    await expect(t.dataSource.query(`INSERT INTO email_templates (tenant_id, key, name) VALUES ($1, $2, 'Again')`, [tenant.tenantId, key])).rejects.toThrow(/email_templates_tenant_id_key_key/);
  });
});
