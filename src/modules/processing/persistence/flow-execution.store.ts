import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import type { Counter, Histogram } from 'prom-client';
import { EntityManager, QueryFailedError } from 'typeorm';
import { JsonRows } from '../../../shared/database/json-rows';
import { FlowActionRequests } from '../../actions';
import type { ExecutionResult } from '../../flows/engine';
import { TelemetryRow, TelemetryWriteRefusedError, TelemetryWriter } from '../../telemetry';
import { compactTrace } from '../domain/execution-trace';
import { failedResult, type MessageOutcome, type RunMode } from '../run/message-outcome';
import { FLOW_EXECUTION_DURATION, FLOW_EXECUTIONS_TOTAL } from '../run/processing-metrics';

export interface StoreOptions {
  mode: RunMode;
  /** Required with mode `replay`. */
  replayId?: string;
  /** Executions (ids) under a debug capture: their traces keep every node's output, as failed executions' do. */
  captured?: ReadonlySet<string>;
}

/** The columns of an execution row as the batch insert sends them. */
const EXECUTION_ROWS = new JsonRows([
  ['flow_execution_id', 'uuid'],
  ['tenant_id', 'uuid'],
  ['flow_id', 'uuid'],
  ['flow_version_id', 'uuid'],
  ['version_number', 'int'],
  ['device_id', 'uuid'],
  ['mode', 'varchar'],
  ['replay_id', 'uuid'],
  ['raw_ingestion_message_id', 'uuid'],
  ['raw_received_at', 'timestamptz'],
  ['observed_at', 'timestamptz'],
  ['correlation_id', 'varchar'],
  ['status', 'varchar'],
  ['started_at', 'timestamptz'],
  ['duration_ms', 'real'],
  ['error', 'jsonb'],
  ['parameters', 'jsonb'],
  ['current', 'jsonb'],
  ['timeseries', 'jsonb'],
  ['actions', 'jsonb'],
  ['trace', 'jsonb'],
] as const);

/**
 * Stores what run messages produced, inside the caller's transaction: the values of the succeeded executions
 * through the telemetry write API, one execution record per message, and (live only) the e-mail requests of
 * `email-action` nodes. A message whose values the storage refuses becomes a failed execution and stores nothing
 * else; the other messages of the batch are not affected.
 */
@Injectable()
export class FlowExecutionStore {
  constructor(
    private readonly telemetry: TelemetryWriter,
    private readonly actionRequests: FlowActionRequests,
    @InjectMetric(FLOW_EXECUTIONS_TOTAL) private readonly executionsTotal: Counter<'mode' | 'status'>,
    @InjectMetric(FLOW_EXECUTION_DURATION) private readonly executionDuration: Histogram<'mode' | 'status'>,
  ) {}

  /**
   * Stores `outcomes` in the caller's transaction (see the class comment) and returns them with their final
   * results (a refused write turns an outcome into a failed one).
   */
  async store(manager: EntityManager, outcomes: readonly MessageOutcome[], options: StoreOptions): Promise<MessageOutcome[]> {
    const final = [...outcomes];
    const writable = final.filter((o) => o.result.status === 'succeeded' && (hasKeys(o.result.current) || hasKeys(o.result.timeseries)));
    if (writable.length > 0) {
      const refused = await this.writeValues(manager, writable, options.mode);
      for (const [index, message] of refused) {
        const at = final.indexOf(writable[index]);
        final[at] = { ...final[at], result: refusedResult(final[at].result, message) };
      }
    }
    await this.insertExecutions(manager, final, options);
    if (options.mode === 'live') await this.insertActionRequests(manager, final);
    for (const outcome of final) {
      this.executionsTotal.inc({ mode: options.mode, status: outcome.result.status });
      this.executionDuration.observe({ mode: options.mode, status: outcome.result.status }, outcome.result.durationMs / 1000);
    }
    return final;
  }

  /** Writes the values of `writable`; the batch first, one savepoint per message if the storage refuses it. */
  private async writeValues(manager: EntityManager, writable: readonly MessageOutcome[], mode: RunMode): Promise<Map<number, string>> {
    const refused = new Map<number, string>();
    await manager.query('SAVEPOINT flow_values');
    try {
      await this.writeRows(manager, writable, mode);
      await manager.query('RELEASE SAVEPOINT flow_values');
      return refused;
    } catch (error) {
      if (!isRefusal(error)) throw error;
      await manager.query('ROLLBACK TO SAVEPOINT flow_values');
    }
    for (const [index, outcome] of writable.entries()) {
      await manager.query('SAVEPOINT flow_value');
      try {
        await this.writeRows(manager, [outcome], mode);
        await manager.query('RELEASE SAVEPOINT flow_value');
      } catch (error) {
        if (!isRefusal(error)) throw error;
        await manager.query('ROLLBACK TO SAVEPOINT flow_value');
        refused.set(index, error instanceof Error ? error.message : String(error));
      }
    }
    await manager.query('RELEASE SAVEPOINT flow_values');
    return refused;
  }

  /**
   * One telemetry statement for the batch. A replay's points replace those stored from the same raw messages (see
   * TelemetryWriter.writeMeasurements).
   */
  private async writeRows(manager: EntityManager, outcomes: readonly MessageOutcome[], mode: RunMode): Promise<void> {
    const current: TelemetryRow[] = [];
    const series: TelemetryRow[] = [];
    for (const outcome of outcomes) collectRows(series, current, outcome);
    await this.telemetry.writeValues(manager, { series, current }, { replay: mode === 'replay' });
  }

  private async insertExecutions(manager: EntityManager, outcomes: readonly MessageOutcome[], options: StoreOptions): Promise<void> {
    if (outcomes.length === 0) return;
    const rows = outcomes.map((o) => ({
      flow_execution_id: o.flowExecutionId,
      tenant_id: o.prepared.tenantId,
      flow_id: o.prepared.flowId,
      flow_version_id: o.prepared.flowVersionId,
      version_number: o.prepared.versionNumber,
      device_id: o.device.deviceId,
      mode: options.mode,
      replay_id: options.replayId ?? null,
      raw_ingestion_message_id: o.message.rawIngestionMessageId,
      raw_received_at: o.message.receivedAt.toISOString(),
      observed_at: o.message.observedAt.toISOString(),
      correlation_id: o.message.correlationId,
      status: o.result.status,
      started_at: o.startedAt.toISOString(),
      duration_ms: o.result.durationMs,
      error: o.result.error,
      parameters: o.parameters,
      current: o.result.current,
      timeseries: o.result.timeseries,
      actions: o.result.actions,
      trace: compactTrace(o.result.trace, o.result.status === 'failed' || options.captured?.has(o.flowExecutionId) === true),
    }));
    await manager.query(`INSERT INTO flow_executions (${EXECUTION_ROWS.names}) SELECT ${EXECUTION_ROWS.select} FROM ${EXECUTION_ROWS.from('$1')}`, [
      EXECUTION_ROWS.encode(rows),
    ]);
  }

  private async insertActionRequests(manager: EntityManager, outcomes: readonly MessageOutcome[]): Promise<void> {
    const requests = outcomes.flatMap((o) =>
      o.result.status === 'succeeded'
        ? o.result.actions.map((action) => ({
            tenantId: o.prepared.tenantId,
            flowId: o.prepared.flowId,
            flowExecutionId: o.flowExecutionId,
            nodeId: action.nodeId,
            emailTemplateId: action.emailTemplateId,
            deviceId: o.device.deviceId,
          }))
        : [],
    );
    await this.actionRequests.record(manager, requests);
  }
}

function hasKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
}

/**
 * One telemetry row per time series and per current value of the outcome; the rows share the message's Date
 * objects, and a field with the same value in both is one row object in both lists (the writer sends it once).
 */
function collectRows(series: TelemetryRow[], current: TelemetryRow[], outcome: MessageOutcome): void {
  const { deviceId } = outcome.device;
  const { observedAt, receivedAt } = outcome.message;
  const { timeseries, current: currentValues } = outcome.result;
  const first = series.length;
  for (const key of Object.keys(timeseries)) {
    series.push({ deviceId, fieldNo: fieldNoOf(outcome, key), observedAt, rawReceivedAt: receivedAt, value: timeseries[key] as TelemetryRow['value'] });
  }
  // Usually both outputs hold the same fields in the same order with the same values: share the rows in order.
  let next = first;
  for (const key of Object.keys(currentValues)) {
    const value = currentValues[key] as TelemetryRow['value'];
    const fieldNo = fieldNoOf(outcome, key);
    const row = next < series.length ? series[next] : undefined;
    if (row !== undefined && row.fieldNo === fieldNo && Object.is(row.value, value)) {
      current.push(row);
      next += 1;
    } else current.push({ deviceId, fieldNo, observedAt, rawReceivedAt: receivedAt, value });
  }
}

function fieldNoOf(outcome: MessageOutcome, key: string): number {
  const fieldNo = outcome.prepared.fieldNos.get(key);
  if (fieldNo === undefined) throw new TelemetryWriteRefusedError(`The device type has no field ${key}.`);
  return fieldNo;
}

/** A storage refusal of one message's values (not an outage): the writer's own refusal or a data/constraint error. */
function isRefusal(error: unknown): boolean {
  if (error instanceof TelemetryWriteRefusedError) return true;
  const code = error instanceof QueryFailedError ? (error.driverError as { code?: string }).code : undefined;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

function refusedResult(result: ExecutionResult, message: string): ExecutionResult {
  return { ...failedResult(result.flowVersionId, 'type_mismatch', `The values were refused by storage: ${message}`), durationMs: result.durationMs, trace: result.trace };
}
