import { randomUUID } from 'node:crypto';
import { chirpstackUp } from '../fixtures/ingestion/bodies';
import { seedDevice, SeededDevice } from './devices';
import { bend, blockNode, pipelineGraph } from './flows';
import type { as } from './http';
import { LiveFlow, seedLiveFlow, waitProcessed } from './processing';
import type { SeededTenant } from './tenancy';
import type { TestApp } from './test-app';
import { waitUntil } from './wait';

type Api = ReturnType<typeof as>;
let counter = 0;

/*
 * Seeding for e-mail delivery tests: a template with a released, active version (through SQL; the template API has
 * its own suite), address bindings, and a live flow whose `email-action` node requests it.
 */

export const SUBJECT = 'Leak at {{device.name}} ({{device.metadata.site}})';
export const BODY_TEXT = 'Level {{values.level}} at {{device.metadata.site}} in {{tenant.name}}';
export const BODY_HTML = '<p>Level <b>{{values.level}}</b> at {{device.metadata.site}}</p>';

export interface SeededTemplate {
  emailTemplateId: string;
  versionId: string;
}

export async function seedEmailTemplate(t: TestApp, tenant: SeededTenant, options: { active?: boolean } = {}): Promise<SeededTemplate> {
  const [{ email_template_id: id }] = await t.dataSource.query<{ email_template_id: string }[]>(
    `INSERT INTO email_templates (tenant_id, key, name) VALUES ($1, $2, 'Leak alert') RETURNING email_template_id`,
    [tenant.tenantId, `leak-${process.pid}-${++counter}`],
  );
  const [{ email_template_version_id: versionId }] = await t.dataSource.query<{ email_template_version_id: string }[]>(
    `INSERT INTO email_template_versions (email_template_id, tenant_id, version_number, status, subject, body_text, body_html, released_at)
     VALUES ($1, $2, 1, 'released', $3, $4, $5, clock_timestamp()) RETURNING email_template_version_id`,
    [id, tenant.tenantId, SUBJECT, BODY_TEXT, BODY_HTML],
  );
  if (options.active ?? true) await t.dataSource.query(`UPDATE email_templates SET active_version_id = $2 WHERE email_template_id = $1`, [id, versionId]);
  return { emailTemplateId: id!, versionId: versionId! };
}

export async function bindAddress(t: TestApp, tenant: SeededTenant, template: SeededTemplate, email: string, deviceTypeId: string | null = null): Promise<void> {
  await t.dataSource.query(
    `INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, email, device_type_id) VALUES ($1, $2, 'email', $3, $4)`,
    [tenant.tenantId, template.emailTemplateId, email, deviceTypeId],
  );
}

export async function bindUser(t: TestApp, tenant: SeededTenant, template: SeededTemplate, userId: string): Promise<void> {
  await t.dataSource.query(`INSERT INTO recipient_bindings (tenant_id, email_template_id, recipient_type, user_id) VALUES ($1, $2, 'user', $3)`, [
    tenant.tenantId,
    template.emailTemplateId,
    userId,
  ]);
}

/** A live flow (decode, scale into `level`) whose `email-action` node requests `template` for every message. */
export async function seedMailFlow(
  t: TestApp,
  api: Api,
  tenant: SeededTenant,
  template: SeededTemplate,
  configuration: Record<string, unknown> = {},
): Promise<LiveFlow> {
  const graphOf = (type: { deviceTypeId: string }) =>
    bend(pipelineGraph(type, 'level'), (g) => {
      g.nodes.push(blockNode('mail', 'email-action', { emailTemplateId: template.emailTemplateId, ...configuration }));
      g.edges.push({ fromNodeId: 'scale', toNodeId: 'mail' });
    });
  return seedLiveFlow(t, api, tenant, graphOf);
}

/** A device of the flow's type with a name and `site` metadata the template prints. */
export async function seedMailDevice(t: TestApp, tenant: SeededTenant, flow: LiveFlow, name: string, site: string): Promise<SeededDevice> {
  const device = await seedDevice(t, tenant, flow.type, null, { name });
  await t.dataSource.query(`UPDATE devices SET metadata = $2 WHERE device_id = $1`, [device.deviceId, JSON.stringify({ site })]);
  return device;
}

/** Posts one ChirpStack uplink (a big-endian uint16 `value`) and waits until it is processed; answers the execution id. */
export async function uplink(t: TestApp, ingestionToken: string, devEui: string, value: number): Promise<string> {
  const data = Buffer.from([value >> 8, value & 0xff]).toString('base64');
  const res = await t
    .http()
    .post('/v1/ingestion/chirpstack?event=up')
    .set('Authorization', `Bearer ${ingestionToken}`)
    .set('Content-Type', 'application/json')
    .send(JSON.stringify({ ...chirpstackUp(devEui.toLowerCase(), randomUUID()), data }));
  if (res.status !== 202) throw new Error(`ingest answered ${res.status}`);
  const id = res.body.rawIngestionMessageId as string;
  await waitProcessed(t, [id]);
  const [row] = await t.dataSource.query<{ flow_execution_id: string }[]>(
    `SELECT flow_execution_id FROM raw_ingestion_messages WHERE raw_ingestion_message_id = $1`,
    [id],
  );
  return row!.flow_execution_id;
}

export interface DeliveryRow {
  email_delivery_id: string;
  status: string;
  suppression_reason: string | null;
  recipient_email: string;
  message_id: string;
  attempt_count: number;
  attempts: { at: string; smtpCode?: number; smtpReply?: string; error?: { code: string; message: string } }[];
  next_attempt_at: Date | null;
  dead_letter_id: string | null;
}

export async function deliveriesOf(t: TestApp, flowExecutionId: string): Promise<DeliveryRow[]> {
  return t.dataSource.query<DeliveryRow[]>(`SELECT * FROM email_deliveries WHERE flow_execution_id = $1 ORDER BY recipient_email`, [flowExecutionId]);
}

/** Waits until the execution's requests became deliveries (`count` of them) and none of them waits for a first attempt. */
export async function waitDeliveries(t: TestApp, flowExecutionId: string, count: number, settled: (row: DeliveryRow) => boolean = (row) => row.status !== 'queued'): Promise<DeliveryRow[]> {
  let rows: DeliveryRow[] = [];
  await waitUntil(
    async () => {
      rows = await deliveriesOf(t, flowExecutionId);
      return rows.length === count && rows.every(settled);
    },
    15_000,
    `${count} deliveries of execution ${flowExecutionId} settled`,
  );
  return rows;
}

/**
 * The controllable clock of the retry schedule: moves every scheduled attempt of `deliveryId` `ms` earlier (the
 * delivery's `nextAttemptAt` and its send job's `run_at`), as if that much time had passed, and wakes the worker.
 */
export async function advanceClock(t: TestApp, deliveryId: string, ms: number): Promise<void> {
  // The delivery's due time first: a job run before the delivery is due leaves it alone.
  await t.dataSource.query(
    `UPDATE email_deliveries SET next_attempt_at = next_attempt_at - make_interval(secs => $2::double precision) WHERE email_delivery_id = $1`,
    [deliveryId, ms / 1000],
  );
  await t.dataSource.query(
    `UPDATE jobs SET run_at = run_at - make_interval(secs => $2::double precision)
      WHERE name = 'actions.email.send' AND state = 'pending' AND payload->>'emailDeliveryId' = $1`,
    [deliveryId, ms / 1000],
  );
}

/** The scheduled run time of the delivery's pending send job, if any. */
export async function nextRunOf(t: TestApp, deliveryId: string): Promise<Date | null> {
  const [row] = await t.dataSource.query<{ run_at: Date }[]>(
    `SELECT run_at FROM jobs WHERE name = 'actions.email.send' AND state = 'pending' AND payload->>'emailDeliveryId' = $1`,
    [deliveryId],
  );
  return row?.run_at ?? null;
}
