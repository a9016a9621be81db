import { Inject, Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { DomainError } from '../../../shared/errors/domain-error';
import { FlowEngine, FlowPlanError, type ExecutionPlan, type FieldContractEntry, type FlowGraph, type FlowVersionForPlan, type ResolvedBlockVersion } from '../engine';
import { BLOCK_VERSION_LOOKUP, BlockVersionLookup } from './graph/block-version-lookup';

/** The device type's field tag: `$1` is the device type id. */
export const FIELD_TAG_SQL = `SELECT coalesce(max(updated_at)::text, '') || '/' || count(*) AS tag FROM device_field_definitions WHERE device_type_id = $1`;

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
  ) {}

  /**
   * The stored version's plan, cached and compiled again when `fieldTag` (the device type's newest field change,
   * see fieldTag) differs from the cached plan's. A graph that cannot run is 422 FLOW_FAILURE.
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
    const [stamp] = await this.dataSource.query<{ tag: string }[]>(FIELD_TAG_SQL, [deviceTypeId]);
    return stamp?.tag ?? '';
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
