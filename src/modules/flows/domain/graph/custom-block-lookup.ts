import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { ScriptContract } from '../../../sandbox';
import type { BlockVersionLookup, CustomBlockVersionInfo } from './block-version-lookup';

interface VersionRow {
  id: string;
  tenant_id: string | null;
  status: CustomBlockVersionInfo['status'];
  configuration_schema: Record<string, unknown> | null;
  source_code: string;
  source_sha256: string;
  script_contract: ScriptContract | null;
}

/**
 * The stored custom block versions (global and per tenant) as flows see them: for validation, and for preview and
 * fixture runs the artifact the sandbox runs. Only released or deprecated versions carry one: a draft never runs
 * outside its own gates.
 */
@Injectable()
export class StoredCustomBlocks implements BlockVersionLookup {
  async findVersions(manager: EntityManager, ids: readonly string[]): Promise<Map<string, CustomBlockVersionInfo>> {
    if (ids.length === 0) return new Map();
    const rows = await manager.query<VersionRow[]>(
      `SELECT flow_block_version_id::text AS id, tenant_id, status, configuration_schema, source_code, source_sha256, script_contract
         FROM flow_block_versions WHERE flow_block_version_id = ANY($1::uuid[])`,
      [ids],
    );
    return new Map(rows.map((row) => [row.id, toInfo(row)]));
  }
}

function toInfo(row: VersionRow): CustomBlockVersionInfo {
  const runnable = row.status !== 'draft' && row.script_contract !== null;
  return {
    flowBlockVersionId: row.id,
    tenantId: row.tenant_id,
    status: row.status,
    // A version without a configuration schema takes any configuration object.
    configurationSchema: row.configuration_schema ?? { type: 'object' },
    artifact: runnable ? { format: 'uplink-script.v1', source: row.source_code, sha256: row.source_sha256, scriptContract: row.script_contract as ScriptContract } : null,
    scriptContract: row.script_contract,
  };
}
