import { Inject, Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import { Counter } from 'prom-client';
import { DataSource, EntityManager } from 'typeorm';
import { AppConfig } from '../../../config/app-config';
import { JobContext, JobHandler, JobHandlerInstance } from '../../../shared/jobs/job';
import { JobQueue } from '../../../shared/jobs/job-queue';
import { RECIPIENT_RESOLVER, RecipientResolver, ResolvedRecipient } from '../domain/delivery-ports';
import { messageIdOf } from '../mail/mail-transport';
import { EMAIL_DELIVERIES_TOTAL } from '../mail/delivery-metrics';
import { EmailDeliveriesStore, NewDelivery } from '../persistence/email-deliveries.store';
import type { SuppressionReason } from '../persistence/email-delivery.entity';
import { EXPAND_ACTION_REQUESTS_JOB } from '../persistence/flow-action-requests';
import { SEND_EMAIL_JOB } from './delivery-sender';

const BATCH = 100;

interface PendingRequest {
  action_request_id: string;
  tenant_id: string;
  flow_id: string;
  flow_execution_id: string;
  node_id: string;
  email_template_id: string;
  device_id: string;
  paused: boolean;
  active_version_id: string | null;
  cooldown_seconds: number;
}

/**
 * Turns the action requests live executions committed into deliveries, one per recipient, and queues a send job
 * for each delivery that is to go out. A request's deliveries are `suppressed` instead when the tenant's e-mail is
 * paused (`actions_paused`), the template has no active version (`no_active_version`), a `user` recipient has no
 * grant covering the device (`recipient_out_of_scope`), an e-mail of the same flow, node and device was queued
 * within the node's `cooldownSeconds` (`cooldown`), or the tenant queued ACTIONS_MAX_EMAILS_PER_HOUR in the last
 * hour (`tenant_rate_limit`). Requests are taken with SKIP LOCKED, so jobs on any replica share the work, and each
 * is marked done in the transaction that creates its deliveries: a crash loses nothing and doubles nothing.
 */
@Injectable()
@JobHandler({ name: EXPAND_ACTION_REQUESTS_JOB, maxAttempts: 20 })
export class ExpandActionRequestsJob implements JobHandlerInstance {
  constructor(
    private readonly dataSource: DataSource,
    private readonly store: EmailDeliveriesStore,
    private readonly jobs: JobQueue,
    private readonly config: AppConfig,
    @InjectMetric(EMAIL_DELIVERIES_TOTAL) private readonly outcomes: Counter<string>,
    @Inject(RECIPIENT_RESOLVER) private readonly recipients: RecipientResolver,
  ) {}

  async handle(_payload: object, context: JobContext): Promise<void> {
    while (!context.signal.aborted) {
      const counts = await this.dataSource.transaction((manager) => this.expandBatch(manager));
      this.outcomes.inc({ outcome: 'suppressed' }, counts.suppressed);
      if (counts.requests < BATCH) return;
    }
  }

  private async expandBatch(manager: EntityManager): Promise<{ requests: number; suppressed: number }> {
    const requests = await manager.query<PendingRequest[]>(
      `WITH taken AS (
         SELECT * FROM flow_action_requests WHERE status = 'pending' ORDER BY created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       SELECT t.action_request_id, t.tenant_id, t.flow_id, t.flow_execution_id, t.node_id, t.email_template_id, t.device_id,
              coalesce(k.state = 'paused', false) AS paused, et.active_version_id,
              coalesce((SELECT CASE
                          WHEN jsonb_typeof(n->'configuration'->'cooldownSeconds') = 'number' THEN (n->'configuration'->>'cooldownSeconds')::int
                          WHEN jsonb_typeof(e.parameters->(n->'configuration'->'cooldownSeconds'->>'$param')) = 'number'
                            THEN (e.parameters->>(n->'configuration'->'cooldownSeconds'->>'$param'))::int
                        END
                          FROM flow_executions e
                          JOIN flow_versions v ON v.flow_version_id = e.flow_version_id
                          CROSS JOIN LATERAL jsonb_array_elements(v.graph->'nodes') n
                         WHERE e.flow_execution_id = t.flow_execution_id AND n->>'nodeId' = t.node_id
                         LIMIT 1), 0) AS cooldown_seconds
         FROM taken t
         LEFT JOIN action_kill_switches k ON k.tenant_id = t.tenant_id
         LEFT JOIN email_templates et ON et.email_template_id = t.email_template_id AND et.tenant_id = t.tenant_id
        ORDER BY t.created_at`,
      [BATCH],
    );
    if (requests.length === 0) return { requests: 0, suppressed: 0 };
    // One expander at a time per tenant, so the hourly ceiling is counted exactly; in id order, so never a deadlock.
    const tenants = [...new Set(requests.map((r) => r.tenant_id))].sort();
    for (const tenantId of tenants) await manager.query(`SELECT pg_advisory_xact_lock(hashtext('actions.email:' || $1))`, [tenantId]);
    const sentLastHour = new Map<string, number>();
    for (const tenantId of tenants) {
      const [row] = await manager.query<{ n: number }[]>(
        `SELECT count(*)::int AS n FROM email_deliveries
          WHERE tenant_id = $1 AND status <> 'suppressed' AND created_at > clock_timestamp() - interval '1 hour'`,
        [tenantId],
      );
      sentLastHour.set(tenantId, row!.n);
    }
    const deliveries: NewDelivery[] = [];
    // Requests of this batch that queued an e-mail: later ones of the same flow, node and device are within cooldown.
    const queuedNow = new Set<string>();
    for (const request of requests) {
      const recipients = await this.recipients.resolve(manager, {
        tenantId: request.tenant_id,
        emailTemplateId: request.email_template_id,
        deviceId: request.device_id,
      });
      if (recipients.length === 0) continue;
      const cooldownKey = `${request.flow_id}/${request.node_id}/${request.device_id}`;
      let common = await this.requestSuppression(manager, request);
      if (common === null && request.cooldown_seconds > 0 && queuedNow.has(cooldownKey)) common = 'cooldown';
      for (const recipient of recipients) {
        let reason: SuppressionReason | null = common ?? recipient.suppressedReason;
        if (reason === null) {
          const count = sentLastHour.get(request.tenant_id)!;
          if (count >= this.config.actionsMaxEmailsPerHour) reason = 'tenant_rate_limit';
          else sentLastHour.set(request.tenant_id, count + 1);
        }
        if (reason === null) queuedNow.add(cooldownKey);
        deliveries.push(this.delivery(request, recipient, reason));
      }
    }
    const ids = await this.store.create(manager, deliveries);
    for (let i = 0; i < ids.length; i++) {
      if (deliveries[i]!.suppressionReason === null) {
        await this.jobs.enqueue({ name: SEND_EMAIL_JOB, payload: { emailDeliveryId: ids[i] } }, manager);
      }
    }
    await manager.query(`UPDATE flow_action_requests SET status = 'done' WHERE action_request_id = ANY ($1::uuid[])`, [
      requests.map((r) => r.action_request_id),
    ]);
    return { requests: requests.length, suppressed: deliveries.filter((d) => d.suppressionReason !== null).length };
  }

  /** The reason every recipient of the request is suppressed, or null. */
  private async requestSuppression(manager: EntityManager, request: PendingRequest): Promise<SuppressionReason | null> {
    if (request.paused) return 'actions_paused';
    if (request.active_version_id === null) return 'no_active_version';
    if (request.cooldown_seconds > 0) {
      const [recent] = await manager.query<unknown[]>(
        `SELECT 1 FROM email_deliveries
          WHERE flow_id = $1 AND node_id = $2 AND device_id = $3 AND status <> 'suppressed'
            AND created_at > clock_timestamp() - make_interval(secs => $4::double precision)
          LIMIT 1`,
        [request.flow_id, request.node_id, request.device_id, request.cooldown_seconds],
      );
      if (recent) return 'cooldown';
    }
    return null;
  }

  private delivery(request: PendingRequest, recipient: ResolvedRecipient, reason: SuppressionReason | null): NewDelivery {
    return {
      tenantId: request.tenant_id,
      actionRequestId: request.action_request_id,
      flowId: request.flow_id,
      flowExecutionId: request.flow_execution_id,
      nodeId: request.node_id,
      deviceId: request.device_id,
      emailTemplateId: request.email_template_id,
      emailTemplateVersionId: request.active_version_id,
      recipientBindingId: recipient.recipientBindingId,
      recipientUserId: recipient.userId,
      recipientEmail: recipient.email,
      suppressionReason: reason,
      messageId: (id) => messageIdOf(id, this.config.mailFrom),
    };
  }
}
