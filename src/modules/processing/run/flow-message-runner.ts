import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import { InjectMetric } from '@willsoto/nestjs-prometheus';
import type { Counter, Histogram } from 'prom-client';
import { DataSource, EntityManager, QueryFailedError } from 'typeorm';
import { DomainError } from '../../../shared/errors/domain-error';
import { FlowRunner } from '../../flows/domain/flow-runner';
import { flowVersionNotFound } from '../../flows/persistence/flow-version.store';
import { resolveParameters } from '../../flows/domain/parameter-resolution';
import type { OverrideLevel } from '../../flows/persistence/flow-parameter-override.entity';
import { FlowEngine } from '../../flows/engine/flow-engine';
import type { ExecutionResult, NodeErrorCode, FlowGraph, FlowVersionForPlan, JsonObject, JsonValue, ParameterDeclaration } from '../../flows/engine/engine-types';
import type { ExecutionPlan } from '../../flows/engine/execution-plan';
import { TelemetryRow, TelemetryWriteRefusedError, TelemetryWriter } from '../../telemetry/persistence/telemetry-writer';
import { storedUplinkInput, type StoredUplink } from '../../flows/engine/stored-uplink';
import { compactTrace } from '../domain/execution-trace';
import { FLOW_EXECUTION_DURATION, FLOW_EXECUTIONS_TOTAL } from './processing-metrics';

/** The device a message was routed to. */
export interface RoutedDevice {
  deviceId: string;
  tenantId: string;
  deviceTypeId: string;
  devEui: string;
  name: string;
  metadata: Record<string, string>;
}

/** A released (or deprecated) flow version ready to run live or in a replay. */
export interface PreparedFlowVersion {
  flowId: string;
  tenantId: string;
  deviceTypeId: string;
  flowVersionId: string;
  versionNumber: number;
  declarations: ParameterDeclaration[];
  /** Null when the stored graph cannot be planned (every run fails with `planError`). */
  plan: ExecutionPlan | null;
  planError: string | null;
  /** field key -> field_no of the device type. */
  fieldNos: ReadonlyMap<string, number>;
}

export type RunMode = 'live' | 'replay';

/** One message run through one version (not stored yet). */
export interface MessageOutcome {
  flowExecutionId: string;
  message: StoredUplink;
  device: RoutedDevice;
  prepared: PreparedFlowVersion;
  parameters: JsonObject;
  startedAt: Date;
  result: ExecutionResult;
}

export interface StoreOptions {
  mode: RunMode;
  /** Required with mode `replay`. */
  replayId?: string;
}

interface VersionMeta {
  flowId: string;
  tenantId: string;
  deviceTypeId: string;
  versionNumber: number;
  forPlan: FlowVersionForPlan;
}

const VERSION_META_CAPACITY = 1000;

/**
 * Runs stored uplinks through stored flow versions and stores what they produce: the shared core of live
 * processing and replays. `run` executes (nothing stored); `store` writes, inside the caller's transaction, the
 * values of the succeeded executions through the telemetry write API, one execution record per message, and (live
 * only) the e-mail requests of `email-action` nodes. A message whose values the storage refuses becomes a failed
 * execution and stores nothing else; the other messages of the batch are not affected.
 */
@Injectable()
export class FlowMessageRunner {
  private readonly versions = new Map<string, VersionMeta>();
  private readonly fieldNos = new Map<string, { tag: string; map: ReadonlyMap<string, number> }>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly runner: FlowRunner,
    private readonly engine: FlowEngine,
    private readonly telemetry: TelemetryWriter,
    @InjectMetric(FLOW_EXECUTIONS_TOTAL) private readonly executionsTotal: Counter<'mode' | 'status'>,
    @InjectMetric(FLOW_EXECUTION_DURATION) private readonly executionDuration: Histogram<'mode' | 'status'>,
  ) {}

  /**
   * The version ready to run. `fieldTag` is the device type's field tag (FIELD_TAG_SQL) when the caller has it;
   * otherwise it is read. Metadata of versions (immutable) is cached; plans are cached by the engine per tag.
   */
  async prepare(flowVersionId: string, fieldTag?: string, manager: EntityManager = this.dataSource.manager): Promise<PreparedFlowVersion> {
    const meta = this.versions.get(flowVersionId) ?? (await this.loadVersion(manager, flowVersionId));
    const tag = fieldTag ?? (await this.runner.fieldTag(meta.deviceTypeId));
    let plan: ExecutionPlan | null = null;
    let planError: string | null = null;
    try {
      plan = await this.runner.planOf(meta.deviceTypeId, meta.forPlan, tag);
    } catch (error) {
      if (!(error instanceof DomainError) || error.code !== 'FLOW_FAILURE') throw error;
      planError = error.message;
    }
    return {
      flowId: meta.flowId,
      tenantId: meta.tenantId,
      deviceTypeId: meta.deviceTypeId,
      flowVersionId,
      versionNumber: meta.versionNumber,
      declarations: meta.forPlan.parameters as ParameterDeclaration[],
      plan,
      planError,
      fieldNos: await this.fieldNosOf(manager, meta.deviceTypeId, tag),
    };
  }

  /** Each device's live parameters for `prepared`: device > device type > tenant override > declared default. */
  async parametersFor(manager: EntityManager, prepared: PreparedFlowVersion, devices: readonly RoutedDevice[]): Promise<Map<string, JsonObject>> {
    const result = new Map<string, JsonObject>();
    if (prepared.declarations.length === 0) {
      for (const device of devices) result.set(device.deviceId, {});
      return result;
    }
    const rows = await manager.query<{ level: OverrideLevel; device_id: string | null; key: string; value: unknown }[]>(
      `SELECT level, device_id, key, value FROM flow_parameter_overrides
        WHERE tenant_id = $1 AND key = ANY ($2::varchar[])
          AND (level = 'tenant' OR (level = 'device_type' AND device_type_id = $3) OR (level = 'device' AND device_id = ANY ($4::uuid[])))`,
      [prepared.tenantId, prepared.declarations.map((d) => d.key), prepared.deviceTypeId, devices.map((d) => d.deviceId)],
    );
    for (const device of devices) {
      const applicable = rows.filter((row) => row.level !== 'device' || row.device_id === device.deviceId);
      const resolved = resolveParameters(prepared.declarations, applicable);
      result.set(device.deviceId, Object.fromEntries(resolved.map((p) => [p.key, p.value as JsonValue])));
    }
    return result;
  }

  /** Runs one message (nothing stored). A sandbox outage throws SandboxUnavailableError: nothing may be recorded then. */
  async run(prepared: PreparedFlowVersion, message: StoredUplink, device: RoutedDevice, parameters: JsonObject, mode: RunMode): Promise<MessageOutcome> {
    const startedAt = new Date();
    const input = storedUplinkInput(message, device, mode, parameters);
    const result = prepared.plan
      ? await this.engine.execute(prepared.plan, input, parameters, {
          mode,
          tenantId: device.tenantId,
          device: { deviceId: device.deviceId, devEui: device.devEui, name: device.name, deviceTypeId: device.deviceTypeId, metadata: device.metadata },
        })
      : failedResult(prepared.flowVersionId, 'block_unavailable', prepared.planError ?? 'The flow version cannot run.');
    return { flowExecutionId: randomUUID(), message, device, prepared, parameters, startedAt, result };
  }

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

  /** A replay's points replace those stored from the same raw messages (see TelemetryWriter.writeMeasurements). */
  private async writeRows(manager: EntityManager, outcomes: readonly MessageOutcome[], mode: RunMode): Promise<void> {
    const current: TelemetryRow[] = [];
    const series: TelemetryRow[] = [];
    for (const outcome of outcomes) {
      const { deviceId } = outcome.device;
      const base = { deviceId, observedAt: outcome.message.observedAt, rawReceivedAt: outcome.message.receivedAt };
      for (const [key, value] of Object.entries(outcome.result.current)) current.push({ ...base, fieldNo: fieldNoOf(outcome, key), value: value as TelemetryRow['value'] });
      for (const [key, value] of Object.entries(outcome.result.timeseries)) series.push({ ...base, fieldNo: fieldNoOf(outcome, key), value: value as TelemetryRow['value'] });
    }
    await this.telemetry.writeMeasurements(manager, series, { replay: mode === 'replay' });
    await this.telemetry.writeCurrentValues(manager, current);
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
      trace: compactTrace(o.result.trace, o.result.status === 'failed'),
    }));
    await manager.query(
      `INSERT INTO flow_executions (flow_execution_id, tenant_id, flow_id, flow_version_id, version_number, device_id, mode, replay_id,
              raw_ingestion_message_id, raw_received_at, observed_at, correlation_id, status, started_at, duration_ms, error,
              parameters, current, timeseries, actions, trace)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(flow_execution_id uuid, tenant_id uuid, flow_id uuid, flow_version_id uuid,
              version_number int, device_id uuid, mode varchar, replay_id uuid, raw_ingestion_message_id uuid,
              raw_received_at timestamptz, observed_at timestamptz, correlation_id varchar, status varchar, started_at timestamptz,
              duration_ms real, error jsonb, parameters jsonb, current jsonb, timeseries jsonb, actions jsonb, trace jsonb)`,
      [JSON.stringify(rows)],
    );
  }

  private async insertActionRequests(manager: EntityManager, outcomes: readonly MessageOutcome[]): Promise<void> {
    const rows = outcomes.flatMap((o) =>
      o.result.status === 'succeeded'
        ? o.result.actions.map((action) => ({
            tenant_id: o.prepared.tenantId,
            flow_id: o.prepared.flowId,
            flow_execution_id: o.flowExecutionId,
            node_id: action.nodeId,
            email_template_id: action.emailTemplateId,
            device_id: o.device.deviceId,
          }))
        : [],
    );
    if (rows.length === 0) return;
    await manager.query(
      `INSERT INTO flow_action_requests (tenant_id, flow_id, flow_execution_id, node_id, email_template_id, device_id)
       SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(tenant_id uuid, flow_id uuid, flow_execution_id uuid, node_id varchar, email_template_id uuid, device_id uuid)`,
      [JSON.stringify(rows)],
    );
  }

  private async loadVersion(manager: EntityManager, flowVersionId: string): Promise<VersionMeta> {
    const [row] = await manager.query<
      { flow_id: string; tenant_id: string; device_type_id: string; version_number: number; status: FlowVersionForPlan['status']; graph: FlowGraph; parameters: ParameterDeclaration[]; released_at: Date | null }[]
    >(
      `SELECT v.flow_id, v.tenant_id, f.device_type_id, v.version_number, v.status, v.graph, v.parameters, v.released_at
         FROM flow_versions v JOIN flows f ON f.flow_id = v.flow_id
        WHERE v.flow_version_id = $1`,
      [flowVersionId],
    );
    if (!row) throw flowVersionNotFound();
    const meta: VersionMeta = {
      flowId: row.flow_id,
      tenantId: row.tenant_id,
      deviceTypeId: row.device_type_id,
      versionNumber: row.version_number,
      forPlan: { flowVersionId, graph: row.graph, parameters: row.parameters, status: row.status, releasedAt: row.released_at },
    };
    // Only released and deprecated versions are immutable in every respect that matters here (status included).
    if (row.status !== 'draft') {
      if (this.versions.size >= VERSION_META_CAPACITY) this.versions.clear();
      this.versions.set(flowVersionId, meta);
    }
    return meta;
  }

  private async fieldNosOf(manager: EntityManager, deviceTypeId: string, tag: string): Promise<ReadonlyMap<string, number>> {
    const cached = this.fieldNos.get(deviceTypeId);
    if (cached && cached.tag === tag) return cached.map;
    const rows = await manager.query<{ key: string; field_no: number }[]>(`SELECT key, field_no FROM device_field_definitions WHERE device_type_id = $1`, [deviceTypeId]);
    const map = new Map(rows.map((row) => [row.key, row.field_no]));
    if (this.fieldNos.size >= VERSION_META_CAPACITY) this.fieldNos.clear();
    this.fieldNos.set(deviceTypeId, { tag, map });
    return map;
  }
}

function hasKeys(value: object): boolean {
  for (const _ in value) return true;
  return false;
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

function failedResult(flowVersionId: string, code: NodeErrorCode, message: string): ExecutionResult {
  return { status: 'failed', flowVersionId, durationMs: 0, current: {}, timeseries: {}, actions: [], error: { nodeId: null, code, message }, trace: [] };
}

export type { StoredUplink };
