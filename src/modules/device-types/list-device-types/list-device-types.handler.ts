import { IQueryHandler, QueryHandler } from '@nestjs/cqrs';
import { DataSource } from 'typeorm';
import { AccessService } from '../../../shared/access/access.service';
import { KeysetPaginator } from '../../../shared/pagination/keyset-paginator';
import { containsPattern } from '../../../shared/pagination/like-pattern';
import type { Page } from '../../../shared/pagination/page';
import { DeviceTypeEntity } from '../domain/device-type.entity';
import { DeviceTypeResponse } from '../domain/device-type.response.dto';
import { ListDeviceTypesQuery } from './list-device-types.query';

/** Design §5.8: the tenant's device types, "Ascending" family (design §4), filtered by `status` and `q`. */
@QueryHandler(ListDeviceTypesQuery)
export class ListDeviceTypesHandler implements IQueryHandler<ListDeviceTypesQuery, Page<DeviceTypeResponse>> {
  constructor(
    private readonly dataSource: DataSource,
    private readonly accessService: AccessService,
    private readonly paginator: KeysetPaginator,
  ) {}

  async execute({ caller, tenantNumber, params }: ListDeviceTypesQuery): Promise<Page<DeviceTypeResponse>> {
    const access = await this.accessService.tenantByNumber(caller.principal, tenantNumber);
    access.requireAnywhere(caller.permission);
    const { tenantId } = access.tenant;
    const status = params.status ?? null;
    const q = params.q ?? null;

    const query = this.dataSource.getRepository(DeviceTypeEntity).createQueryBuilder('dt').where('dt.tenant_id = :tenantId', { tenantId });
    if (status) query.andWhere('dt.status = :status', { status });
    if (q) query.andWhere(`(dt.key ILIKE :pattern ESCAPE '\\' OR dt.name ILIKE :pattern ESCAPE '\\')`, { pattern: containsPattern(q) });

    const page = await this.paginator.ascending(
      query,
      { createdAt: 'dt.created_at', id: 'dt.device_type_id' },
      {
        actorId: caller.principal.userId,
        scope: `tenants/${tenantId}/device-types`,
        filters: { status, q },
        limit: params.limit,
        cursor: params.cursor,
      },
    );
    return { ...page, items: page.items.map((type) => DeviceTypeResponse.of(type)) };
  }
}
