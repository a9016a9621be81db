import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { ResourceNotFoundError, ValidationFailedError } from '../../../shared/errors/domain-error';
import type { VersionRecord } from '../../../shared/versioning/version-store';
import { FlowEngine, type ExecutionPlan, type ExecutionResult, type FlowGraph, type FlowInput, type FlowVersionForPlan, type JsonObject, type ParameterDeclaration } from '../engine';
import type { FlowEntity } from '../persistence/flow.entity';
import { compileFailure, FlowValidator } from './flow-validator';
import { FlowVersionPlanner } from './flow-version-planner';
import { FlowVersionStore } from '../persistence/flow-version.store';

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
export class FlowPreviewRunner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: FlowEngine,
    private readonly validator: FlowValidator,
    private readonly versions: FlowVersionStore,
    private readonly planner: FlowVersionPlanner,
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
    const parameters = version.row.parameters as ParameterDeclaration[];
    const forPlan: FlowVersionForPlan = {
      flowVersionId: version.versionId,
      graph: version.row.graph as FlowGraph,
      parameters,
      status: version.status,
      releasedAt: (version.row.released_at as Date | null) ?? null,
    };
    const plan = await this.planner.planOf(flow.deviceTypeId, forPlan, await this.planner.fieldTag(flow.deviceTypeId));
    return { flowVersionId: version.versionId, plan, defaults: Object.fromEntries(parameters.map((p) => [p.key, p.defaultValue ?? null])) };
  }

  /**
   * Runs the prepared version on `input` with the declared defaults overlaid by `input.parameters` (stored
   * overrides never apply, so the run is deterministic). A sandbox outage throws SandboxUnavailableError (503).
   */
  run(flow: FlowEntity, prepared: PreparedVersion, input: FlowInput, mode: 'preview' | 'fixture'): Promise<ExecutionResult> {
    const parameters = { ...prepared.defaults, ...((input.parameters ?? {}) as JsonObject) };
    return this.engine.execute(prepared.plan, input, parameters, { mode, tenantId: flow.tenantId });
  }
}
