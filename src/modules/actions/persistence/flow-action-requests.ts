import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { JsonRows } from '../../../shared/database/json-rows';
import { JobQueue } from '../../../shared/jobs/job-queue';

/** The job that turns committed requests into deliveries (registered by ExpandActionRequestsJob). */
export const EXPAND_ACTION_REQUESTS_JOB = 'actions.email.expand';

/** One e-mail an `email-action` node of a live execution asked for. */
export interface ActionRequest {
  tenantId: string;
  flowId: string;
  flowExecutionId: string;
  nodeId: string;
  emailTemplateId: string;
  deviceId: string;
}

/** The columns of an action request row as the batch insert sends them. */
const REQUEST_ROWS = new JsonRows([
  ['tenant_id', 'uuid'],
  ['flow_id', 'uuid'],
  ['flow_execution_id', 'uuid'],
  ['node_id', 'varchar'],
  ['email_template_id', 'uuid'],
  ['device_id', 'uuid'],
] as const);

/**
 * The one writer of `flow_action_requests`. Live processing calls `record` inside the transaction that stores the
 * executions, so a request exists exactly when its execution committed (previews, fixture runs and replays never
 * call it). One statement per call whatever the number of requests, plus the job that turns them into deliveries
 * after COMMIT (`actions.email.expand`, enqueued in the same transaction).
 */
@Injectable()
export class FlowActionRequests {
  constructor(private readonly jobs: JobQueue) {}

  async record(manager: EntityManager, requests: readonly ActionRequest[]): Promise<void> {
    if (requests.length === 0) return;
    const rows = requests.map((r) => ({
      tenant_id: r.tenantId,
      flow_id: r.flowId,
      flow_execution_id: r.flowExecutionId,
      node_id: r.nodeId,
      email_template_id: r.emailTemplateId,
      device_id: r.deviceId,
    }));
    await manager.query(`INSERT INTO flow_action_requests (${REQUEST_ROWS.names}) SELECT ${REQUEST_ROWS.select} FROM ${REQUEST_ROWS.from('$1')}`, [REQUEST_ROWS.encode(rows)]);
    await this.jobs.enqueue({ name: EXPAND_ACTION_REQUESTS_JOB }, manager);
  }
}
