import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { BlockVersionLookup, CustomBlockVersionInfo } from './block-version-lookup';

/** The stored custom block versions (global and per tenant) as flow validation sees them. */
@Injectable()
export class StoredCustomBlocks implements BlockVersionLookup {
  async findVersions(manager: EntityManager, ids: readonly string[]): Promise<Map<string, CustomBlockVersionInfo>> {
    if (ids.length === 0) return new Map();
    const rows = await manager.query<{ id: string; tenant_id: string | null; status: CustomBlockVersionInfo['status']; configuration_schema: Record<string, unknown> | null }[]>(
      `SELECT flow_block_version_id::text AS id, tenant_id, status, configuration_schema
         FROM flow_block_versions WHERE flow_block_version_id = ANY($1::uuid[])`,
      [ids],
    );
    // A version without a configuration schema takes any configuration object.
    return new Map(
      rows.map((row) => [
        row.id,
        { flowBlockVersionId: row.id, tenantId: row.tenant_id, status: row.status, configurationSchema: row.configuration_schema ?? { type: 'object' } },
      ]),
    );
  }
}
