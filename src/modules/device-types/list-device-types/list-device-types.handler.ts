import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { DeviceTypeEntity } from '../persistence/device-type.entity';
import { DeviceTypeResponse } from '../dto/device-type.response.dto';
import { ListDeviceTypesQuery } from './list-device-types.query';
import { runTenantList, searchTerm } from '../../../shared/pagination/tenant-list';

/** The tenant's device types, "Ascending" family, filtered by `status` and `q`. */
@QueryHandler(ListDeviceTypesQuery)
export class ListDeviceTypesHandler implements IQueryHandler<ListDeviceTypesQuery, Page<DeviceTypeResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ caller, tenantNumber, params }: ListDeviceTypesQuery): Promise<Page<DeviceTypeResponse>> {
    const status = params.status ?? null;
    const q = searchTerm(params.q);
    const pageRequest = {
      actorId: caller.principal.userId,
      scope: `tenants/${tenantNumber}/device-types`,
      filters: { status, q },
      limit: params.limit,
      cursor: params.cursor,
    };
    return runTenantList({
      validate: () => this.paginator.verify(pageRequest),
      tenant: () => this.accessService.tenantByNumber(caller.principal, tenantNumber),
      permission: (access) => access.requireAnywhere(caller.permission),
      query: async (access) => {
        const query = this.dataSource
          .getRepository(DeviceTypeEntity)
          .createQueryBuilder('dt')
          .where('dt.tenant_id = :tenantId', { tenantId: access.tenant.tenantId });
        if (status) query.andWhere('dt.status = :status', { status });
        if (q) query.andWhere(`(dt.key ILIKE :pattern ESCAPE '\\' OR dt.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });
        const page = await this.paginator.ascending(query, { createdAt: 'dt.created_at', id: 'dt.device_type_id' }, pageRequest);
        return { ...page, items: page.items.map((type) => DeviceTypeResponse.of(type)) };
      },
    });
  }
}
