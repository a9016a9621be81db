import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError, ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import type { VersionRecord } from '../../../shared/versioning/version-store';
import { FlowEngine } from '../engine/flow-engine';
import type { ExecutionResult, FieldContractEntry, FlowInput, FlowVersionForPlan, JsonObject, ResolvedBlockVersion } from '../engine/engine-types';
import { FlowPlanError, type ExecutionPlan } from '../engine/execution-plan';
import type { FlowEntity } from '../persistence/flow.entity';
import { compileFailure, FlowValidator } from './flow-validator';
import { FlowVersionStore } from '../persistence/flow-version.store';
import { BLOCK_VERSION_LOOKUP, BlockVersionLookup } from './graph/block-version-lookup';
import type { FlowGraph, ParameterDeclaration } from './graph/flow-graph';

/** The device type's field tag: `$1` is the device type id. */
export const FIELD_TAG_SQL = `SELECT coalesce(max(updated_at)::text, '') || '/' || count(*) AS tag FROM device_field_definitions WHERE device_type_id = $1`;

/** A version ready to run: its plan and declared defaults. Holds no database connection. */
export interface PreparedVersion {
  flowVersionId: string;
  plan: ExecutionPlan;
  defaults: JsonObject;
}

/**
 * Preview and fixture runs: a version of any status run on an input, nothing stored or sent. Everything the plan
 * needs is read first (each query on its own pooled connection, released at once), so no connection is held while
 * the engine runs.
 */
@Injectable()
export class FlowRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: FlowEngine,
    private readonly validator: FlowValidator,
    private readonly versions: FlowVersionStore,
    @Inject(BLOCK_VERSION_LOOKUP) private readonly blocks: BlockVersionLookup,
  ) {}

  /** A version of this flow named in the body; any other id is 400 `reference_not_found` at `body.flowVersionId`. */
  async findVersion(flowId: string, flowVersionId: string): Promise<VersionRecord> {
    try {
      return await this.versions.findVersion(this.dataSource.manager, flowId, flowVersionId);
    } catch (error) {
      if (error instanceof ResourceNotFoundError) {
        throw ValidationFailedError.single('body.flowVersionId', 'reference_not_found', 'No version of this flow has this id.');
      }
      throw error;
    }
  }

  /**
   * The version's plan. A draft with any `error` issue is refused (422 FLOW_FAILURE with the issues); a released or
   * deprecated version runs as it would live. The plan is cached per version and compiled again when the device
   * type's fields change (the tag is the newest field change).
   */
  async prepare(flow: FlowEntity, version: VersionRecord): Promise<PreparedVersion> {
    if (version.status === 'draft') {
      const report = await this.validator.report(this.dataSource.manager, flow.tenantId, flow.deviceTypeId, version);
      if (!report.valid) throw compileFailure(report.issues);
    }
    const graph = version.row.graph as FlowGraph;
    const parameters = version.row.parameters as ParameterDeclaration[];
    const forPlan = {
      flowVersionId: version.versionId,
      graph,
      parameters,
      status: version.status,
      releasedAt: (version.row.released_at as Date | null) ?? null,
    } as FlowVersionForPlan;
    const plan = await this.planOf(flow.deviceTypeId, forPlan, await this.fieldTag(flow.deviceTypeId));
    return { flowVersionId: version.versionId, plan, defaults: Object.fromEntries(parameters.map((p) => [p.key, (p.defaultValue ?? null) as JsonObject[string]])) };
  }

  /**
   * The stored version's plan, cached and compiled again when `fieldTag` (the device type's newest field change,
   * see fieldTag) differs from the cached plan's. A graph that cannot run is 422 FLOW_FAILURE.
   */
  async planOf(deviceTypeId: string, version: FlowVersionForPlan, fieldTag: string): Promise<ExecutionPlan> {
    try {
      return await this.engine.plan(version, () => this.loadPlanSource(deviceTypeId, version.graph as FlowGraph), fieldTag);
    } catch (error) {
      if (error instanceof FlowPlanError) {
        throw new DomainError('FLOW_FAILURE', `The flow version cannot run: ${error.message}`, {
          gate: 'compile',
          issues: [{ severity: 'error', code: error.code, path: 'graph', message: error.message }],
        });
      }
      throw error;
    }
  }

  /** Changes whenever a field of the device type is added or changed: plans compiled under another tag are stale. */
  async fieldTag(deviceTypeId: string): Promise<string> {
    const [stamp] = await this.dataSource.query<{ tag: string }[]>(FIELD_TAG_SQL, [deviceTypeId]);
    return stamp?.tag ?? '';
  }

  /**
   * Runs the prepared version on `input` with the declared defaults overlaid by `input.parameters` (stored
   * overrides never apply, so the run is deterministic). A sandbox outage throws SandboxUnavailableError (503).
   */
  run(flow: FlowEntity, prepared: PreparedVersion, input: FlowInput, mode: 'preview' | 'fixture'): Promise<ExecutionResult> {
    const parameters = { ...prepared.defaults, ...((input.parameters ?? {}) as JsonObject) };
    return this.engine.execute(prepared.plan, input, parameters, { mode, tenantId: flow.tenantId });
  }

  private async loadPlanSource(deviceTypeId: string, graph: FlowGraph) {
    const rows = await this.dataSource.query<{ key: string; schema_ref: string; storage_targets: string[]; status: 'active' | 'deprecated'; deprecated_at: Date | null }[]>(
      `SELECT key, schema_ref, storage_targets, status, deprecated_at FROM device_field_definitions WHERE device_type_id = $1`,
      [deviceTypeId],
    );
    const fields: Record<string, FieldContractEntry> = {};
    for (const row of rows) {
      fields[row.key] = { schemaRef: row.schema_ref, storageTargets: row.storage_targets as FieldContractEntry['storageTargets'], status: row.status, deprecatedAt: row.deprecated_at };
    }
    const customIds = [...new Set(graph.nodes.flatMap((node) => (node.block?.type === 'custom' ? [node.block.flowBlockVersionId.toLowerCase()] : [])))];
    const found = customIds.length ? await this.blocks.findVersions(this.dataSource.manager, customIds) : new Map();
    const blocks = new Map<string, ResolvedBlockVersion>();
    for (const [id, info] of found) {
      blocks.set(id, { artifact: info.artifact ?? null, tenantId: info.tenantId, scriptContract: info.scriptContract ?? null });
    }
    return { fields, resolveBlock: (id: string) => blocks.get(id.toLowerCase()) };
  }
}
