import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource, SelectQueryBuilder } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { runTenantList, searchTerm } from '../../../shared/pagination/tenant-list';
import { FlowBlockEntity } from '../persistence/flow-block.entity';
import { FlowBlockResponse } from '../dto/flow-block.response.dto';
import { FlowBlockStore } from '../persistence/flow-block.store';
import { ListGlobalFlowBlocksQuery, ListTenantFlowBlocksQuery } from './list-flow-blocks.query';

/** Ascending by (createdAt, flowBlockId), `q` on key or name, exact totalCount; never sources or artifacts. */
async function pageOf(
  dataSource: DataSource,
  paginator: KeysetPaginator,
  store: FlowBlockStore,
  query: SelectQueryBuilder<FlowBlockEntity>,
  q: string | null,
  pageRequest: Parameters<KeysetPaginator['ascending']>[2],
): Promise<Page<FlowBlockResponse>> {
  if (q) query.andWhere(`(b.key ILIKE :pattern ESCAPE '\\' OR b.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });
  const page = await paginator.ascending(query, { createdAt: 'b.created_at', id: 'b.flow_block_id' }, pageRequest);
  const latest = await store.latestVersionNumbers(dataSource.manager, page.items.map((block) => block.flowBlockId));
  return { ...page, items: page.items.map((block) => FlowBlockResponse.of(block, latest.get(block.flowBlockId) ?? null)) };
}

/** The global blocks: any signed-in caller may list them. */
@QueryHandler(ListGlobalFlowBlocksQuery)
export class ListGlobalFlowBlocksHandler implements IQueryHandler<ListGlobalFlowBlocksQuery, Page<FlowBlockResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ principal, params }: ListGlobalFlowBlocksQuery): Promise<Page<FlowBlockResponse>> {
    const q = searchTerm(params.q);
    const pageRequest = { actorId: principal.userId, scope: 'flow-blocks', filters: { q }, limit: params.limit, cursor: params.cursor };
    this.paginator.verify(pageRequest);
    const query = this.dataSource.getRepository(FlowBlockEntity).createQueryBuilder('b').where('b.tenant_id IS NULL');
    return pageOf(this.dataSource, this.paginator, this.store, query, q, pageRequest);
  }
}

/** The tenant's own blocks (`blocks:read` through a tenant-level grant). */
@QueryHandler(ListTenantFlowBlocksQuery)
export class ListTenantFlowBlocksHandler implements IQueryHandler<ListTenantFlowBlocksQuery, Page<FlowBlockResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
    private readonly store: FlowBlockStore,
  ) {}

  async execute({ caller, tenantNumber, params }: ListTenantFlowBlocksQuery): Promise<Page<FlowBlockResponse>> {
    const q = searchTerm(params.q);
    const pageRequest = { actorId: caller.principal.userId, scope: `tenants/${tenantNumber}/flow-blocks`, filters: { q }, limit: params.limit, cursor: params.cursor };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      query: (access) => {
        const query = this.dataSource
          .getRepository(FlowBlockEntity)
          .createQueryBuilder('b')
          .where('b.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        return pageOf(this.dataSource, this.paginator, this.store, query, q, pageRequest);
      },
    });
  }
}
