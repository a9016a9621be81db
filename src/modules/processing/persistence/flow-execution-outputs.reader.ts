import type { EntityManager } from 'typeorm';

/** What an execution produced, as an e-mail rendered for it needs it. */
export interface FlowExecutionOutputs {
  flowExecutionId: string;
  tenantId: string;
  flowId: string;
  /** The flow's name as it is now. */
  flowName: string;
  deviceId: string;
  /** Current and time-series values merged (a time-series value wins for a key written to both). */
  values: Record<string, unknown>;
  observedAt: Date;
  /** The parameter values the execution ran with. */
  parameters: Record<string, unknown>;
}

interface OutputsRow {
  flow_execution_id: string;
  tenant_id: string;
  flow_id: string;
  flow_name: string;
  device_id: string;
  observed_at: Date;
  parameters: Record<string, unknown> | null;
  current: Record<string, unknown> | null;
  timeseries: Record<string, unknown> | null;
}

/**
 * The outputs of one execution of the tenant, or null when there is none (missing, another tenant's, or removed by
 * retention), with its flow's name (the execution's own reference; read here so a caller needs no second module).
 * Reads through `manager`, so it can run inside the caller's transaction.
 */
export async function readFlowExecutionOutputs(
  manager: EntityManager,
  tenantId: string,
  flowExecutionId: string,
): Promise<FlowExecutionOutputs | null> {
  const [row] = await manager.query<OutputsRow[]>(
    `SELECT e.flow_execution_id, e.tenant_id, e.flow_id, f.name AS flow_name, e.device_id, e.observed_at, e.parameters, e.current, e.timeseries
       FROM flow_executions e JOIN flows f ON f.flow_id = e.flow_id
      WHERE e.flow_execution_id = $1 AND e.tenant_id = $2`,
    [flowExecutionId, tenantId],
  );
  if (!row) return null;
  return {
    flowExecutionId: row.flow_execution_id,
    tenantId: row.tenant_id,
    flowId: row.flow_id,
    flowName: row.flow_name,
    deviceId: row.device_id,
    values: { ...(row.current ?? {}), ...(row.timeseries ?? {}) },
    observedAt: row.observed_at,
    parameters: row.parameters ?? {},
  };
}
