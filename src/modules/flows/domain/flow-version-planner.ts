import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../shared/errors/domain-error';
import { FlowEngine, FlowPlanError, type ExecutionPlan, type FieldContractEntry, type FlowGraph, type FlowVersionForPlan, type ResolvedBlockVersion } from '../engine';
import { FieldContractReader } from '../../device-types';
import { BLOCK_VERSION_LOOKUP, BlockVersionLookup } from './graph/block-version-lookup';

/**
 * The execution plan of a stored flow version, for preview and fixture runs as for live processing and replays:
 * compiled by the engine against the device type's fields and the custom block versions the graph names, cached
 * per version, and compiled again when the device type's fields change.
 */
@Injectable()
export class FlowVersionPlanner {
  constructor(
    private readonly dataSource: DataSource,
    private readonly engine: FlowEngine,
    @Inject(BLOCK_VERSION_LOOKUP) private readonly blocks: BlockVersionLookup,
    private readonly fieldContracts: FieldContractReader,
  ) {}

  /**
   * The stored version's plan, cached and compiled again when `fieldTag` (the device type's field contract
   * version, see fieldTag) differs from the cached plan's. A graph that cannot run is 422 FLOW_FAILURE.
   */
  async planOf(deviceTypeId: string, version: FlowVersionForPlan, fieldTag: string): Promise<ExecutionPlan> {
    try {
      return await this.engine.plan(version, () => this.loadPlanSource(deviceTypeId, version.graph), fieldTag);
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
    return (await this.fieldContracts.current(deviceTypeId)).version;
  }

  private async loadPlanSource(deviceTypeId: string, graph: FlowGraph) {
    const contract = await this.fieldContracts.current(deviceTypeId);
    const fields: Record<string, FieldContractEntry> = {};
    for (const field of contract.fields) {
      fields[field.key] = { schemaRef: field.schemaRef, storageTargets: [...field.storageTargets], status: field.status, deprecatedAt: field.deprecatedAt };
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
