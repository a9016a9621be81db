import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { DomainError } from '../../../shared/errors/domain-error';
import { FieldContractReader } from '../../device-types';
import { flowVersionNotFound, FlowVersionPlanner } from '../../flows';
import type { ExecutionPlan, FlowGraph, FlowVersionForPlan, ParameterDeclaration } from '../../flows/engine';

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

interface VersionMeta {
  flowId: string;
  tenantId: string;
  deviceTypeId: string;
  versionNumber: number;
  forPlan: FlowVersionForPlan;
}

const VERSION_META_CAPACITY = 1000;

/**
 * Loads a stored flow version for live processing and replays: its flow, its plan (a graph that cannot be planned
 * is kept as `planError`, so each run fails instead of the batch) and the field numbers its values are stored under.
 */
@Injectable()
export class FlowVersionLoader {
  private readonly versions = new Map<string, VersionMeta>();

  constructor(
    private readonly dataSource: DataSource,
    private readonly planner: FlowVersionPlanner,
    private readonly fieldContracts: FieldContractReader,
  ) {}

  /**
   * The version ready to run. `fieldTag` is the device type's field contract version when the caller has it;
   * otherwise it is read. Metadata of versions (immutable) is cached; plans are cached by the engine per tag.
   */
  async prepare(flowVersionId: string, fieldTag?: string, manager: EntityManager = this.dataSource.manager): Promise<PreparedFlowVersion> {
    const meta = this.versions.get(flowVersionId) ?? (await this.loadVersion(manager, flowVersionId));
    const tag = fieldTag ?? (await this.planner.fieldTag(meta.deviceTypeId));
    let plan: ExecutionPlan | null = null;
    let planError: string | null = null;
    try {
      plan = await this.planner.planOf(meta.deviceTypeId, meta.forPlan, tag);
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
      declarations: meta.forPlan.parameters,
      plan,
      planError,
      fieldNos: await this.fieldNosOf(manager, meta.deviceTypeId, tag),
    };
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
    return (await this.fieldContracts.at(deviceTypeId, tag, manager)).fieldNos;
  }
}
