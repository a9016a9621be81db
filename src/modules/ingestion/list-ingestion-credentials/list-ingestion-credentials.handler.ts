import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { ValidationFailedError } from '../../../shared/errors/domain-error';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import type { Page } from '../../../shared/pagination/page';
import { runTenantList } from '../../../shared/pagination/tenant-list';
import { IngestionCredentialEntity } from '../persistence/ingestion-credential.entity';
import { IngestionCredentialResponse } from '../dto/ingestion-credential.response.dto';
import { ListIngestionCredentialsQuery, ListTenantIngestionCredentialsQuery } from './list-ingestion-credentials.query';

const KEYS = { createdAt: 'c.created_at', id: 'c.ingestion_credential_id' };

/** The tenant's credentials, "Ascending" family, filtered by `status`. */
@QueryHandler(ListTenantIngestionCredentialsQuery)
export class ListTenantIngestionCredentialsHandler
  implements IQueryHandler<ListTenantIngestionCredentialsQuery, Page<IngestionCredentialResponse>>
{
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ caller, tenantNumber, params }: ListTenantIngestionCredentialsQuery): Promise<Page<IngestionCredentialResponse>> {
    const status = params.status ?? null;
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/ingestion-credentials`,
      filters: { status },
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.require(caller.permission),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(IngestionCredentialEntity)
          .createQueryBuilder('c')
          .where('c.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (status) query.andWhere('c.status = :status', { status });
        const page = await this.paginator.ascending(query, KEYS, pageRequest);
        return { ...page, items: page.items.map((row) => IngestionCredentialResponse.of(row)) };
      },
    });
  }
}

/** Every credential of every scope for platform admins, "Ascending" family. */
@QueryHandler(ListIngestionCredentialsQuery)
export class ListIngestionCredentialsHandler implements IQueryHandler<ListIngestionCredentialsQuery, Page<IngestionCredentialResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ actorId, params }: ListIngestionCredentialsQuery): Promise<Page<IngestionCredentialResponse>> {
    const filters = { status: params.status ?? null, scope: params.scope ?? null, tenantId: params.tenantId?.toLowerCase() ?? null };
    const pageRequest = { actorId, scope: 'ingestion-credentials', filters, limit: params.limit, cursor: params.cursor };
    this.paginator.verify(pageRequest);
    const query = this.dataSource.getRepository(IngestionCredentialEntity).createQueryBuilder('c');
    if (filters.tenantId) {
      const [tenant] = await this.dataSource.query<unknown[]>(`SELECT 1 FROM tenants WHERE tenant_id = $1`, [filters.tenantId]);
      if (!tenant) throw ValidationFailedError.single('query.tenantId', 'reference_not_found', 'No tenant has this id.');
      query.andWhere('c.tenant_id = :tenantId', { tenantId: filters.tenantId });
    }
    if (filters.status) query.andWhere('c.status = :status', { status: filters.status });
    if (filters.scope) query.andWhere('c.scope = :scope', { scope: filters.scope });
    const page = await this.paginator.ascending(query, KEYS, pageRequest);
    return { ...page, items: page.items.map((row) => IngestionCredentialResponse.of(row)) };
  }
}
