import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { TenantEntity } from '../../tenancy';
import { namedPredicate } from '../../../shared/access/named-predicate';
import { TenantResponse } from '../dto/tenant.response.dto';
import { ListTenantsQuery } from './list-tenants.query';
import { searchTerm } from '../../../shared/pagination/tenant-list';

/** Platform admins see every tenant; anyone else only tenants where they hold an effective grant. */
@QueryHandler(ListTenantsQuery)
export class ListTenantsHandler implements IQueryHandler<ListTenantsQuery, Page<TenantResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly access: AccessService,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ principal, params }: ListTenantsQuery): Promise<Page<TenantResponse>> {
    // An empty search matches everything, so it is the same query (and cursor binding) as no search.
    const q = searchTerm(params.q);
    const status = params.status ?? null;
    const visible = namedPredicate(this.access.visibleTenants(principal, 't', 0), 'visible');
    const query = this.dataSource.getRepository(TenantEntity).createQueryBuilder('t').where(visible.sql, visible.params);
    if (status) query.andWhere('t.status = :status', { status });
    if (q) query.andWhere(`(t.key ILIKE :pattern ESCAPE '\\' OR t.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });
    const page = await this.paginator.ascending(
      query,
      { createdAt: 't.created_at', id: 't.tenant_id' },
      { actorId: principal.userId, scope: 'tenants', filters: { status, q }, limit: params.limit, cursor: params.cursor },
    );
    return { ...page, items: page.items.map((tenant) => TenantResponse.of(tenant)) };
  }
}
