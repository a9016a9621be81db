import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { ScriptContract } from '../../sandbox';
import { BUILT_IN_BLOCKS } from '../domain/built-in-blocks';
import { FlowBlockScope } from '../persistence/flow-block.entity';
import { CatalogBlockVersion, CatalogItem, FlowBlockCatalog } from '../dto/flow-block-catalog.response.dto';
import { GetFlowBlockCatalogQuery } from './get-flow-block-catalog.query';

/** Custom block versions have one output port. */
const CUSTOM_BLOCK_PORTS = ['out'];

interface CatalogRow {
  flow_block_id: string;
  scope: FlowBlockScope;
  key: string;
  name: string;
  description: string;
  flow_block_version_id: string;
  version_number: number;
  script_contract: ScriptContract;
  configuration_schema: Record<string, unknown> | null;
  released_at: Date;
}

/**
 * Everything a flow of the tenant can use, in one unpaged answer: the built-in blocks, then the global blocks and
 * the tenant's own blocks that have released versions (deprecated ones are not offered), by key.
 */
@QueryHandler(GetFlowBlockCatalogQuery)
export class GetFlowBlockCatalogHandler implements IQueryHandler<GetFlowBlockCatalogQuery, FlowBlockCatalog> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
  ) {}

  async execute({ caller, tenantNumber }: GetFlowBlockCatalogQuery): Promise<FlowBlockCatalog> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.require(caller.permission);
    const rows = await this.dataSource.query<CatalogRow[]>(
      `SELECT b.flow_block_id, b.scope, b.key, b.name, b.description, v.flow_block_version_id, v.version_number, v.script_contract,
              v.configuration_schema, v.released_at
         FROM flow_blocks b
         JOIN flow_block_versions v ON v.flow_block_id = b.flow_block_id AND v.status = 'released'
        WHERE b.tenant_id IS NULL OR b.tenant_id = $1
        ORDER BY b.scope, b.key, v.version_number DESC`,
      [access.tenant.tenantId],
    );
    const custom = new Map<string, CatalogItem & { versions: CatalogBlockVersion[] }>();
    for (const row of rows) {
      let item = custom.get(row.flow_block_id);
      if (!item) {
        item = { type: 'custom', flowBlockId: row.flow_block_id, scope: row.scope, key: row.key, name: row.name, description: row.description, versions: [] };
        custom.set(row.flow_block_id, item);
      }
      item.versions.push({
        flowBlockVersionId: row.flow_block_version_id,
        versionNumber: Number(row.version_number),
        scriptContract: row.script_contract,
        ports: [...CUSTOM_BLOCK_PORTS],
        configurationSchema: row.configuration_schema,
        releasedAt: new Date(row.released_at).toISOString(),
      });
    }
    const builtIns: CatalogItem[] = BUILT_IN_BLOCKS.map((block) => ({
      type: 'builtin',
      key: block.key,
      name: block.name,
      description: block.description,
      version: block.version,
      ports: [...block.ports],
      configurationSchema: block.configurationSchema as Record<string, unknown>,
    }));
    return { items: [...builtIns, ...custom.values()] };
  }
}
